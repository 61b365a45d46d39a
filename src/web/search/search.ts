/**
 * The search operation (Firecrawl v2 `POST /v2/search`): ask the configured backends (SearXNG
 * first, Brave Search second, the next one only when the one before fails), shape the hits as
 * Firecrawl does (`data.web[]` {url, title, description, position, category}, `data.news[]`
 * {title, url, snippet, date, imageUrl, position}, `data.images[]` {title, imageUrl, imageWidth,
 * imageHeight, url, position}; only the requested sources present), drop duplicates and
 * filtered domains, cut each source at `limit`, and when `scrapeOptions` asks for formats,
 * scrape every web result (at most SCRAPE_CONCURRENCY at once) and merge what it gives.
 */
import { ServiceError } from '../../errors.ts';
import type { ParseData } from '../../parse/index.ts';
import type { BackendHit, BackendResult, SearchBackend } from './backend.ts';
import { resolveLocale } from './locale.ts';
import { categoryOf, dedupeKey, domainAllowed, engineQuery, validForScrape } from './query.ts';
import type { SearchCategory, SearchRequest, SearchScrapeOptions, SearchSource } from './request.ts';

/** Web results scraped at once for one search. */
export const SCRAPE_CONCURRENCY = 3;
/** Hits asked of a backend beyond `limit`, so that dropped duplicates and domains leave enough. */
const SPARE_HITS = 5;

/** Scrapes one result URL: `scrape({url, ...options}, …)` from src/web/scrape.ts, adapted by serve. */
export type ResultScraper = (url: string, options: SearchScrapeOptions, run: { signal: AbortSignal }) => Promise<ParseData>;

/** The formats merged into a scraped web result, or `metadata.error` when its scrape failed. */
export type ScrapedFields = Omit<Partial<ParseData>, 'metadata'> & { metadata?: ParseData['metadata'] | FailedScrapeMetadata };

export interface FailedScrapeMetadata {
  error: string;
  sourceURL: string;
  url: string;
  statusCode?: number;
}

export type WebResult = {
  url: string;
  title: string;
  description: string;
  position: number;
  category?: SearchCategory;
} & ScrapedFields;

export interface NewsResult {
  title: string;
  url: string;
  snippet: string;
  date?: string;
  imageUrl?: string;
  position: number;
}

export interface ImageResult {
  title: string;
  imageUrl: string;
  imageWidth?: number;
  imageHeight?: number;
  url: string;
  position: number;
}

export interface SearchData {
  web?: WebResult[];
  news?: NewsResult[];
  images?: ImageResult[];
}

export interface SearchResponse {
  success: true;
  data: SearchData;
  /** What could not be done exactly as asked (a time range an engine lacks, an unknown location). */
  warning?: string;
}

export interface SearchDeps {
  /** In order of preference; empty → NOT_CONFIGURED. */
  backends: readonly SearchBackend[];
  /** Absent → `scrapeOptions` with formats is refused (NOT_YET_SUPPORTED). */
  scrape?: ResultScraper;
  /** The result scrapes may use the browser (`actions`, `screenshot` in scrapeOptions). */
  browserPages?: boolean;
}

export const NOT_CONFIGURED_MESSAGE =
  'Search is not configured on this server: set SEARXNG_ENDPOINT (a SearXNG instance with the json format enabled) or BRAVE_API_KEY.';

function timeoutError(ms: number): ServiceError {
  return new ServiceError('SCRAPE_TIMEOUT', `The search did not finish within its timeout of ${ms} ms. Raise \`timeout\` (at most 300000) or ask for fewer results.`);
}

/** Tries each backend in turn; the first answer wins. All failing → FETCH_FAILED naming each. */
async function askBackends(backends: readonly SearchBackend[], ask: (b: SearchBackend) => Promise<BackendResult>, deadline: AbortSignal): Promise<BackendResult> {
  const failures: string[] = [];
  for (const backend of backends) {
    try {
      return await ask(backend);
    } catch (err) {
      if (deadline.aborted) throw deadline.reason;
      if (!(err instanceof ServiceError) || err.code !== 'FETCH_FAILED') throw err;
      failures.push(err.message);
    }
  }
  throw new ServiceError('FETCH_FAILED', failures.length === 1 ? (failures[0] as string) : `Every search backend failed. ${failures.join(' ')}`);
}

function keepHits(hits: BackendHit[], req: SearchRequest): BackendHit[] {
  const seen = new Set<string>();
  const out: BackendHit[] = [];
  for (const hit of hits) {
    if (!domainAllowed(hit.url, req)) continue;
    if (req.ignoreInvalidURLs && !validForScrape(hit.url)) continue;
    const key = dedupeKey(hit.url);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(hit);
    if (out.length === req.limit) break;
  }
  return out;
}

