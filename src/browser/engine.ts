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
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { ServiceError } from '../errors.ts';
import type { LookupFunction } from '../web/fetch/guarded-connect.ts';
import { startGuardProxy, type GuardProxy, type ProxyStats, type Target } from './guard-proxy.ts';

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
function createSlots(size: number) {
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
  const slots = createSlots(options.maxPages);
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
    const browser = await chromium.launch({ executablePath: options.executablePath, headless: true, args: chromiumArgs(p.url), chromiumSandbox: sandbox, timeout: 60_000 });
    browser.on('disconnected', () => {
      if (current === browser) {
        current = undefined;
        if (!closed) options.onCrash?.();
      }
    });
    current = browser;
    return browser;
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

  return {
    async withContext(contextOptions, signal, fn) {
      await slots.acquire(signal);
      try {
        // A launch slower than the request's timeout does not hold the request (it goes on for the next one).
        const open = async () => (await untilAborted(browser(), signal)).newContext({ ...contextOptions, serviceWorkers: 'block', acceptDownloads: false });
        let context: BrowserContext;
        try {
          context = await open();
        } catch (err) {
          // Chromium died and its 'disconnected' event has not been seen yet: launch it again, once.
          if (current?.isConnected() !== false && current !== undefined) throw err;
          context = await open();
        }
        try {
          if (signal.aborted) throw signal.reason;
          return await fn(context);
        } finally {
          await context.close().catch(() => undefined);
        }
      } finally {
        slots.release();
      }
    },
    async launchDedicated(userDataDir) {
      if (closed) throw new ServiceError('NOT_CONFIGURED', 'The browser engine is shutting down.');
      const p = await guard();
      const sandbox = options.sandbox === 'on' || (options.sandbox === 'auto' && process.getuid?.() !== 0);
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
