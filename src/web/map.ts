/**
 * map (Firecrawl v2 `POST /v2/map`): the URLs of a site, fast, without scraping them — from its
 * sitemaps (robots.txt `Sitemap:` lines and /sitemap.xml, indexes and gzip followed) and the
 * links of the page itself, limited to the site's host (and its subdomains with
 * `includeSubdomains`), normalised and deduplicated, ranked by `search` when given.
 */
import { z } from 'zod';
import { ServiceError, isServiceError } from '../errors.ts';
import type { Fetcher } from './fetch/types.ts';
import { normalizeUrl, readHtmlPage, type FoundLink } from './links.ts';
import { fetchRobots } from './robots.ts';
import { collectSitemapUrls, sitemapSeeds } from './sitemap.ts';
import { hostInScope } from './crawl/scope.ts';
import { parseBody, unknownFields, unknownFieldsWarning } from './validate.ts';

export const MAP_DEFAULT_LIMIT = 5000;
export const MAP_MAX_LIMIT = 100_000;
export const MAP_DEFAULT_TIMEOUT_MS = 60_000;
export const MAP_MAX_TIMEOUT_MS = 300_000;
/** One fetch (robots, a sitemap, the page) of a map call waits at most this long. */
const FETCH_TIMEOUT_MS = 15_000;

