/**
 * A rendered page: open the URL in a fresh context of the engine, let it run (the `load` event
 * for at most 10 s, a short network-quiet wait, `waitFor`), run the `actions`, take the `screenshot`, and hand back the DOM as it is
 * then (page.content()) for the parse core — the same runner as a fetched page.
 *
 * The page's own URL is checked against the address rule before navigating (a clear
 * URL_BLOCKED); everything after (subresources, redirects, scripts' fetches, WebSockets) is
 * checked by the guarded proxy. A redirect of the page itself to a refused address is
 * URL_BLOCKED too (the proxy marks its refusal), and the request's `timeout` bounds the whole
 * render, the wait for a free page included (SCRAPE_TIMEOUT).
 */
import type { BrowserContextOptions, Page, Response } from 'playwright-core';
import { isServiceError, ServiceError } from '../errors.ts';
import { displayUrl } from '../web/fetch/fetcher.ts';
import { BlockedAddressError } from '../web/fetch/guarded-connect.ts';
import { runActions } from './actions.ts';
import { isAdHost } from './ad-hosts.ts';
import { dataUrl, type CaptureKind, type CaptureStore } from './captures.ts';
import type { BrowserEngine } from './engine.ts';
import { BLOCKED_HEADER, PROXY_ERROR_HEADER } from './guard-proxy.ts';
import type { HeldPages } from './held-pages.ts';
import type { Action, ActionsResult, ScreenshotFormat } from './schema.ts';
import type { SessionOwner } from './sessions.ts';

export const DEFAULT_VIEWPORT = { width: 1280, height: 800 } as const;
export const MOBILE_VIEWPORT = { width: 390, height: 844 } as const;
const MOBILE_USER_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36 (compatible; folio/0.1)';
/** After the DOM is ready: how long to wait at most for `load` (slow images must not fail the scrape). */
const LOAD_WAIT_MS = 10_000;
/** After `load`: how long to wait at most for the network to go quiet (scripts fetching content). */
const NETWORK_IDLE_MS = 2_000;
/** Quiet means no request in flight for this long. */
const QUIET_MS = 100;

export interface RenderRequest {
  url: string;
  /** Sent with every request to the page's own origin (not to third parties). */
  headers: Record<string, string>;
  /** Time left of the request's timeout for the render. */
  timeoutMs: number;
  /** The request's whole `timeout`, named in the timeout error (default timeoutMs). */
  requestTimeoutMs?: number;
  skipTlsVerification: boolean;
  mobile: boolean;
  waitFor: number;
  blockAds: boolean;
  actions: readonly Action[];
  screenshot?: ScreenshotFormat | undefined;
  /** Captures are returned inline (data: URLs), never stored. */
  zeroDataRetention: boolean;
  signal?: AbortSignal | undefined;
  /** Keep the page open afterwards for interact, under this scrape id and owner (held-pages.ts). */
  hold?: { scrapeId: string; owner: SessionOwner } | undefined;
}

export interface RenderedPage {
  /** The final URL of the page (after redirects and actions). */
  url: string;
  status: number;
  /** The Content-Type the site served the page with. */
  servedContentType: string;
  /** The rendered DOM, UTF-8. */
  html: Buffer;
  screenshot?: string;
  actions?: ActionsResult;
  /** The page was kept open for interact. */
  held?: boolean;
}

export interface RenderDeps {
  engine: BrowserEngine;
  captures: CaptureStore;
  held?: HeldPages;
}

function blocked(url: string, why: string): ServiceError {
  return new ServiceError('URL_BLOCKED', `Refused to render ${displayUrl(url)}: ${why}. folio's browser only loads public http(s) addresses; an operator can allow a host with FOLIO_FETCH_ALLOW.`);
}

function timeoutError(url: string, timeoutMs: number): ServiceError {
  return new ServiceError('SCRAPE_TIMEOUT', `Rendering ${displayUrl(url)} did not finish within ${timeoutMs} ms (the wait for a free browser page included). Raise \`timeout\` (up to 300000), or use fewer or shorter actions.`);
}

function contextOptions(req: RenderRequest): BrowserContextOptions {
  const viewport = req.screenshot?.viewport ?? (req.mobile ? MOBILE_VIEWPORT : DEFAULT_VIEWPORT);
  return {
    viewport,
    deviceScaleFactor: 1,
    ignoreHTTPSErrors: req.skipTlsVerification,
    ...(req.mobile ? { isMobile: true, hasTouch: true, userAgent: MOBILE_USER_AGENT } : {}),
  };
}

/** Ads aborted, the request's headers added to requests to the page's own origin only. */
async function routeRequests(page: Page, req: RenderRequest, origin: string): Promise<void> {
  const headers = Object.entries(req.headers);
  if (!req.blockAds && headers.length === 0) return;
  await page.route('**/*', async (route) => {
    const request = route.request();
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      await route.continue();
      return;
    }
    if (req.blockAds && isAdHost(url.hostname)) {
      await route.abort('blockedbyclient');
      return;
    }
    if (headers.length > 0 && url.origin === origin) {
      await route.continue({ headers: { ...request.headers(), ...Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v])) } });
      return;
    }
    await route.continue();
  });
}

/** The page's own answer: a refusal or failure of the proxy is the scrape's error. */
function checkMainResponse(url: string, response: Response | null): void {
  if (!response) return;
  const headers = response.headers();
  const refusedWhy = headers[BLOCKED_HEADER];
  if (refusedWhy) throw blocked(url, `${displayUrl(response.url())} is refused (${refusedWhy})`);
  const failed = headers[PROXY_ERROR_HEADER];
  if (failed) throw new ServiceError('FETCH_FAILED', `Could not render ${displayUrl(url)}: ${displayUrl(response.url())}: ${failed}.`);
}

