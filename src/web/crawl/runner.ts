/**
 * Runs one crawl job to its end: seeds the frontier (the start URL and, unless `sitemap: skip`,
 * the site's sitemap URLs), then takes queued URLs in discovery order and scrapes them through the
 * same scrape path as POST /v2/scrape, a few at once (the job's maxConcurrency, capped by the
 * server's crawlConcurrency, under one server-wide bound), one host at a time when a delay
 * applies. Each page's links (unless `sitemap: only`) go back into the frontier when they are in
 * scope, new, within maxDiscoveryDepth and under `limit`; robots.txt disallowed ones are recorded
 * as blocked. Everything is written to the store as it happens, so a job stopped with the process
 * resumes where it was (URLs left running are queued again).
 *
 * A batch scrape is a job of kind `batch`: its frontier is filled with its URLs when it is
 * created, no robots.txt or link discovery applies (each page is scraped as POST /v2/scrape
 * would, 4xx/5xx pages included as data), and it ends `completed` (page failures are errors).
 */
import { isServiceError } from '../../errors.ts';
import { errorForLog } from '../../log.ts';
import type { ParseData } from '../../parse/index.ts';
import type { CrawlJobStore, CrawlUrlEntry, JobKind } from '../../store/crawl-jobs.ts';
import type { Fetcher } from '../fetch/types.ts';
import { extractLinks, normalizeUrl } from '../links.ts';
import { similarUrls } from './similar-urls.ts';
import { RobotsCache } from '../robots.ts';
import { collectSitemapUrls, sitemapSeeds } from '../sitemap.ts';
import type { JobEventSink } from '../webhooks/index.ts';
import { compilePathPatterns } from './path-patterns.ts';
import { deserializeCrawlRequest, type CrawlRequest } from './request.ts';
import { checkScope, type ScopeRules } from './scope.ts';
import { CancelledError } from './queue.ts';
import { HostGate, Slots } from './slots.ts';

/** Scrapes one URL as POST /v2/scrape would; an upstream 4xx/5xx is data with metadata.error. */
/** `owner`: the job's owner (`team:<id>`), whose limits the page counts against (docs/limits.md). */
export type PageScraper = (url: string, options: CrawlRequest['scrapeOptions'], run: { signal: AbortSignal; owner?: string }) => Promise<ParseData>;

export interface CrawlProgress {
  jobId: string;
  /** Pages scraped. */
  completed: number;
  /** URLs accepted into the frontier (scraped, failed, running or waiting). */
  total: number;
}

export interface CrawlRunnerDeps {
  store: CrawlJobStore;
  fetcher: Fetcher;
  scrapePage: PageScraper;
  /** The server-wide bound on pages in flight (config.crawlConcurrency). */
  slots: Slots;
  /** config.crawlConcurrency: a job's maxConcurrency is capped by it. */
  maxConcurrency: number;
  /** How long finished jobs' results are kept. */
  resultTtlMs: number;
  onProgress?: (progress: CrawlProgress) => void;
  onError?: (jobId: string, err: unknown) => void;
  /** Job events (webhooks): a page stored, the job finished. */
  events?: JobEventSink;
}

/** robots.txt and sitemap fetches of a crawl wait at most this long each. */
export const DISCOVERY_TIMEOUT_MS = 15_000;

export const ZDR_CORRUPT_FILE = 'CORRUPT_FILE: the document could not be read (the reason is not kept under zeroDataRetention).';

/** What a page's error says in the job's errors list (never a stack or a page body). */
export function describeError(err: unknown): string {
  if (isServiceError(err)) return `${err.code}: ${err.message}`;
  if (err instanceof Error && err.name === 'AbortError') return 'aborted';
  return 'the page could not be scraped (unexpected error)';
}

