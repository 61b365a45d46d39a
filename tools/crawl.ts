/**
 * The `crawl` tool: starts a crawl job — thin over the crawl service, the same one as
 * POST /v2/crawl. By default it returns the job id at once and `crawl_status` reads progress and
 * pages. With `waitSeconds`, the call stays open until the job ends or the time is up, sending
 * MCP progress notifications (pages scraped of URLs found) meanwhile; cancelling the call then
 * cancels the job.
 */
import { z } from 'zod';
import type { JobKind } from '../src/store/crawl-jobs.ts';
import type { CrawlService } from '../src/web/crawl/index.ts';
import { defineTool, type AnyToolDefinition, type ToolCallContext } from './types.ts';

/** The longest a `crawl` call may stay open (`waitSeconds`). */
export const MAX_WAIT_SECONDS = 600;

/** The `waitSeconds` input of the job tools (crawl, batch_scrape, agent): `doing` says what the call waits for, `job` what a cancel stops. */
export function waitSecondsInput(doing: string, job: string) {
  return z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .default(0)
    .describe(`Keep the call open up to this many seconds (max ${MAX_WAIT_SECONDS}) while ${doing}; cancelling the call cancels the ${job}. 0: return the job id at once.`);
}

const WAIT_POLL_MS = 250;

export interface CrawlToolDeps {
  crawls: CrawlService;
}

/** Loose like POST /v2/crawl: the other Firecrawl crawl fields (and unknown ones) reach the core. */
const CrawlToolInput = z.looseObject({
  url: z.string().describe('Where the crawl starts (http or https).'),
  limit: z.number().int().min(1).optional().describe('Pages to scrape at most (default 10000; keep it small for a quick look).'),
  maxDiscoveryDepth: z.number().int().min(0).optional().describe('Link hops from the start page (sitemap pages count as 0).'),
  includePaths: z.array(z.string()).optional().describe('Regexes on the URL path; only matching pages are crawled.'),
  excludePaths: z.array(z.string()).optional().describe('Regexes on the URL path; matching pages are skipped.'),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  crawlEntireDomain: z.boolean().optional().describe('Also follow links outside the start path (siblings, parents).'),
  ignoreQueryParameters: z.boolean().optional(),
  deduplicateSimilarURLs: z.boolean().optional().describe('Count /, /index.html, www./bare host, http/https and a trailing slash as one page (default true).'),
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  delay: z.number().min(0).optional().describe('Seconds between requests to the site.'),
  maxConcurrency: z.number().int().min(1).optional(),
  scrapeOptions: z.record(z.string(), z.unknown()).optional().describe('Options for each page, as for `scrape` (formats, onlyMainContent, …).'),
  waitSeconds: waitSecondsInput('the crawl runs, with progress notifications', 'crawl'),
});

type Finished = 'completed' | 'failed' | 'cancelled';

/** Resolves when the job leaves `scraping`, the time is up (undefined) or the call is cancelled (which cancels the job). */
export async function waitForJob(crawls: CrawlService, owner: string, id: string, waitMs: number, ctx: ToolCallContext, kind: JobKind = 'crawl'): Promise<Finished | undefined> {
  const unsubscribe = crawls.onProgress(id, (p) => ctx.progress({ progress: p.completed, total: p.total, message: `${p.completed} of ${p.total} pages` }));
  try {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { status } = await crawls.status(owner, id, { limit: 0 }, kind);
      if (status !== 'scraping') return status;
      if (Date.now() >= deadline) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now())));
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
      if (ctx.signal.aborted) {
        await crawls.cancel(owner, id, kind);
        ctx.signal.throwIfAborted();
      }
    }
  } finally {
    unsubscribe();
  }
}

export function createCrawlTool(deps: CrawlToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'crawl',
    title: 'Crawl a website',
    description:
      'Start crawling a website: folio follows its links (and sitemap) from `url` and scrapes each page, respecting robots.txt. Returns a job id at once; call `crawl_status` with it to follow progress and read the pages. Use `map` first when you only need the list of URLs, and `scrape` for a single page.',
    inputSchema: CrawlToolInput,
    annotations: { readOnlyHint: false, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const { waitSeconds, ...request } = input;
      const owner = ctx.caller.owner;
      const { id, warning } = await deps.crawls.start(owner, request);
      const next = { tool: 'crawl_status', arguments: { id } };
      const note = warning ? `\nNote: ${warning}` : '';
      if (waitSeconds === 0) {
        const text = `Crawl started. Job id: ${id}\nCall \`crawl_status\` with {"id": "${id}"} to see progress and the scraped pages (poll every few seconds until status is "completed").${note}`;
        return { text, structured: { id, status: 'scraping', next, ...(warning ? { warning } : {}) } };
      }
      const finished = await waitForJob(deps.crawls, owner, id, waitSeconds * 1000, ctx);
      const { status, total, completed } = await deps.crawls.status(owner, id, { limit: 0 });
      const head = finished ? `Crawl ${status}: ${completed} of ${total} pages.` : `Crawl still running after ${waitSeconds} s: ${completed} of ${total} pages so far.`;
      const text = `${head} Job id: ${id}\nCall \`crawl_status\` with {"id": "${id}"} to read the pages${finished ? '' : ' and follow the rest'}.${note}`;
      return { text, structured: { id, status, total, completed, next, ...(warning ? { warning } : {}) } };
    },
  });
}