function navigationFailure(url: string, err: unknown): ServiceError {
  const message = err instanceof Error ? err.message : String(err);
  const net = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  if (net === 'ERR_TUNNEL_CONNECTION_FAILED') {
    return new ServiceError('FETCH_FAILED', `Could not render ${displayUrl(url)}: a connection of the page (or a redirect of it) was refused by folio's address rules or could not be opened.`, { cause: err });
  }
  return new ServiceError('FETCH_FAILED', `Could not render ${displayUrl(url)}: the browser failed to load it (${net ?? (message.split('\n')[0] ?? '').slice(0, 200)}).`, { cause: err });
}

/** Counts the page's requests in flight (from before navigation on). */
function trackRequests(page: Page): () => number {
  let inFlight = 0;
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  return () => inFlight;
}

/**
 * Waits until no request has been in flight for QUIET_MS (a script fetching the content after
 * `load`), at most `maxMs`. Cheaper than Playwright's `networkidle` (500 ms of silence always).
 */
async function waitForQuiet(page: Page, inFlight: () => number, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  let quietSince = inFlight() === 0 ? Date.now() : Number.POSITIVE_INFINITY;
  while (Date.now() < until) {
    await page.waitForTimeout(25);
    if (inFlight() > 0) quietSince = Number.POSITIVE_INFINITY;
    else if (quietSince === Number.POSITIVE_INFINITY) quietSince = Date.now();
    if (Date.now() - quietSince >= QUIET_MS) return;
  }
}

export async function render(req: RenderRequest, deps: RenderDeps): Promise<RenderedPage> {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch {
    throw new ServiceError('BAD_REQUEST', `'${req.url.slice(0, 200)}' is not a valid absolute URL.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw blocked(req.url, `the '${target.protocol.replace(/:$/, '')}' scheme is not allowed`);
  try {
    await deps.engine.checkTarget({ host: target.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80) });
  } catch (err) {
    if (err instanceof BlockedAddressError) throw blocked(req.url, err.message);
    // A name that does not resolve fails in the browser with a clear error below.
  }

  const started = Date.now();
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
  const remaining = () => Math.max(0, req.timeoutMs - (Date.now() - started));
  const timedOut = () => deadline.aborted || remaining() < 50;
  const save = (bytes: Buffer, kind: CaptureKind): Promise<string> => (req.zeroDataRetention ? Promise.resolve(dataUrl(bytes, kind)) : deps.captures.save(bytes, kind));

  try {
    const lease = await deps.engine.openContext(contextOptions(req), signal);
    let kept = false;
    try {
      if (signal.aborted) throw signal.reason;
      const context = lease.context;
      // The deadline or the client going away closes the context: whatever runs in it throws.
      const stop = () => void context.close().catch(() => undefined);
      signal.addEventListener('abort', stop, { once: true });
      try {
        const page = await context.newPage();
        const inFlight = trackRequests(page);
        await routeRequests(page, req, target.origin);
        let response: Response | null;
        try {
          response = await page.goto(target.href, { waitUntil: 'domcontentloaded', timeout: Math.max(1, remaining()) });
        } catch (err) {
          if (timedOut() || signal.aborted) throw err;
          throw navigationFailure(req.url, err);
        }
        checkMainResponse(req.url, response);
        await page.waitForLoadState('load', { timeout: Math.max(1, Math.min(LOAD_WAIT_MS, remaining())) }).catch(() => undefined);
        await waitForQuiet(page, inFlight, Math.min(NETWORK_IDLE_MS, remaining()));
        if (req.waitFor > 0) await page.waitForTimeout(Math.min(req.waitFor, remaining()));
        const actions = req.actions.length > 0 ? await runActions(page, req.actions, { remaining, save }, timedOut) : undefined;
        const html = Buffer.from(await page.content(), 'utf8');
        let screenshot: string | undefined;
        if (req.screenshot) {
          const jpeg = req.screenshot.quality !== undefined;
          const bytes = await page.screenshot({ fullPage: req.screenshot.fullPage ?? false, type: jpeg ? 'jpeg' : 'png', ...(jpeg ? { quality: req.screenshot.quality } : {}), timeout: Math.max(1, remaining()) });
          screenshot = await save(bytes, jpeg ? 'jpeg' : 'png');
        }
        const answer: RenderedPage = {
          url: page.url(),
          status: response?.status() ?? 200,
          servedContentType: response?.headers()['content-type'] ?? 'text/html',
          html,
          ...(screenshot !== undefined ? { screenshot } : {}),
          ...(actions ? { actions } : {}),
        };
        signal.removeEventListener('abort', stop);
        if (req.hold && deps.held && !signal.aborted && deps.engine.devtoolsUrl(lease.browser) !== undefined) {
          // The lease (context and page slot) goes to the held pages, which release it in any case.
          kept = true;
          if (await deps.held.hold(req.hold.scrapeId, req.hold.owner, page, lease)) answer.held = true;
        }
        return answer;
      } finally {
        signal.removeEventListener('abort', stop);
      }
    } finally {
      if (!kept) await lease.release();
    }
  } catch (err) {
    if (req.signal?.aborted) throw req.signal.reason;
    if (deadline.aborted || (timedOut() && !isServiceError(err))) throw timeoutError(req.url, req.requestTimeoutMs ?? req.timeoutMs);
    if (isServiceError(err)) throw err;
    throw new ServiceError('FETCH_FAILED', `Could not render ${displayUrl(req.url)}: the browser failed (${err instanceof Error ? (err.message.split('\n')[0] ?? '').slice(0, 200) : 'unknown error'}).`, { cause: err });
  }
}