/** Link discovery needs the raw HTML: it is requested and, unless asked for, dropped after. */
export function withRawHtml(options: CrawlRequest['scrapeOptions']): { options: CrawlRequest['scrapeOptions']; strip: boolean } {
  if (options.formats.some((f) => f.type === 'rawHtml')) return { options, strip: false };
  return { options: { ...options, formats: [...options.formats, { type: 'rawHtml' }] }, strip: true };
}

export function crawlScopeRules(request: CrawlRequest): ScopeRules {
  return {
    startUrl: request.url,
    includePaths: compilePathPatterns('includePaths', request.includePaths),
    excludePaths: compilePathPatterns('excludePaths', request.excludePaths),
    regexOnFullURL: request.regexOnFullURL,
    allowExternalLinks: request.allowExternalLinks,
    allowSubdomains: request.allowSubdomains,
    crawlEntireDomain: request.crawlEntireDomain,
  };
}

/**
 * Splits candidates by robots.txt and adds them to the frontier (under the job's limit); blocked
 * ones are recorded as such. Returns the URLs added as queued.
 */
export async function admitCrawlUrls(
  store: CrawlJobStore,
  robots: RobotsCache,
  jobId: string,
  limit: number,
  entries: CrawlUrlEntry[],
  signal: AbortSignal,
  dedupeSimilar = true,
): Promise<CrawlUrlEntry[]> {
  if (dedupeSimilar) entries = entries.map((e) => ({ ...e, aliases: similarUrls(e.url) }));
  const allowed: CrawlUrlEntry[] = [];
  const blocked: CrawlUrlEntry[] = [];
  for (const e of entries) {
    let ok: boolean;
    try {
      ok = (await robots.rulesFor(e.url)).isAllowed(e.url);
    } catch (err) {
      signal.throwIfAborted();
      // A blocked origin: let the page fetch fail with the reason, recorded as an error.
      if (!isServiceError(err)) throw err;
      ok = true;
    }
    (ok ? allowed : blocked).push(e);
  }
  if (blocked.length > 0) await store.addCrawlUrls(jobId, blocked, limit, 'blocked');
  return allowed.length > 0 ? store.addCrawlUrls(jobId, allowed, limit) : [];
}

/** A new job's frontier: the start URL and, unless `sitemap: skip`, the in-scope sitemap URLs. */
export async function seedCrawlFrontier(
  store: CrawlJobStore,
  fetcher: Fetcher,
  robots: RobotsCache,
  jobId: string,
  request: CrawlRequest,
  signal: AbortSignal,
): Promise<CrawlUrlEntry[]> {
  const added = await admitCrawlUrls(store, robots, jobId, request.limit, [{ url: request.url, depth: 0 }], signal, request.deduplicateSimilarURLs);
  if (request.sitemap === 'skip') return added;
  const rules = crawlScopeRules(request);
  const origin = new URL(request.url).origin;
  let sitemapUrls: string[] = [];
  try {
    const rules0 = await robots.rulesFor(request.url);
    const found = await collectSitemapUrls(fetcher, sitemapSeeds(origin, rules0.sitemaps()), {
      timeoutMs: DISCOVERY_TIMEOUT_MS,
      signal,
      maxUrls: Math.min(request.limit * 4, 100_000),
    });
    sitemapUrls = found.urls;
  } catch (err) {
    signal.throwIfAborted();
    if (!isServiceError(err)) throw err;
  }
  const inScope = sitemapUrls
    .map((u) => normalizeUrl(u, undefined, { ignoreQueryParameters: request.ignoreQueryParameters }))
    .filter((u): u is string => u !== undefined && checkScope(u, rules) === 'ok')
    .map((url) => ({ url, depth: 0 }));
  return [...added, ...(await admitCrawlUrls(store, robots, jobId, request.limit, inScope, signal, request.deduplicateSimilarURLs))];
}

/**
 * The job's end once its frontier is drained: a crawl is `failed` when no page could be crawled;
 * a batch is `completed` (its failed pages are in its errors). Only the call that moves the job
 * out of `scraping` reports it to `events`.
 */