export const HttpUrlSchema = z
  .string({ error: '`url` is required and must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(2048)
  .transform((raw, ctx) => {
    // Firecrawl accepts a bare host (`example.com`) and means https.
    const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
    const url = normalizeUrl(withScheme);
    if (!url) {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http:// or https:// URL without credentials' });
      return z.NEVER;
    }
    return url;
  });

export const MapRequestSchema = z.object({
  url: HttpUrlSchema,
  search: z.string().max(1000).optional(),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  limit: z.number().int().min(1).max(MAP_MAX_LIMIT).default(MAP_DEFAULT_LIMIT),
  timeout: z.number().int().min(1).max(MAP_MAX_TIMEOUT_MS).optional(),
  /**
   * Firecrawl accepts these on map too (its map schema extends the crawl options); folio accepts
   * them and does not act on them (docs/crawl.md): the crawl-scope options, its index and cache
   * switches, `location`, `headers`, `threatProtection`, `auditMetadata`, `integration`, `origin`.
   */
  includePaths: z.array(z.string()).nullish(),
  excludePaths: z.array(z.string()).nullish(),
  maxDiscoveryDepth: z.number().nullish(),
  crawlEntireDomain: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  ignoreRobotsTxt: z.boolean().optional(),
  robotsUserAgent: z.string().nullish(),
  deduplicateSimilarURLs: z.boolean().optional(),
  regexOnFullURL: z.boolean().optional(),
  delay: z.number().nullish(),
  useMock: z.string().optional(),
  filterByPath: z.boolean().optional(),
  useIndex: z.boolean().optional(),
  ignoreCache: z.boolean().optional(),
  location: z.looseObject({}).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  auditMetadata: z.looseObject({}).optional(),
  integration: z.string().max(256).nullish(),
  origin: z.string().max(256).optional(),
});

/** Validates a map body; `warning` names the fields folio does not know (ignored). */
export function parseMapRequest(body: unknown): { request: MapRequest; warning?: string } {
  const request = parseBody(MapRequestSchema, body, 'map');
  const warning = unknownFieldsWarning(unknownFields(body, Object.keys(MapRequestSchema.shape)));
  return warning ? { request, warning } : { request };
}

export type MapRequest = z.output<typeof MapRequestSchema>;

export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

export interface MapResult {
  links: MapLink[];
}

export interface MapDeps {
  fetcher: Fetcher;
}

/** Lower-case words of a search query or a URL/title (letters and digits). */
export function terms(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

/**
 * Simple term scoring: for each query term, 3 for a whole word of the URL's host or path,
 * 2 for a whole word of the title, 1 for a substring of either; plus 1 when the whole query
 * appears as is. Zero means no term matched.
 */
export function searchScore(link: MapLink, query: string): number {
  const q = terms(query);
  if (q.length === 0) return 0;
  const u = new URL(link.url);
  const urlText = `${u.hostname} ${decodeURIComponent(u.pathname)} ${u.search}`.toLowerCase();
  const urlWords = new Set(terms(urlText));
  const titleText = `${link.title ?? ''} ${link.description ?? ''}`.toLowerCase();
  const titleWords = new Set(terms(titleText));
  let score = 0;
  for (const t of q) {
    if (urlWords.has(t)) score += 3;
    else if (urlText.includes(t)) score += 1;
    if (titleWords.has(t)) score += 2;
    else if (titleText.includes(t)) score += 1;
  }
  const whole = query.trim().toLowerCase();
  if (score > 0 && whole.length > 0 && (urlText.includes(whole) || titleText.includes(whole))) score += 1;
  return score;
}

/** Keeps links matching `query`, best first (ties keep discovery order). */
export function rankBySearch(links: readonly MapLink[], query: string): MapLink[] {
  return links
    .map((link, i) => ({ link, i, score: searchScore(link, query) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.link);
}

function timeoutError(ms: number): ServiceError {
  return new ServiceError('SCRAPE_TIMEOUT', `Map did not finish within its timeout of ${ms} ms. Raise \`timeout\` (up to ${MAP_MAX_TIMEOUT_MS}) or use a lower \`limit\`.`);
}

export async function map(request: MapRequest, deps: MapDeps, run: { signal?: AbortSignal } = {}): Promise<MapResult> {
  const timeoutMs = request.timeout ?? MAP_DEFAULT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = run.signal ? AbortSignal.any([run.signal, deadline]) : deadline;
  try {
    return await mapWithin(request, deps, signal);
  } catch (err) {
    if (deadline.aborted && !run.signal?.aborted) throw timeoutError(timeoutMs);
    throw err;
  }
}

async function mapWithin(request: MapRequest, deps: MapDeps, signal: AbortSignal): Promise<MapResult> {
  const start = new URL(request.url);
  const norm = { ignoreQueryParameters: request.ignoreQueryParameters };
  const fetchTimeout = Math.min(FETCH_TIMEOUT_MS, request.timeout ?? MAP_DEFAULT_TIMEOUT_MS);

  const pagePromise =
    request.sitemap === 'only'
      ? Promise.resolve(undefined)
      : deps.fetcher.fetch({ url: request.url, timeoutMs: fetchTimeout, signal }).then(
          (res) => ({ res }),
          (err: unknown) => ({ err }),
        );
  const sitemapPromise =
    request.sitemap === 'skip'
      ? Promise.resolve([] as string[])
      : (async () => {
          const robots = await fetchRobots(deps.fetcher, start.origin, { timeoutMs: fetchTimeout, signal });
          const seeds = sitemapSeeds(start.origin, robots.sitemaps());
          const found = await collectSitemapUrls(deps.fetcher, seeds, { timeoutMs: fetchTimeout, signal, maxUrls: Math.min(MAP_MAX_LIMIT, request.limit * 4) });
          return found.urls;
        })();
  const [page, sitemapUrls] = await Promise.all([pagePromise, sitemapPromise]);
  signal.throwIfAborted();

  const out = new Map<string, MapLink>();
  const add = (raw: string, title?: string, description?: string) => {
    const url = normalizeUrl(raw, undefined, norm);
    if (!url) return;
    if (!hostInScope(new URL(url), start, request.includeSubdomains)) return;
    const known = out.get(url);
    if (!known) out.set(url, { url, ...(title ? { title } : {}), ...(description ? { description } : {}) });
    else if (title && title.length > (known.title ?? '').length) known.title = title;
  };

  let pageLinks: FoundLink[] = [];
  if (page && 'res' in page) {
    const { res } = page;
    const isHtml = /html/i.test(res.contentType ?? '') || /^\s*</.test(res.body.subarray(0, 512).toString('utf8'));
    if (res.status < 400 && isHtml) {
      const html = readHtmlPage(res.body.toString('utf8'), res.url, norm);
      add(request.url, html.title, html.description);
      pageLinks = html.links;
    } else {
      add(request.url);
    }
  } else if (page && 'err' in page) {
    signal.throwIfAborted();
    // The page is the map's subject: a blocked URL is refused; otherwise sitemap links may still answer.
    if (isServiceError(page.err) && page.err.code === 'URL_BLOCKED') throw page.err;
    if (sitemapUrls.length === 0) throw page.err;
  }
  for (const link of pageLinks) add(link.url, link.text);
  for (const url of sitemapUrls) add(url);

  let links = [...out.values()];
  if (request.search && request.search.trim() !== '') links = rankBySearch(links, request.search);
  return { links: links.slice(0, request.limit) };
}