function webResult(hit: BackendHit, position: number, categories: readonly SearchCategory[]): WebResult {
  const category = categoryOf(hit.url, categories);
  return { url: hit.url, title: hit.title, description: hit.description, position, ...(category ? { category } : {}) };
}

function newsResult(hit: BackendHit, position: number): NewsResult {
  return {
    title: hit.title,
    url: hit.url,
    snippet: hit.description,
    ...(hit.date ? { date: hit.date } : {}),
    ...(hit.imageUrl ? { imageUrl: hit.imageUrl } : {}),
    position,
  };
}

function imageResult(hit: BackendHit, position: number): ImageResult {
  return {
    title: hit.title,
    imageUrl: hit.imageUrl ?? hit.url,
    ...(hit.imageWidth !== undefined ? { imageWidth: hit.imageWidth } : {}),
    ...(hit.imageHeight !== undefined ? { imageHeight: hit.imageHeight } : {}),
    url: hit.url,
    position,
  };
}

/** Runs `fn` over items, at most `limit` at a time, keeping order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function scrapeResult(
  result: WebResult,
  scrape: ResultScraper,
  options: SearchScrapeOptions,
  deadline: AbortSignal,
  deadlineAt: number,
  timeoutMs: number,
): Promise<WebResult> {
  const failed = (error: string, statusCode?: number): WebResult => ({
    ...result,
    metadata: { error, sourceURL: result.url, url: result.url, ...(statusCode !== undefined ? { statusCode } : {}) },
  });
  const remaining = deadlineAt - Date.now();
  if (deadline.aborted || remaining <= 0) return failed(`Not scraped: the search's timeout of ${timeoutMs} ms was reached first.`);
  try {
    const data = await scrape(result.url, { ...options, timeout: Math.max(1, Math.min(options.timeout, remaining)) }, { signal: deadline });
    return { ...result, ...data };
  } catch (err) {
    if (deadline.aborted && !(err instanceof ServiceError)) return failed(`Not scraped: the search's timeout of ${timeoutMs} ms was reached first.`);
    if (err instanceof ServiceError) return failed(err.message);
    return failed('The page could not be scraped (unexpected error).');
  }
}

export async function runSearch(req: SearchRequest, deps: SearchDeps, run: { signal?: AbortSignal } = {}): Promise<SearchResponse> {
  if (deps.backends.length === 0) throw new ServiceError('NOT_CONFIGURED', NOT_CONFIGURED_MESSAGE);
  if (req.scrapeOptions && !deps.scrape) {
    throw new ServiceError('NOT_YET_SUPPORTED', '`scrapeOptions` with formats needs scrape, which this folio build does not have yet. Leave `scrapeOptions` out.');
  }
  const controller = new AbortController();
  const deadlineAt = Date.now() + req.timeoutMs;
  const timer = setTimeout(() => controller.abort(timeoutError(req.timeoutMs)), req.timeoutMs);
  const onClientAbort = () => controller.abort(run.signal?.reason);
  run.signal?.addEventListener('abort', onClientAbort, { once: true });
  const deadline = controller.signal;
  try {
    const locale = resolveLocale(req);
    const query = engineQuery(req);
    const warnings = new Set<string>(req.warnings);
    if (locale.warning) warnings.add(locale.warning);

    const perSource = await Promise.all(
      req.sources.map(async (source: SearchSource) => {
        const answer = await askBackends(
          deps.backends,
          (b) =>
            b.search({
              query,
              source,
              count: Math.min(100, req.limit + SPARE_HITS),
              ...(req.timeFilter ? { timeFilter: req.timeFilter } : {}),
              ...(locale.language ? { language: locale.language } : {}),
              ...(locale.country ? { country: locale.country } : {}),
              signal: deadline,
            }),
          deadline,
        );
        answer.warnings.forEach((w) => warnings.add(w));
        return [source, keepHits(answer.hits, req)] as const;
      }),
    );

    const data: SearchData = {};
    for (const [source, hits] of perSource) {
      if (source === 'web') data.web = hits.map((h, i) => webResult(h, i + 1, req.categories));
      else if (source === 'news') data.news = hits.map((h, i) => newsResult(h, i + 1));
      else data.images = hits.map((h, i) => imageResult(h, i + 1));
    }

    const { scrapeOptions } = req;
    if (scrapeOptions && deps.scrape && data.web) {
      const scrape = deps.scrape;
      data.web = await mapBounded(data.web, SCRAPE_CONCURRENCY, (r) => scrapeResult(r, scrape, scrapeOptions, deadline, deadlineAt, req.timeoutMs));
    }
    if (run.signal?.aborted) throw run.signal.reason;
    return { success: true, data, ...(warnings.size > 0 ? { warning: [...warnings].join(' ') } : {}) };
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onClientAbort);
  }
}
