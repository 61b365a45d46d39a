/**
 * The batch scrape request (Firecrawl v2 `POST /v2/batch/scrape`): `urls`, the scrape options
 * at the top level exactly as for `POST /v2/scrape`, and the job's own fields. A batch runs on
 * the crawl job machinery as a job whose frontier is its URLs and which follows no links: its
 * stored request is a crawl request with `sitemap: 'skip'` and `maxDiscoveryDepth: 0`.
 */
import { z } from 'zod';
import { ServiceError } from '../../errors.ts';
import { HttpUrlSchema } from '../map.ts';
import { parseScrapeOptions } from '../scrape-options.ts';
import { parseBody } from '../validate.ts';
import { WebhookSchema } from '../webhooks/index.ts';
import { CrawlRequestSchema, type CrawlRequest } from './request.ts';

/** URLs in one batch request at most (Firecrawl's own limit is in the same range). */
export const BATCH_MAX_URLS = 10_000;

const BatchFieldsSchema = z.object({
  urls: z.array(z.unknown()).min(1, 'must hold at least one URL').max(BATCH_MAX_URLS, `at most ${BATCH_MAX_URLS} URLs per request`),
  ignoreInvalidURLs: z.boolean().default(false),
  maxConcurrency: z.number().int().min(1).max(1000).nullish().transform((v) => v ?? undefined),
  webhook: WebhookSchema,
  appendToId: z.uuid().nullish().transform((v) => v ?? undefined),
  zeroDataRetention: z.boolean().default(false),
});

const BATCH_FIELDS = ['urls', 'ignoreInvalidURLs', 'maxConcurrency', 'webhook', 'appendToId', 'zeroDataRetention', 'integration', 'origin'];

export interface BatchRequest {
  /** The valid URLs, normalised, duplicates merged, in request order. */
  urls: string[];
  /** With `ignoreInvalidURLs`: the entries that were not valid URLs, as given. */
  invalidURLs: string[];
  appendToId?: string;
  /** What the job stores and runs: a crawl request that follows no links. */
  job: CrawlRequest;
}

export function parseBatchRequest(input: unknown, browser = false): BatchRequest {
  const fields = parseBody(BatchFieldsSchema, input, 'batch scrape');
  const rest = Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([k]) => !BATCH_FIELDS.includes(k)));
  const scrapeOptions = parseScrapeOptions(rest, 'batch scrape options', browser);
  const urls: string[] = [];
  const invalidURLs: string[] = [];
  const bad: string[] = [];
  fields.urls.forEach((raw, i) => {
    const parsed = HttpUrlSchema.safeParse(raw);
    if (parsed.success) {
      if (!urls.includes(parsed.data)) urls.push(parsed.data);
    } else {
      invalidURLs.push(typeof raw === 'string' ? raw : JSON.stringify(raw) ?? String(raw));
      bad.push(`\`urls[${i}]\``);
    }
  });
  if (bad.length > 0 && !fields.ignoreInvalidURLs) {
    throw new ServiceError(
      'BAD_REQUEST',
      `Invalid batch scrape request: ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ` and ${bad.length - 10} more` : ''} ${bad.length > 1 ? 'are not' : 'is not an'} absolute http(s) URL${bad.length > 1 ? 's' : ''}. Fix them, or send \`ignoreInvalidURLs: true\` to scrape the others and get the invalid ones back in \`invalidURLs\`.`,
    );
  }
  if (urls.length === 0) {
    throw new ServiceError('BAD_REQUEST', 'Invalid batch scrape request: none of `urls` is an absolute http(s) URL.');
  }
  const [first] = urls as [string, ...string[]];
  const job = CrawlRequestSchema.parse({
    url: first,
    limit: Math.min(urls.length, 100_000),
    sitemap: 'skip',
    maxDiscoveryDepth: 0,
    scrapeOptions,
    maxConcurrency: fields.maxConcurrency ?? null,
    zeroDataRetention: fields.zeroDataRetention,
  });
  return {
    urls,
    invalidURLs,
    ...(fields.appendToId ? { appendToId: fields.appendToId } : {}),
    job: { ...job, webhook: fields.webhook },
  };
}
