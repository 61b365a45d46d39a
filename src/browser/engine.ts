/**
 * One headless Chromium per process (Debian's `chromium`, driven by playwright-core), launched
 * on the first render and launched again if it dies; at most `maxPages` pages open at once (the
 * rest wait, and the wait counts against the request's timeout); one fresh browser CONTEXT per
 * render, closed after it, so no cookie, storage or cache is shared between requests.
 *
 * Every request Chromium makes goes through the guarded proxy (guard-proxy.ts), started with the
 * engine: `--proxy-server` names it and `--proxy-bypass-list=<-loopback>` takes away Chromium's
 * built-in bypass of loopback. QUIC is off (it would not go through an HTTP proxy), WebRTC may
 * not send UDP outside the proxy, and service workers are blocked in every context. Chromium's
 * own sandbox is used unless folio runs as root (FOLIO_BROWSER_SANDBOX).
 */
import net from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { ServiceError } from '../errors.ts';
import type { LookupFunction } from '../web/fetch/guarded-connect.ts';
import { cdpCommand } from './cdp-scope.ts';
import { startGuardProxy, type GuardProxy, type ProxyStats, type Target } from './guard-proxy.ts';

/**
 * playwright-core takes about a second to import: it is loaded on the first launch (node caches
 * it), so a service that never renders, and every service's start, do without it.
 */
async function playwrightChromium(): Promise<typeof import('playwright-core').chromium> {
  return (await import('playwright-core')).chromium;
}

export interface BrowserEngineOptions {
  executablePath: string;
  /** Chromium's sandbox: `auto` = on unless this process runs as root. */
  sandbox: 'auto' | 'on' | 'off';
  /** Pages (contexts) open at once. */
  maxPages: number;
  /** FOLIO_FETCH_ALLOW entries (the same address rule as the fetcher). */
  allow: readonly string[];
  lookup?: LookupFunction;
  onRefused?: (target: string, reason: string) => void;
  /** Told when Chromium exits unexpectedly (it is launched again on the next render). */
  onCrash?: () => void;
}

export interface BrowserEngine {
  /** Runs `fn` with a new context of its own in a page slot; the context is closed afterwards. */
  withContext<T>(options: BrowserContextOptions, signal: AbortSignal, fn: (context: BrowserContext) => Promise<T>): Promise<T>;
  /**
   * A new context in a page slot that the caller ends with `release()` (closes the context, frees
   * the slot): a render whose page is held for interact keeps both until then.
   */
  openContext(options: BrowserContextOptions, signal: AbortSignal): Promise<ContextLease>;
  /**
   * Called when a render waits for a page slot: it may free one (held-pages.ts closes its oldest
   * idle page) and answers whether it did.
   */
  setReclaimer(reclaim: () => boolean): void;
  /**
   * The shared Chromium's own DevTools endpoint (loopback, a port chosen at launch): only for the
   * scoped relay (cdp-scope.ts), never handed to a caller. Undefined when Chromium is not running.
   */
  devtoolsUrl(browser: Browser): string | undefined;
  /**
   * A Chromium of its own for a browser session (sessions.ts): the same switches and guarded
   * proxy, a persistent profile in `userDataDir` (deleted by the caller), and a DevTools endpoint
   * on loopback (`--remote-debugging-port=0`, its port read from DevToolsActivePort).
   */
  launchDedicated(userDataDir: string): Promise<BrowserContext>;
  /** The address rule, for the page's own URL before navigating (rejects with BlockedAddressError). */
  checkTarget(target: Target): Promise<void>;
  /** Refusals and tunnels of the guarded proxy (zeros before the first render). */
  readonly proxyStats: Readonly<ProxyStats>;
  close(): Promise<void>;
}

export interface ContextLease {
  readonly context: BrowserContext;
  readonly browser: Browser;
  /** Closes the context and frees its page slot (once; later calls do nothing). */
  release(): Promise<void>;
}