export async function finishDrainedCrawlJob(store: CrawlJobStore, jobId: string, resultTtlMs: number, kind: JobKind = 'crawl', events?: JobEventSink): Promise<void> {
  const end = await store.crawlCounts(jobId);
  if (end.queued + end.running > 0) return;
  const expiresAt = new Date(Date.now() + resultTtlMs);
  if (kind === 'crawl' && end.done === 0 && end.failed + end.blocked > 0) {
    const first = (await store.crawlErrors(jobId))[0];
    const reason = first ? first.error : 'robots.txt disallows the start URL for user agent folio';
    const error = `No page could be crawled: ${reason}`;
    if (await store.finishCrawlJob(jobId, 'failed', error, expiresAt)) events?.finished(jobId, 'failed', error);
  } else if (await store.finishCrawlJob(jobId, 'completed', null, expiresAt)) {
    events?.finished(jobId, 'completed', null);
  }
}

export interface CrawlPageContext {
  store: CrawlJobStore;
  scrapePage: PageScraper;
  robots: RobotsCache;
  jobId: string;
  request: CrawlRequest;
  rules: ScopeRules;
  /** Default `crawl`; a `batch` follows no links. */
  kind?: JobKind;
  /** The job's owner, handed to the page scraper. */
  owner?: string;
  events?: JobEventSink;
  onError?: (jobId: string, err: unknown) => void;
}

/**
 * Scrapes one claimed (`running`) URL and records the outcome: its in-scope links go into the
 * frontier FIRST, then the page is marked done (with its result) or failed — so that whoever sees
 * no queued and no running URL knows the frontier is drained. Throws only when `signal` aborts
 * (the URL then stays `running`, to be taken again). Returns the URLs it added as queued.
 */
export async function crawlPage(ctx: CrawlPageContext, entry: CrawlUrlEntry, signal: AbortSignal): Promise<CrawlUrlEntry[]> {
  const { store, request, jobId } = ctx;
  const batch = ctx.kind === 'batch';
  try {
    const { options, strip } = batch ? { options: request.scrapeOptions, strip: false } : withRawHtml(request.scrapeOptions);
    const data = await ctx.scrapePage(entry.url, options, { signal, ...(ctx.owner ? { owner: ctx.owner } : {}) });
    const norm = { ignoreQueryParameters: request.ignoreQueryParameters };
    const links = batch || request.sitemap === 'only' || typeof data.rawHtml !== 'string' ? [] : extractLinks(data.rawHtml, data.metadata.url ?? entry.url, norm);
    if (strip) delete data.rawHtml;
    const depth = entry.depth + 1;
    let added: CrawlUrlEntry[] = [];
    if (links.length > 0 && (request.maxDiscoveryDepth === undefined || depth <= request.maxDiscoveryDepth)) {
      const inScope = links.filter((l) => checkScope(l.url, ctx.rules) === 'ok').map((l) => ({ url: l.url, depth }));
      added = await admitCrawlUrls(store, ctx.robots, jobId, request.limit, inScope, signal, request.deduplicateSimilarURLs);
    }
    const status = data.metadata.statusCode;
    if (!batch && typeof status === 'number' && status >= 400) {
      const error = `The page answered HTTP ${status}.`;
      await store.failCrawlUrl(jobId, entry.url, error);
      ctx.events?.pageFailed(jobId, entry.url, error);
    } else {
      // A page cancelled while its answer came in is not stored (the job's pages end at the cancel).
      if (signal.aborted && signal.reason instanceof CancelledError) throw signal.reason;
      await store.completeCrawlUrl(jobId, entry.url, JSON.stringify(data));
      ctx.events?.page(jobId, data);
    }
    return added;
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    const zdr = request.zeroDataRetention || request.scrapeOptions.zeroDataRetention;
    // Under zeroDataRetention a reader's "could not be read: <reason>" is not stored (the reason
    // comes from a library and may quote the document), nor an error's message logged (docs/zdr.md).
    const error = zdr && isServiceError(err) && err.code === 'CORRUPT_FILE' ? ZDR_CORRUPT_FILE : describeError(err);
    await store.failCrawlUrl(jobId, entry.url, error);
    ctx.events?.pageFailed(jobId, entry.url, error);
    if (!isServiceError(err)) ctx.onError?.(jobId, errorForLog(err, zdr));
    return [];
  }
}

