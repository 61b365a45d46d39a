/**
 * The scrape request (Firecrawl v2 `POST /v2/scrape`): `url` plus ScrapeOptions, which are the
 * ParseOptions (interface-v2) plus the fields that only matter to a browser-based scraper.
 *
 *  - Fields folio accepts and honours: every ParseOptions field (formats parse supports,
 *    onlyMainContent, include/excludeTags, headers, timeout, skipTlsVerification, proxy …),
 *    `location.languages` (sent as Accept-Language).
 *  - Accepted, no effect: `maxAge`, `minAge`, `storeInCache` (folio keeps no cache: every scrape
 *    is fresh, which satisfies any maxAge), `fastMode`, `useMock`, `lockdown`, `integration`,
 *    `safeMode` (folio never runs a page's scripts), `toolDetail`, Firecrawl's `__…` switches.
 *  - Accepted with a warning, because they need a browser, a geo proxy or a service folio does
 *    not have: `waitFor` > 0, `mobile: true`, `location.country`, `profile`, `onlyCleanContent`,
 *    `threatProtection`, `domainTools: true`.
 *  - Unknown fields: ignored and named in `data.warning` (docs/web.md "Compatibility").
 *  - Refused with NOT_YET_SUPPORTED: `actions`, the formats that need a browser or an LLM
 *    (screenshot, changeTracking, branding, …) and `proxy: stealth|enhanced`.
 *
 * `ScrapeOptionsSchema` (without `url`) is what search and crawl take as `scrapeOptions`.
 */
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import { formatIssuePath, PARSE_FORMAT_TYPES, ParseOptionsSchema, type ParseOptions } from '../parse/options.ts';
import { unknownFields, unknownFieldsWarning } from './validate.ts';

/** Formats Firecrawl defines that folio cannot produce yet (they need a browser, an LLM or history). */
export const UNSUPPORTED_FORMATS = ['screenshot', 'changeTracking', 'branding', 'attributes', 'product', 'menu', 'audio', 'video', 'question', 'highlights', 'query'] as const;
/** Proxy modes Firecrawl defines that need a proxy network folio does not have. */
const UNSUPPORTED_PROXIES = ['stealth', 'enhanced'] as const;

const parseFormatItem = ParseOptionsSchema.shape.formats.unwrap().element;

const UnsupportedFormat = z.object({ type: z.enum(UNSUPPORTED_FORMATS) }).loose();

const ScrapeFormatItem = z.preprocess(
  (v) => (typeof v === 'string' ? { type: v } : v),
  z
    .unknown()
    .superRefine((item, ctx) => {
      const type = typeof item === 'object' && item !== null ? (item as { type?: unknown }).type : undefined;
      const known: readonly string[] = [...PARSE_FORMAT_TYPES, ...UNSUPPORTED_FORMATS];
      if (typeof type !== 'string') ctx.addIssue({ code: 'custom', message: 'each format needs a string `type`' });
      else if (!known.includes(type)) ctx.addIssue({ code: 'custom', path: ['type'], message: `'${type}' is not a scrape format; formats are ${known.join(', ')}` });
    })
    .pipe(z.union([UnsupportedFormat, parseFormatItem])),
);

const Location = z.object({
  country: z.string().min(2).max(8).optional(),
  languages: z.array(z.string().min(1).max(35)).max(20).optional(),
});

const Action = z.object({ type: z.string() }).loose();

export const ScrapeOptionsSchema = ParseOptionsSchema.extend({
  formats: z.array(ScrapeFormatItem).max(20).default([{ type: 'markdown' }]),
  proxy: z.enum(['basic', 'auto', ...UNSUPPORTED_PROXIES]).optional(),
  waitFor: z.number().int().min(0).max(60_000).default(0),
  mobile: z.boolean().default(false),
  maxAge: z.number().int().min(0).optional(),
  minAge: z.number().int().min(0).optional(),
  storeInCache: z.boolean().optional(),
  location: Location.optional(),
  actions: z.array(Action).max(50).optional(),
  fastMode: z.boolean().optional(),
  useMock: z.string().max(256).optional(),
  lockdown: z.boolean().optional(),
  safeMode: z.boolean().optional(),
  onlyCleanContent: z.boolean().optional(),
  profile: z.looseObject({ name: z.string().min(1).max(128) }).optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  domainTools: z.boolean().optional(),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
});

export const ScrapeRequestSchema = ScrapeOptionsSchema.extend({
  url: z.string({ error: '`url` is required and must be a string' }).min(1, '`url` must not be empty').max(8192),
});

/** The Firecrawl scrape fields that are not options of a page (`zeroDataRetention` is parse's already). */
const SCRAPE_REQUEST_EXTRAS = ['url'];

/** What the request held that folio does not know: named in `data.warning` (set by the doors). */
interface IgnoredFields {
  ignoredFields?: string[];
}

export type ScrapeOptionsInput = z.input<typeof ScrapeOptionsSchema>;
export type ScrapeOptions = z.output<typeof ScrapeOptionsSchema> & IgnoredFields;
export type ScrapeRequestInput = z.input<typeof ScrapeRequestSchema>;
export type ScrapeRequest = z.output<typeof ScrapeRequestSchema> & IgnoredFields;

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const nested = issue.code === 'invalid_union' ? issue.errors.flat().find((i) => i.path.length > 0 || i.code !== 'invalid_type') : undefined;
      const message = nested ? `${nested.message}` : issue.message;
      const path = nested ? [...issue.path, ...nested.path] : issue.path;
      return `\`${formatIssuePath(path) || 'body'}\`: ${message}`;
    })
    .join('; ');
}

/**
 * Refuses what folio cannot do yet with NOT_YET_SUPPORTED, naming the field and what to do.
 * Called by every door after validation (the MCP tools validate with the schema themselves).
 */
