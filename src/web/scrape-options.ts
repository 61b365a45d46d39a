/**
 * The scrape request (Firecrawl v2 `POST /v2/scrape`): `url` plus ScrapeOptions, which are the
 * ParseOptions (interface-v2) plus the fields that only matter to a browser-based scraper.
 *
 *  - Fields folio accepts and honours: every ParseOptions field (formats parse supports,
 *    onlyMainContent, include/excludeTags, headers, timeout, skipTlsVerification, proxy …),
 *    `location.languages` (sent as Accept-Language).
 *  - Accepted, no effect: `maxAge`, `minAge`, `storeInCache` (folio keeps no cache: every scrape
 *    is fresh, which satisfies any maxAge), `fastMode`, `useMock`, `lockdown`, `integration`,
 *    `safeMode` (the browser runs pages in a fresh context behind the SSRF proxy either way), `toolDetail`, Firecrawl's `__…` switches.
 *  - The browser's (src/browser, docs/browser.md): `actions` and the `screenshot` format on
 *    `POST /v2/scrape` (validated here with the browser's schemas); `waitFor` > 0 renders the page.
 *    Elsewhere (crawl, batch, search, the MCP tool) they answer NOT_YET_SUPPORTED.
 *  - Accepted with a warning, because they need a browser that did not render the page, a geo
 *    proxy or a service folio does not have: `waitFor` > 0 and `mobile: true` on a page fetched
 *    without the browser, `location.country`, `profile`, `onlyCleanContent`, `threatProtection`,
 *    `domainTools: true`.
 *  - Unknown fields: ignored and named in `data.warning` (docs/web.md "Compatibility").
 *  - Refused with NOT_YET_SUPPORTED: the formats that need an LLM or history (changeTracking,
 *    branding, …) and `proxy: stealth|enhanced`.
 *
 * `ScrapeOptionsSchema` (without `url`) is what search and crawl take as `scrapeOptions`.
 */
import { z } from 'zod';
import { ActionsSchema, ScreenshotFormatSchema } from '../browser/index.ts';
import { ServiceError } from '../errors.ts';
import { formatIssuePath, PARSE_FORMAT_TYPES, ParseOptionsSchema, type ParseOptions } from '../parse/options.ts';
import { unknownFields, unknownFieldsWarning } from './validate.ts';

/** Formats the browser produces (POST /v2/scrape only). */
export const BROWSER_FORMATS = ['screenshot'] as const;
/** Formats Firecrawl defines that folio cannot produce yet (they need an LLM or history). */
export const UNSUPPORTED_FORMATS = ['changeTracking', 'branding', 'attributes', 'product', 'menu', 'audio', 'video', 'question', 'highlights', 'query'] as const;
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
      const known: readonly string[] = [...PARSE_FORMAT_TYPES, ...BROWSER_FORMATS, ...UNSUPPORTED_FORMATS];
      if (typeof type !== 'string') ctx.addIssue({ code: 'custom', message: 'each format needs a string `type`' });
      else if (!known.includes(type)) ctx.addIssue({ code: 'custom', path: ['type'], message: `'${type}' is not a scrape format; formats are ${known.join(', ')}` });
    })
    .pipe(z.union([ScreenshotFormatSchema, UnsupportedFormat, parseFormatItem])),
);

const Location = z.object({
  country: z.string().min(2).max(8).optional(),
  languages: z.array(z.string().min(1).max(35)).max(20).optional(),
});