/** A free TCP port on loopback (for Chromium's DevTools endpoint; checked after launch). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Chromium switches: the proxy, no QUIC, no WebRTC UDP around it, nothing phoning home. */
export function chromiumArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--dns-prefetch-disable',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-features=DnsOverHttps,MediaRouter,OptimizationHints',
    '--no-first-run',
    '--mute-audio',
  ];
}

/** A counting semaphore whose waiters give up when their signal aborts. */
function createSlots(size: number, reclaim: () => boolean) {
  let free = size;
  const waiters: { resolve: () => void; reject: (err: unknown) => void; signal: AbortSignal; onAbort: () => void }[] = [];
  return {
    acquire(signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          resolve,
          reject,
          signal,
          onAbort: () => {
            const i = waiters.indexOf(waiter);
            if (i >= 0) waiters.splice(i, 1);
            reject(signal.reason);
          },
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
        waiters.push(waiter);
        // A held interact page that nobody uses gives way to a render that waits.
        reclaim();
      });
    },
    release(): void {
      const next = waiters.shift();
      if (next) {
        next.signal.removeEventListener('abort', next.onAbort);
        next.resolve();
      } else free++;
    },
  };
}

/** `promise`, or the signal's reason as soon as it aborts (the promise goes on in the background). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

export function createBrowserEngine(options: BrowserEngineOptions): BrowserEngine {
  let reclaimer: () => boolean = () => false;
  const slots = createSlots(options.maxPages, () => reclaimer());
  const endpoints = new WeakMap<Browser, string>();
  let proxy: Promise<GuardProxy> | undefined;
  let launching: Promise<Browser> | undefined;
  let current: Browser | undefined;
  let closed = false;
  const emptyStats: ProxyStats = { refused: 0, allowed: 0, refusedTargets: [] };
  let stats: Readonly<ProxyStats> = emptyStats;

  const guard = (): Promise<GuardProxy> => {
    proxy ??= startGuardProxy({ allow: options.allow, ...(options.lookup ? { lookup: options.lookup } : {}), ...(options.onRefused ? { onRefused: options.onRefused } : {}) }).then((p) => {
      stats = p.stats;
      return p;
    });
    return proxy;
  };

  const launch = async (): Promise<Browser> => {
    const p = await guard();
    // Without the sandbox Playwright adds --no-sandbox; Chromium refuses its sandbox to root.
    const sandbox = options.sandbox === 'on' || (options.sandbox === 'auto' && process.getuid?.() !== 0);
    // A DevTools port on loopback for interact's scoped relay (cdp-scope.ts); Playwright itself uses a pipe.
    const port = await freePort();
    const chromium = await playwrightChromium();
    const browser = await chromium.launch({ executablePath: options.executablePath, headless: true, args: [...chromiumArgs(p.url), `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'], chromiumSandbox: sandbox, timeout: 60_000 });
    await recordEndpoint(browser, port).catch(() => undefined);
    browser.on('disconnected', () => {
      if (current === browser) {
        current = undefined;
        if (!closed) options.onCrash?.();
      }
    });
    current = browser;
    return browser;
  };

  /**
   * The endpoint at `port`, if it is this Chromium's and not a process that took the port first:
   * a context created over Playwright's pipe must be listed there.
   */
  const recordEndpoint = async (browser: Browser, port: number): Promise<void> => {
    const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(5000) })).json()) as { webSocketDebuggerUrl?: unknown };
    const url = typeof version.webSocketDebuggerUrl === 'string' ? version.webSocketDebuggerUrl : '';
    if (!url.startsWith(`ws://127.0.0.1:${port}/devtools/browser/`)) return;
    const session = await browser.newBrowserCDPSession();
    try {
      const { browserContextId } = await session.send('Target.createBrowserContext', { disposeOnDetach: true });
      try {
        const listed = await cdpCommand(url, 'Target.getBrowserContexts');
        if (Array.isArray(listed.browserContextIds) && listed.browserContextIds.includes(browserContextId)) endpoints.set(browser, url);
      } finally {
        await session.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
      }
    } finally {
      await session.detach().catch(() => undefined);
    }
  };

  const browser = async (): Promise<Browser> => {
    if (closed) throw new ServiceError('NOT_CONFIGURED', 'The browser engine is shutting down.');
    if (current?.isConnected()) return current;
    launching ??= launch().finally(() => {
      launching = undefined;
    });
    try {
      return await launching;
    } catch (err) {
      throw new ServiceError(
        'NOT_CONFIGURED',
        `The browser engine could not start Chromium at ${options.executablePath} (${err instanceof Error ? (err.message.split('\n')[0] ?? '').slice(0, 200) : 'unknown error'}). Install Debian's chromium package or set FOLIO_BROWSER_EXECUTABLE; FOLIO_BROWSER=off turns rendering off.`,
        { cause: err },
      );
    }
  };

  const openContext = async (contextOptions: BrowserContextOptions, signal: AbortSignal): Promise<ContextLease> => {
    await slots.acquire(signal);
    try {
      // A launch slower than the request's timeout does not hold the request (it goes on for the next one).
      const open = async () => {
        const b = await untilAborted(browser(), signal);
        return { b, context: await b.newContext({ ...contextOptions, serviceWorkers: 'block', acceptDownloads: false }) };
      };
      let opened: { b: Browser; context: BrowserContext };
      try {
        opened = await open();
      } catch (err) {
        // Chromium died and its 'disconnected' event has not been seen yet: launch it again, once.
        if (current?.isConnected() !== false && current !== undefined) throw err;
        opened = await open();
      }
      let released = false;
      return {
        context: opened.context,
        browser: opened.b,
        async release() {
          if (released) return;
          released = true;
          try {
            await opened.context.close().catch(() => undefined);
          } finally {
            slots.release();
          }
        },
      };
    } catch (err) {
      slots.release();
      throw err;
    }
  };

  return {
    openContext,
    setReclaimer(reclaim) {
      reclaimer = reclaim;
    },
    devtoolsUrl: (b) => (b.isConnected() ? endpoints.get(b) : undefined),
    async withContext(contextOptions, signal, fn) {
      const lease = await openContext(contextOptions, signal);
      try {
        if (signal.aborted) throw signal.reason;
        return await fn(lease.context);
      } finally {
        await lease.release();
      }
    },
    async launchDedicated(userDataDir) {
      if (closed) throw new ServiceError('NOT_CONFIGURED', 'The browser engine is shutting down.');
      const p = await guard();
      const sandbox = options.sandbox === 'on' || (options.sandbox === 'auto' && process.getuid?.() !== 0);
      const chromium = await playwrightChromium();
      try {
        return await chromium.launchPersistentContext(userDataDir, {
          executablePath: options.executablePath,
          headless: true,
          args: [...chromiumArgs(p.url), '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1'],
          chromiumSandbox: sandbox,
          timeout: 60_000,
          serviceWorkers: 'block',
          acceptDownloads: false,
          viewport: { width: 1280, height: 800 },
          deviceScaleFactor: 1,
        });
      } catch (err) {
        throw new ServiceError(
          'NOT_CONFIGURED',
          `The browser engine could not start Chromium at ${options.executablePath} (${err instanceof Error ? (err.message.split('\n')[0] ?? '').slice(0, 200) : 'unknown error'}). Install Debian's chromium package or set FOLIO_BROWSER_EXECUTABLE.`,
          { cause: err },
        );
      }
    },
    async checkTarget(target) {
      await (await guard()).check(target);
    },
    get proxyStats() {
      return stats;
    },
    async close() {
      closed = true;
      const b = current ?? (await launching?.catch(() => undefined));
      current = undefined;
      await b?.close().catch(() => undefined);
      await (await proxy?.catch(() => undefined))?.close();
    },
  };
}