export function refuseUnsupportedScrapeFeatures(options: ScrapeOptions): void {
  const unsupported = options.formats.map((f) => f.type).filter((t): t is (typeof UNSUPPORTED_FORMATS)[number] => (UNSUPPORTED_FORMATS as readonly string[]).includes(t));
  if (unsupported.length > 0) {
    throw new ServiceError(
      'NOT_YET_SUPPORTED',
      `The ${unsupported.map((t) => `'${t}'`).join(', ')} format${unsupported.length > 1 ? 's are' : ' is'} valid but not supported by folio yet (no browser engine). Supported formats: ${PARSE_FORMAT_TYPES.join(', ')}.`,
    );
  }
  if (options.actions && options.actions.length > 0) {
    throw new ServiceError('NOT_YET_SUPPORTED', '`actions` need a browser engine, which folio does not have yet. Remove `actions` to scrape the page as served.');
  }
  if (options.proxy === 'stealth' || options.proxy === 'enhanced') {
    throw new ServiceError('NOT_YET_SUPPORTED', `\`proxy: '${options.proxy}'\` is not supported by folio; use 'basic' or 'auto' (the operator's FOLIO_FETCH_PROXY when configured).`);
  }
}

/** Validates a scrape request body: 400 BAD_REQUEST naming every bad field, or NOT_YET_SUPPORTED. */
export function parseScrapeRequest(body: unknown): ScrapeRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('BAD_REQUEST', 'Invalid scrape request: the body must be a JSON object with a `url` field.');
  }
  if ('alexandria' in body && !('url' in body)) {
    throw new ServiceError(
      'BAD_REQUEST',
      "Invalid scrape request: `alexandria` runs capabilities of Firecrawl's hosted data-provider catalogue, which folio does not have. Scrape a page with `url` instead.",
    );
  }
  const result = ScrapeRequestSchema.safeParse(body);
  if (!result.success) throw new ServiceError('BAD_REQUEST', `Invalid scrape request: ${describeIssues(result.error)}`);
  refuseUnsupportedScrapeFeatures(result.data);
  const ignoredFields = unknownFields(body, [...Object.keys(ScrapeOptionsSchema.shape), ...SCRAPE_REQUEST_EXTRAS]);
  return ignoredFields.length > 0 ? { ...result.data, ignoredFields } : result.data;
}

/** Validates `scrapeOptions` of search or crawl the same way. */
export function parseScrapeOptions(input: unknown, field = 'scrapeOptions'): ScrapeOptions {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ServiceError('BAD_REQUEST', `Invalid \`${field}\`: must be a JSON object.`);
  const result = ScrapeOptionsSchema.safeParse(input);
  if (!result.success) throw new ServiceError('BAD_REQUEST', `Invalid \`${field}\`: ${describeIssues(result.error)}`);
  refuseUnsupportedScrapeFeatures(result.data);
  const ignoredFields = unknownFields(input, Object.keys(ScrapeOptionsSchema.shape));
  return ignoredFields.length > 0 ? { ...result.data, ignoredFields } : result.data;
}

/** The ParseOptions part of scrape options, for the runner (after refuseUnsupportedScrapeFeatures). */
export function toParseOptions(options: ScrapeOptions, timeoutMs = options.timeout): ParseOptions {
  const formats = options.formats.filter((f): f is ParseOptions['formats'][number] => (PARSE_FORMAT_TYPES as readonly string[]).includes(f.type));
  const proxy = options.proxy === 'basic' || options.proxy === 'auto' ? options.proxy : undefined;
  return {
    ...(options.auditMetadata ? { auditMetadata: options.auditMetadata } : {}),
    blockAds: options.blockAds,
    ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
    formats,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.includeTags ? { includeTags: options.includeTags } : {}),
    ...(options.integration !== undefined ? { integration: options.integration } : {}),
    onlyMainContent: options.onlyMainContent,
    origin: options.origin,
    parsers: options.parsers,
    ...(proxy ? { proxy } : {}),
    redactPII: options.redactPII,
    removeBase64Images: options.removeBase64Images,
    skipTlsVerification: options.skipTlsVerification,
    timeout: Math.max(1, Math.round(timeoutMs)),
    zeroDataRetention: options.zeroDataRetention,
  };
}

/** Warnings for accepted fields that have no effect without a browser or a geo proxy. */
export function ignoredFieldWarnings(options: ScrapeOptions): string[] {
  const warnings: string[] = [];
  if (options.waitFor > 0) warnings.push(`\`waitFor\` (${options.waitFor} ms) was ignored: folio fetches pages without a browser, so there is nothing to wait for.`);
  if (options.mobile) warnings.push('`mobile` was ignored: folio fetches pages without a browser and does not emulate a mobile device.');
  if (options.location?.country) warnings.push(`\`location.country\` ('${options.location.country}') was ignored: folio fetches from its own network, not through a proxy in that country.`);
  if (options.profile) warnings.push('`profile` was ignored: folio fetches pages without a browser, so there is no browser profile to load or save.');
  if (options.onlyCleanContent) warnings.push('`onlyCleanContent` was ignored: folio cleans pages with `onlyMainContent`, `includeTags` and `excludeTags` only.');
  if (options.threatProtection) warnings.push("`threatProtection` was ignored: folio has no threat-protection scanner; its own SSRF rules and the operator's FOLIO_FETCH_ALLOW apply.");
  if (options.domainTools) warnings.push("`domainTools` was ignored: Alexandria is Firecrawl's hosted catalogue of data providers, which folio does not have, so there are no `tools`.");
  const unknown = unknownFieldsWarning(options.ignoredFields ?? []);
  if (unknown) warnings.push(unknown);
  return warnings;
}
