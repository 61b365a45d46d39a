/**
 * scrape(): fetch a URL through the SSRF-protected Fetcher, tell what the body is, and run the
 * SAME parse runner as `POST /v2/parse` on it. The response is the parse data object
 * (interface-v2 "POST /v2/scrape": "the same data object as parse"), with the fetch's facts in
 * `metadata`: `sourceURL` the requested URL, `url` the final URL after redirects, `statusCode`,
 * `contentType` as the server sent it, and `error` when the server answered 4xx/5xx (the page is
 * still parsed when it can be, as Firecrawl does). `metadata.scrapeId` is a fresh uuid.
 *
 * With a browser (the /v2/scrape door), src/browser's scrapeEngine() decides whether the fetched
 * HTML is rendered (actions, screenshot, waitFor, an app shell); the rendered DOM takes the
 * fetched page's place before the runner, and `screenshot`/`actions` join the data.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { scrapeEngine, type EngineChoice, type ActionsResult, type BrowserService, type SessionOwner } from '../browser/index.ts';
import { isServiceError } from '../errors.ts';
import type { ParseRunner } from '../limits/runner.ts';
import type { Progress } from '../parse/document.ts';
import type { ParseData } from '../parse/index.ts';
import type { Fetcher } from './fetch/types.ts';
import { APP_SHELL_WARNING, documentFilename, looksLikeAppShell } from './scrape-content.ts';
import { ignoredFieldWarnings, refuseUnsupportedScrapeFeatures, toParseOptions, type ScrapeOptions, type ScrapeRequest } from './scrape-options.ts';

export interface ScrapeDeps {
  fetcher: Fetcher;
  runner: ParseRunner;
  /** The browser engine (POST /v2/scrape): without it, actions and screenshots are refused. */
  browser?: BrowserService;
}

/** The scrape's data: parse's, plus what the browser made. */
export type ScrapeData = ParseData & { screenshot?: string; actions?: ActionsResult };

export interface ScrapeContext {
  /** Aborted when the client goes away or cancels. */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** The team it is for: its parse waits its turn in the team's fair queue (src/limits/teams). */
  teamId?: string;
  /** Keep a rendered page open for interact, owned by this team and key (the HTTP door and MCP with a key). */
  holdFor?: SessionOwner;
}

/** The least time left for parsing after a slow fetch, so a late body still gets a chance. */
const MIN_PARSE_MS = 1000;

function upstreamError(res: { url: string; status: number }): string | undefined {
  if (res.status < 400) return undefined;
  return `The server answered ${res.status}${http.STATUS_CODES[res.status] ? ` ${http.STATUS_CODES[res.status]}` : ''} for ${res.url}.`;
}

function requestHeaders(options: ScrapeOptions): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  const hasLanguage = Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language');
  const languages = options.location?.languages;
  if (!hasLanguage && languages && languages.length > 0) {
    // RFC 9110 §12.5.4: the first language preferred, the rest with falling weights.
    headers['accept-language'] = languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i * 0.1).toFixed(1)}`)).join(', ');
  }
  return headers;
}

function addWarnings(data: ParseData, warnings: string[]): void {
  if (warnings.length === 0) return;
  data.warning = [data.warning, ...warnings].filter(Boolean).join(' ');
}

function isHtmlDocument(res: { url: string; contentType?: string | undefined; body: Buffer }): boolean {
  try {
    return /\.html?$/.test(documentFilename(res.url, res.contentType, res.body));
  } catch {
    return false;
  }
}

export async function scrape(request: ScrapeRequest, deps: ScrapeDeps, ctx: ScrapeContext = {}): Promise<ScrapeData> {
  refuseUnsupportedScrapeFeatures(request, deps.browser ? 'scrape' : 'nested');
  const started = Date.now();
  const scrapeId = randomUUID();
  const headers = requestHeaders(request);
  const fetched = await deps.fetcher.fetch({
    url: request.url,
    headers,
    timeoutMs: request.timeout,
    skipTlsVerification: request.skipTlsVerification,
    ...(request.proxy === 'basic' || request.proxy === 'auto' ? { proxy: request.proxy } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const html = isHtmlDocument(fetched);
  const engine = await scrapeEngine(deps.browser, {
    options: request,
    fetched,
    html,
    appShell: html && looksLikeAppShell(fetched.body),
    headers,
    remainingMs: request.timeout - (Date.now() - started),
    signal: ctx.signal,
    ...(ctx.holdFor ? { hold: { scrapeId, owner: ctx.holdFor } } : {}),
  });
  try {
    return await finish(request, deps, ctx, { started, scrapeId, engine });
  } catch (err) {
    // Nobody will learn this scrapeId: its held page is closed now rather than when idle.
    if (engine.held && ctx.holdFor) {
      const held = await deps.browser?.held.use(scrapeId, ctx.holdFor.teamId);
      if (held) await deps.browser?.held.release(held, 'the scrape failed after rendering');
    }
    throw err;
  }
}

/** The rendered or fetched page, parsed into the scrape's data. */
async function finish(request: ScrapeRequest, deps: ScrapeDeps, ctx: ScrapeContext, s: { started: number; scrapeId: string; engine: EngineChoice }): Promise<ScrapeData> {
  const { started, scrapeId, engine } = s;
  const res = engine.page;
  const error = upstreamError(res);
  const facts = {
    sourceURL: request.url,
    url: res.url,
    statusCode: res.status,
    contentType: res.contentType ?? 'application/octet-stream',
    scrapeId,
  };
  const warnings = ignoredFieldWarnings(request, engine.rendered);
  if (engine.shellUnrendered) warnings.push(APP_SHELL_WARNING);
  warnings.push(...engine.warnings);

  let data: ScrapeData;
  try {
    const filename = documentFilename(res.url, engine.parseContentType ?? res.contentType, res.body);
    const remaining = Math.max(MIN_PARSE_MS, request.timeout - (Date.now() - started));
    const contentType = engine.parseContentType ?? res.contentType;
    data = await deps.runner(
      { bytes: res.body, filename, ...(contentType ? { contentType } : {}), sourceURL: request.url, url: res.url, statusCode: res.status },
      toParseOptions(request, remaining),
      { ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}), ...(ctx.teamId ? { teamId: ctx.teamId } : {}) },
    );
  } catch (err) {
    // An error page folio cannot read (an empty 404, a JSON 500) is still an answer about the URL.
    if (error === undefined || !isServiceError(err) || !['UNSUPPORTED_FILE_TYPE', 'CORRUPT_FILE'].includes(err.code)) throw err;
    data = { markdown: '', metadata: { ...facts, language: null } };
  }
  data.metadata = { ...data.metadata, ...facts, ...(error ? { error } : {}) };
  if (engine.screenshot !== undefined) data.screenshot = engine.screenshot;
  if (engine.actions) data.actions = engine.actions;
  addWarnings(data, warnings);
  return data;
}
