/**
 * The `batch_scrape` tool: scrapes a list of URLs as one job — thin over the crawl service's
 * startBatch, the same as POST /v2/batch/scrape. Returns the job id at once (`batch_scrape_status`
 * reads the pages), or with `waitSeconds` keeps the call open until the batch ends or the time is
 * up, with progress notifications; cancelling the call then cancels the batch.
 */
import { z } from 'zod';
import type { CrawlService } from '../src/web/crawl/index.ts';
import { waitForJob, waitSecondsInput } from './crawl.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface BatchScrapeToolDeps {
  crawls: CrawlService;
}

const BatchScrapeInput = z.object({
  urls: z.array(z.string()).min(1).max(10_000).describe('The pages to scrape (http or https URLs).'),
  options: z.record(z.string(), z.unknown()).optional().describe('Options for every page, as for `scrape` (formats, onlyMainContent, …).'),
  maxConcurrency: z.number().int().min(1).optional().describe('Pages scraped at once (capped by the server).'),
  ignoreInvalidURLs: z.boolean().optional().describe('Skip entries that are not valid URLs instead of refusing the call; they are listed back.'),
  waitSeconds: waitSecondsInput('the batch runs, with progress notifications', 'batch'),
});

export function createBatchScrapeTool(deps: BatchScrapeToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'batch_scrape',
    title: 'Scrape many pages',
    description:
      'Scrape a list of URLs as one job (no links are followed). Returns a job id at once; call `batch_scrape_status` with it to follow progress and read the pages. Use `scrape` for one page and `crawl` to discover pages from a start URL.',
    inputSchema: BatchScrapeInput,
    annotations: { readOnlyHint: false, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const { waitSeconds, options, urls, maxConcurrency, ignoreInvalidURLs } = input;
      const owner = ctx.caller.owner;
      const body = { ...options, urls, ...(maxConcurrency !== undefined ? { maxConcurrency } : {}), ...(ignoreInvalidURLs !== undefined ? { ignoreInvalidURLs } : {}) };
      const { id, invalidURLs } = await deps.crawls.startBatch(owner, body);
      const next = { tool: 'batch_scrape_status', arguments: { id } };
      const skipped = invalidURLs.length > 0 ? `\nSkipped as invalid: ${invalidURLs.join(', ')}` : '';
      if (waitSeconds === 0) {
        const text = `Batch scrape started. Job id: ${id}\nCall \`batch_scrape_status\` with {"id": "${id}"} to see progress and the scraped pages (poll every few seconds until status is "completed").${skipped}`;
        return { text, structured: { id, status: 'scraping', invalidURLs, next } };
      }
      const finished = await waitForJob(deps.crawls, owner, id, waitSeconds * 1000, ctx, 'batch');
      const { status, total, completed } = await deps.crawls.status(owner, id, { limit: 0 }, 'batch');
      const head = finished ? `Batch scrape ${status}: ${completed} of ${total} pages.` : `Batch scrape still running after ${waitSeconds} s: ${completed} of ${total} pages so far.`;
      const text = `${head} Job id: ${id}\nCall \`batch_scrape_status\` with {"id": "${id}"} to read the pages${finished ? '' : ' and follow the rest'}.${skipped}`;
      return { text, structured: { id, status, total, completed, invalidURLs, next } };
    },
  });
}
