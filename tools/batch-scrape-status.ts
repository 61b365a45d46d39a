/**
 * The `batch_scrape_status` tool: a batch scrape job's status, progress and a page of its results
 * — thin over the crawl service (GET /v2/batch/scrape/:id), rendered as `crawl_status` does.
 */
import { z } from 'zod';
import type { CrawlService } from '../src/web/crawl/index.ts';
import { jobPageText } from './crawl-status.ts';
import { maxCharsField } from './text-budget.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface BatchScrapeStatusToolDeps {
  crawls: CrawlService;
}

const BatchScrapeStatusInput = z.object({
  id: z.string().describe('The job id `batch_scrape` returned.'),
  skip: z.number().int().min(0).optional().describe('Results to skip (for the next page of results).'),
  limit: z.number().int().min(1).max(100).optional().describe('Pages of results to return (default 10).'),
  maxChars: maxCharsField('Characters of markdown in the text at most.', { min: 1000 }),
});

export function createBatchScrapeStatusTool(deps: BatchScrapeStatusToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'batch_scrape_status',
    title: 'Batch scrape status and results',
    description:
      'Read a batch scrape job started with `batch_scrape`: its status (scraping, completed, cancelled), pages done of total, and the scraped pages (markdown), a few at a time. When more results remain, the text says which `skip` to pass next.',
    inputSchema: BatchScrapeStatusInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    keyless: false,
    async run(input, ctx) {
      const skip = input.skip ?? 0;
      const page = await deps.crawls.status(ctx.caller.owner, input.id, { skip, limit: input.limit ?? 10 }, 'batch');
      ctx.progress({ progress: page.completed, total: page.total, message: `${page.completed} of ${page.total} pages` });
      const text = jobPageText(page, { id: input.id, skip, maxChars: input.maxChars, tool: 'batch_scrape_status', what: 'batch scrape' });
      return { text, structured: { id: input.id, ...page } };
    },
  });
}