export const ScrapeOptionsSchema = ParseOptionsSchema.extend({
  formats: z.array(ScrapeFormatItem).max(20).default([{ type: 'markdown' }]),
  proxy: z.enum(['basic', 'auto', ...UNSUPPORTED_PROXIES]).optional(),
  waitFor: z.number().int().min(0).max(60_000).default(0),
  mobile: z.boolean().default(false),
  maxAge: z.number().int().min(0).optional(),
  minAge: z.number().int().min(0).optional(),
  storeInCache: z.boolean().optional(),
  location: Location.optional(),
  actions: ActionsSchema.optional(),
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
 * `where`: 'scrape' for a POST /v2/scrape served with the browser (actions and screenshots
 * allowed, also the MCP tool of a keyed caller), 'nested' for crawl, batch, search and keyless MCP scrapes (refused there).
 */
export function refuseUnsupportedScrapeFeatures(options: ScrapeOptions, where: 'scrape' | 'nested' = 'nested'): void {
  if (where === 'nested') {
    const browserOnly = [...(options.formats.some((f) => f.type === 'screenshot') ? ["the 'screenshot' format"] : []), ...((options.actions?.length ?? 0) > 0 ? ['`actions`'] : [])];
    if (browserOnly.length > 0) {
      throw new ServiceError('NOT_YET_SUPPORTED', `${browserOnly.join(' and ')} ${browserOnly.length > 1 ? 'need' : 'needs'} folio's browser, which is not available here: it is off on this server (FOLIO_BROWSER=off), or the call is a keyless MCP call (the browser is for callers with an API key). Call with an API key on a server with the browser, or remove ${browserOnly.length > 1 ? 'them' : 'it'}.`);
    }
  }
  const unsupported = options.formats.map((f) => f.type).filter((t): t is (typeof UNSUPPORTED_FORMATS)[number] => (UNSUPPORTED_FORMATS as readonly string[]).includes(t));
  if (unsupported.length > 0) {
    throw new ServiceError(
      'NOT_YET_SUPPORTED',
      `The ${unsupported.map((t) => `'${t}'`).join(', ')} format${unsupported.length > 1 ? 's are' : ' is'} valid but not supported by folio yet. Supported formats: ${[...PARSE_FORMAT_TYPES, ...BROWSER_FORMATS].join(', ')}.`,
    );
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
  refuseUnsupportedScrapeFeatures(result.data, 'scrape');
  const ignoredFields = unknownFields(body, [...Object.keys(ScrapeOptionsSchema.shape), ...SCRAPE_REQUEST_EXTRAS]);
  return ignoredFields.length > 0 ? { ...result.data, ignoredFields } : result.data;
}

/** Whether the options ask for the browser themselves (`actions`, the `screenshot` format): crawl, batch and search pages get it then. */
export function asksForBrowser(options: Pick<ScrapeOptions, 'formats' | 'actions'>): boolean {
  return (options.actions?.length ?? 0) > 0 || options.formats.some((f) => f.type === 'screenshot');
}

/** Validates `scrapeOptions` of search or crawl the same way; `browser`: this server renders pages (actions and screenshots allowed). */
export function parseScrapeOptions(input: unknown, field = 'scrapeOptions', browser = false): ScrapeOptions {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ServiceError('BAD_REQUEST', `Invalid \`${field}\`: must be a JSON object.`);
  const result = ScrapeOptionsSchema.safeParse(input);
  if (!result.success) throw new ServiceError('BAD_REQUEST', `Invalid \`${field}\`: ${describeIssues(result.error)}`);
  refuseUnsupportedScrapeFeatures(result.data, browser ? 'scrape' : 'nested');
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

/**
 * Warnings for accepted fields that had no effect: `waitFor` and `mobile` when the page was not
 * rendered by the browser (`rendered` false), the fields that need a geo proxy or a service.
 */
export function ignoredFieldWarnings(options: ScrapeOptions, rendered = false): string[] {
  const warnings: string[] = [];
  if (!rendered && options.waitFor > 0) warnings.push(`\`waitFor\` (${options.waitFor} ms) was ignored: the page was fetched without the browser (it is off on this server, or not used for this document), so there was nothing to wait for.`);
  if (!rendered && options.mobile) warnings.push('`mobile` was ignored: the page was fetched without the browser, which alone emulates a mobile device (add `waitFor`, `actions` or the `screenshot` format to render it).');
  if (options.location?.country) warnings.push(`\`location.country\` ('${options.location.country}') was ignored: folio fetches from its own network, not through a proxy in that country.`);
  if (options.profile) warnings.push('`profile` was ignored: folio fetches pages without a browser, so there is no browser profile to load or save.');
  if (options.onlyCleanContent) warnings.push('`onlyCleanContent` was ignored: folio cleans pages with `onlyMainContent`, `includeTags` and `excludeTags` only.');
  if (options.threatProtection) warnings.push("`threatProtection` was ignored: folio has no threat-protection scanner; its own SSRF rules and the operator's FOLIO_FETCH_ALLOW apply.");
  if (options.domainTools) warnings.push("`domainTools` was ignored: Alexandria is Firecrawl's hosted catalogue of data providers, which folio does not have, so there are no `tools`.");
  const unknown = unknownFieldsWarning(options.ignoredFields ?? []);
  if (unknown) warnings.push(unknown);
  return warnings;
}
