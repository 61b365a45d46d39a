/**
 * The crawl request (Firecrawl v2 `POST /v2/crawl`). Unknown keys are dropped, as for parse;
 * options that need something folio does not have are refused with a message rather than
 * silently ignored.
 */
import { z } from 'zod';
import { ServiceError } from '../../errors.ts';
import { HttpUrlSchema } from '../map.ts';
import { refuseUnsupportedScrapeFeatures, ScrapeOptionsSchema } from '../scrape-options.ts';
import { parseBody, unknownFields, unknownFieldsWarning } from '../validate.ts';
import { WebhookSchema } from '../webhooks/index.ts';
import { compilePathPatterns } from './path-patterns.ts';

export const CRAWL_DEFAULT_LIMIT = 10_000;
export const CRAWL_MAX_LIMIT = 100_000;
/** Seconds between two requests to one host, at most. */
export const CRAWL_MAX_DELAY_S = 60;

const Patterns = z.array(z.string()).nullish();

export const CrawlRequestSchema = z.object({
  url: HttpUrlSchema,
  limit: z.number().int().min(1).max(CRAWL_MAX_LIMIT).nullish().transform((v) => v ?? CRAWL_DEFAULT_LIMIT),
  maxDiscoveryDepth: z.number().int().min(0).max(1000).nullish().transform((v) => v ?? undefined),
  includePaths: Patterns.transform((v) => v ?? []),
  excludePaths: Patterns.transform((v) => v ?? []),
  regexOnFullURL: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  crawlEntireDomain: z.boolean().default(false),
  ignoreQueryParameters: z.boolean().default(false),
  /** Firecrawl's default: `/`, `/index.html`, `www.`/bare, `http`/`https`, a trailing slash are one page (similar-urls.ts). */
  deduplicateSimilarURLs: z.boolean().default(true),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  /** Seconds between requests to one host (overrides robots.txt Crawl-delay). */
  delay: z.number().min(0).max(CRAWL_MAX_DELAY_S).nullish().transform((v) => v ?? undefined),
  maxConcurrency: z.number().int().min(1).max(1000).nullish().transform((v) => v ?? undefined),
  scrapeOptions: ScrapeOptionsSchema.nullish().transform((v) => v ?? ScrapeOptionsSchema.parse({})),
  zeroDataRetention: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().optional(),
  prompt: z.string().nullish(),
  /** Accepted: folio reads robots.txt as user agent `folio` and fetches with its own agent. */
  robotsUserAgent: z.string().max(256).nullish(),
  integration: z.string().max(256).nullish(),
  origin: z.string().max(256).optional(),
  webhook: WebhookSchema,
});

export type CrawlRequest = z.output<typeof CrawlRequestSchema>;

/** Validates a crawl body: shape, then the path regexes, then options folio cannot honour. */
export function parseCrawlRequest(input: unknown, browser = false): CrawlRequest {
  const request = parseBody(CrawlRequestSchema, input, 'crawl');
  compilePathPatterns('includePaths', request.includePaths);
  compilePathPatterns('excludePaths', request.excludePaths);
  refuseUnsupportedScrapeFeatures(request.scrapeOptions, browser ? 'scrape' : 'nested');
  if (request.ignoreRobotsTxt === true) {
    throw new ServiceError('BAD_REQUEST', 'folio always honours robots.txt: remove `ignoreRobotsTxt`.');
  }
  if (request.prompt) {
    throw new ServiceError('NOT_YET_SUPPORTED', '`prompt` (crawl options from a natural-language prompt) needs a language model, which this folio build does not have. Give the options themselves; POST /v2/crawl/params-preview (the SDK\'s crawlParamsPreview) shows the ones folio can read from the prompt\'s explicit paths, page counts and depth.');
  }
  return request;
}

/** Names the fields of a crawl body (and of its `scrapeOptions`) that folio does not know; they were ignored. */
export function crawlRequestWarning(body: unknown): string | undefined {
  const top = unknownFields(body, Object.keys(CrawlRequestSchema.shape));
  const scrapeOptions = typeof body === 'object' && body !== null ? (body as { scrapeOptions?: unknown }).scrapeOptions : undefined;
  const nested = unknownFields(scrapeOptions, Object.keys(ScrapeOptionsSchema.shape)).map((f) => `scrapeOptions.${f}`);
  return unknownFieldsWarning([...top, ...nested]);
}

/** The request as stored with the job (JSON), and back. Stored values were validated once. */
export function serializeCrawlRequest(request: CrawlRequest): string {
  const { prompt: _p, ...rest } = request;
  return JSON.stringify(rest);
}

export function deserializeCrawlRequest(json: string): CrawlRequest {
  return CrawlRequestSchema.parse(JSON.parse(json));
}