export async function runCrawlJob(jobId: string, deps: CrawlRunnerDeps, signal: AbortSignal): Promise<void> {
  const job = await deps.store.getCrawlJob(jobId);
  if (!job || job.status !== 'scraping') return;
  const request = deserializeCrawlRequest(job.options);
  const rules = crawlScopeRules(request);
  const robots = new RobotsCache(deps.fetcher, { timeoutMs: DISCOVERY_TIMEOUT_MS, signal });
  const concurrency = Math.max(1, Math.min(request.maxConcurrency ?? deps.maxConcurrency, deps.maxConcurrency));
  const gate = new HostGate(concurrency);

  const report = async () => {
    if (!deps.onProgress) return;
    const c = await deps.store.crawlCounts(jobId);
    deps.onProgress({ jobId, completed: c.done, total: c.queued + c.running + c.done + c.failed });
  };

  const pageContext: CrawlPageContext = {
    store: deps.store,
    scrapePage: deps.scrapePage,
    robots,
    jobId,
    request,
    rules,
    kind: job.kind,
    owner: job.owner,
    ...(deps.events ? { events: deps.events } : {}),
    ...(deps.onError ? { onError: deps.onError } : {}),
  };

  const counts = await deps.store.crawlCounts(jobId);
  const fresh = counts.queued + counts.running + counts.done + counts.failed + counts.blocked === 0;
  if (fresh) {
    await seedCrawlFrontier(deps.store, deps.fetcher, robots, jobId, request, signal);
  } else {
    await deps.store.requeueRunningCrawlUrls(jobId);
  }
  await report();

  const inFlight = new Set<Promise<void>>();
  const scrapeOne = async (entry: CrawlUrlEntry) => {
    let release: (() => void) | undefined;
    let leave: (() => void) | undefined;
    try {
      const host = new URL(entry.url).host;
      const rules0 = job.kind === 'batch' ? undefined : await robots.rulesFor(entry.url).catch(() => undefined);
      const delayS = request.delay ?? rules0?.crawlDelaySeconds() ?? 0;
      leave = await gate.enter(host, delayS * 1000, signal);
      release = await deps.slots.acquire(signal);
      await crawlPage(pageContext, entry, signal);
    } catch (err) {
      if (signal.aborted) return;
      // Only the politeness waits get here (crawlPage records its own failures).
      await deps.store.failCrawlUrl(jobId, entry.url, describeError(err));
    } finally {
      release?.();
      leave?.();
    }
    await report();
  };

  for (;;) {
    while (!signal.aborted) {
      const room = concurrency - inFlight.size;
      const claimed = room > 0 ? await deps.store.claimCrawlUrls(jobId, room) : [];
      for (const entry of claimed) {
        const task: Promise<void> = scrapeOne(entry).finally(() => inFlight.delete(task));
        inFlight.add(task);
      }
      if (inFlight.size === 0) break;
      // Wait for one page to finish: it may have queued more URLs.
      await Promise.race(inFlight);
    }
    await Promise.allSettled(inFlight);
    if (signal.aborted) return;
    // URLs appended (batch appendToId) after the last claim: go on with them.
    if ((await deps.store.crawlCounts(jobId)).queued === 0) break;
  }

  await finishDrainedCrawlJob(deps.store, jobId, deps.resultTtlMs, job.kind, deps.events);
  await report();
}
