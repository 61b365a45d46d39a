/**
 * The `POST /v2/search` request (Firecrawl v2 `SearchRequest`): one schema shared by the HTTP
 * route and the MCP tool. Defaults and limits are Firecrawl's (limit 5, at most 100; sources
 * `["web"]`; timeout 60 s); every 400 names the offending field. Tolerance (docs/search.md):
 * the fields Firecrawl's clients send that folio does not act on (`toolDetail`, `domainTools`,
 * `enterprise`, …) are accepted and ignored; sources and categories folio cannot serve
 * (`alexandria`, `developer`) are skipped with a `warning`; unknown fields are ignored and named
 * in the `warning`.
 */
import { z } from 'zod';
import { ServiceError } from '../../errors.ts';
import { formatIssuePath, MAX_TIMEOUT_MS } from '../../parse/options.ts';
import { parseScrapeOptions, type ScrapeOptions } from '../scrape-options.ts';
import { unknownFields, unknownFieldsWarning } from '../validate.ts';
import { parseTbs, type TimeFilter } from './tbs.ts';

export const SEARCH_SOURCES = ['web', 'news', 'images'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

/** Firecrawl's web categories: each narrows web results to a kind of site or file. */
export const SEARCH_CATEGORIES = ['github', 'research', 'pdf'] as const;
export type SearchCategory = (typeof SEARCH_CATEGORIES)[number];

export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 5;
export const DEFAULT_SEARCH_TIMEOUT_MS = 60_000;

/**
 * A source or category: a bare string ("web") or a `{type}` object, as the SDKs send either.
 * Any name is accepted here; the ones folio cannot serve are skipped with a warning (normalise).
 * Firecrawl's object form may carry per-source options (`{type: "web", tbs, lang, …}`): ignored.
 */
const typedName = (what: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? { type: v } : v),
    z.looseObject({
      type: z
        .string({ error: `each ${what} needs a string \`type\`` })
        .trim()
        .min(1, `a ${what} name must not be empty`)
        .max(64),
    }),
  );

/** Sources of Firecrawl's that are its hosted tool catalogue (firecrawl-mcp sends `exchange` as an alias). */
const CATALOGUE_SOURCES = ['alexandria', 'exchange'];

const Hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i, 'must be a host name such as example.com');

/** The request's fields (no cross-field rules), for doors that add their own (the MCP tool's maxChars). */
export const SearchRequestShape = {
  query: z.string({ error: '`query` is required: the words to search for' }).trim().min(1, 'must not be empty').max(2000),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
  sources: z
    .array(typedName('source'))
    .min(1)
    .max(10)
    .default([{ type: 'web' }]),
  categories: z.array(typedName('category')).max(10).optional(),
  includeDomains: z.array(Hostname).max(50).optional(),
  excludeDomains: z.array(Hostname).max(50).optional(),
  tbs: z
    .string()
    .max(200)
    .optional()
    .superRefine((tbs, ctx) => {
      if (tbs === undefined) return;
      const parsed = parseTbs(tbs);
      if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
    }),
  location: z.string().trim().min(1).max(200).optional(),
  country: z
    .string()
    .regex(/^[a-z]{2}$/i, 'must be an ISO 3166-1 alpha-2 code such as US or DE')
    .transform((c) => c.toUpperCase())
    .optional(),
  lang: z
    .string()
    .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i, 'must be a language code such as en or pt-BR')
    .optional(),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(DEFAULT_SEARCH_TIMEOUT_MS),
  ignoreInvalidURLs: z.boolean().default(false),
  /** Accepted for compatibility; folio returns no highlights. */
  highlights: z.boolean().optional(),
  scrapeOptions: z.record(z.string(), z.unknown()).optional(),
  origin: z.string().max(256).optional(),
  integration: z.string().max(256).nullable().optional(),
  /** Firecrawl's free-form engine filter: accepted for compatibility, not passed on. */
  filter: z.string().max(1000).optional(),
  /** Alexandria tool matching (firecrawl-mcp sends these on every call): accepted; folio has no tool catalogue. */
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
  domainTools: z.boolean().optional(),
  /** Firecrawl's enterprise modes (`zdr`, `anon`): accepted; folio keeps nothing of a search in any case. */
  enterprise: z.array(z.enum(['default', 'anon', 'zdr'])).max(3).optional(),
  /** Firecrawl's per-request threat-protection override, its `safe` search and `asyncScraping`: accepted, no effect. */
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  safe: z.boolean().optional(),
  asyncScraping: z.boolean().optional(),
};

/** Rules across fields: `includeDomains` and `excludeDomains` exclude each other. */
export function refineSearchRequest(req: { includeDomains?: string[] | undefined; excludeDomains?: string[] | undefined }, ctx: z.RefinementCtx): void {
  if (req.includeDomains?.length && req.excludeDomains?.length) {
    ctx.addIssue({ code: 'custom', path: ['excludeDomains'], message: 'cannot be combined with `includeDomains`; give one of them' });
  }
}

export const SearchRequestSchema = z.object(SearchRequestShape).superRefine(refineSearchRequest);

type RawSearchRequest = z.output<typeof SearchRequestSchema>;
export type SearchRequestInput = z.input<typeof SearchRequestSchema>;
/** `scrapeOptions`: the scrape options applied to each web result (formats, onlyMainContent, …). */
export type SearchScrapeOptions = ScrapeOptions;

/** A validated request, normalised for the search operation. */
export interface SearchRequest {
  query: string;
  limit: number;
  /** Deduplicated, in request order. */
  sources: SearchSource[];
  categories: SearchCategory[];
  includeDomains: string[];
  excludeDomains: string[];
  tbs?: string;
  timeFilter?: TimeFilter;
  location?: string;
  country?: string;
  lang?: string;
  timeoutMs: number;
  ignoreInvalidURLs: boolean;
  /** Present when web results are to be scraped (`scrapeOptions.formats` non-empty). */
  scrapeOptions?: SearchScrapeOptions;
  /** What the request asked for that folio skipped or ignored; goes into the response's `warning`. */
  warnings: string[];
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys
      .map((k) => `\`${formatIssuePath([...issue.path, k])}\`: unknown field (see docs/search.md for the accepted fields)`)
      .join('; ');
  }
  return `\`${formatIssuePath(issue.path) || 'body'}\`: ${issue.message}`;
}

function badRequest(issues: readonly z.core.$ZodIssue[]): ServiceError {
  return new ServiceError('BAD_REQUEST', `Invalid search request: ${issues.map(describeIssue).join('; ')}`);
}

function isServedSource(name: string): name is SearchSource {
  return (SEARCH_SOURCES as readonly string[]).includes(name);
}

function isServedCategory(name: string): name is SearchCategory {
  return (SEARCH_CATEGORIES as readonly string[]).includes(name);
}

const list = (names: readonly string[]) => names.map((n) => `'${n}'`).join(', ');

/** Warnings for the sources and categories folio skips, and for Alexandria tool matching. */
function skippedWarnings(raw: RawSearchRequest, skippedSources: string[], skippedCategories: string[]): string[] {
  const warnings: string[] = [];
  const catalogue = skippedSources.filter((s) => CATALOGUE_SOURCES.includes(s));
  const other = skippedSources.filter((s) => !CATALOGUE_SOURCES.includes(s));
  if (catalogue.length > 0 || raw.domainTools === true) {
    const asked = [...catalogue.map((s) => `\`sources: ${s}\``), ...(raw.domainTools === true ? ['`domainTools`'] : [])].join(', ');
    warnings.push(`No Alexandria tools were searched (${asked}): Alexandria is Firecrawl's hosted catalogue of data providers, which folio does not have, so the answer has no \`tools\`.`);
  }
  if (other.length > 0) warnings.push(`Skipped source${other.length > 1 ? 's' : ''} ${list(other)}: folio searches ${list(SEARCH_SOURCES)}.`);
  if (skippedCategories.length > 0) {
    warnings.push(`Skipped categor${skippedCategories.length > 1 ? 'ies' : 'y'} ${list(skippedCategories)}: folio knows ${list(SEARCH_CATEGORIES)}; the results are not narrowed by ${skippedCategories.length > 1 ? 'them' : 'it'}.`);
  }
  return warnings;
}

function normalise(raw: RawSearchRequest, unknown: string[], browser: boolean): SearchRequest {
  const sourceNames = [...new Set(raw.sources.map((s) => s.type))];
  const categoryNames = [...new Set((raw.categories ?? []).map((c) => c.type))];
  const warnings = skippedWarnings(
    raw,
    sourceNames.filter((s) => !isServedSource(s)),
    categoryNames.filter((c) => !isServedCategory(c)),
  );
  const unknownWarning = unknownFieldsWarning(unknown);
  if (unknownWarning) warnings.push(unknownWarning);
  const out: SearchRequest = {
    query: raw.query,
    limit: raw.limit,
    sources: sourceNames.filter(isServedSource),
    categories: categoryNames.filter(isServedCategory),
    includeDomains: (raw.includeDomains ?? []).map((d) => d.toLowerCase().replace(/\.$/, '')),
    excludeDomains: (raw.excludeDomains ?? []).map((d) => d.toLowerCase().replace(/\.$/, '')),
    timeoutMs: raw.timeout,
    ignoreInvalidURLs: raw.ignoreInvalidURLs,
    warnings,
  };
  if (raw.tbs !== undefined) {
    out.tbs = raw.tbs;
    const filter = parseTbs(raw.tbs);
    if (typeof filter !== 'string' && filter !== undefined) out.timeFilter = filter;
  }
  if (raw.location !== undefined) out.location = raw.location;
  if (raw.country !== undefined) out.country = raw.country;
  if (raw.lang !== undefined) out.lang = raw.lang;
  // Firecrawl scrapes results only when formats are asked for: `scrapeOptions: {}` scrapes nothing.
  if (raw.scrapeOptions !== undefined) {
    // Validated like scrape's own options (400 naming the field; NOT_YET_SUPPORTED for browser-only ones).
    const scrape = parseScrapeOptions(raw.scrapeOptions, 'scrapeOptions', browser);
    const formats = raw.scrapeOptions.formats;
    if (Array.isArray(formats) && formats.length > 0) out.scrapeOptions = scrape;
  }
  return out;
}

/** Validates a request body and applies defaults; a failure is a 400 naming every bad field. */
export function parseSearchRequest(body: unknown, browser = false): SearchRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('BAD_REQUEST', 'Invalid search request: the body must be a JSON object with at least `query`.');
  }
  const result = SearchRequestSchema.safeParse(body);
  if (!result.success) throw badRequest(result.error.issues);
  return normalise(result.data, unknownFields(body, Object.keys(SearchRequestShape)), browser);
}
