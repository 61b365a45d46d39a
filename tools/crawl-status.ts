/**
 * The `crawl_status` tool: a crawl job's status, progress and a page of its results — thin over
 * the crawl service (GET /v2/crawl/:id). Pages come `limit` at a time from `skip`; the text holds
 * each page's markdown, cut to `maxChars` in all.
 */
import { z } from 'zod';
import type { CrawlService } from '../src/web/crawl/index.ts';
import { maxCharsField } from './text-budget.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface CrawlStatusToolDeps {
  crawls: CrawlService;
}


const CrawlStatusInput = z.object({
  id: z.string().describe('The job id `crawl` returned.'),
  skip: z.number().int().min(0).optional().describe('Results to skip (for the next page of results).'),
  limit: z.number().int().min(1).max(100).optional().describe('Pages of results to return (default 10).'),
  maxChars: maxCharsField('Characters of markdown in the text at most.', { min: 1000 }),
});

export function createCrawlStatusTool(deps: CrawlStatusToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'crawl_status',
    title: 'Crawl status and results',
    description:
      'Read a crawl job started with `crawl`: its status (scraping, completed, failed, cancelled), pages done of total, and the scraped pages (markdown), a few at a time. When more results remain, the text says which `skip` to pass next.',
    inputSchema: CrawlStatusInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    keyless: false,
    async run(input, ctx) {
      const skip = input.skip ?? 0;
      const page = await deps.crawls.status(ctx.caller.owner, input.id, { skip, limit: input.limit ?? 10 });
      ctx.progress({ progress: page.completed, total: page.total, message: `${page.completed} of ${page.total} pages` });
      const budget = input.maxChars;
      const lines = [`Status: ${page.status}. Pages scraped: ${page.completed} of ${page.total}.${page.error ? ` ${page.error}` : ''}`];
      let used = 0;
      page.data.forEach((doc, i) => {
        const url = doc.metadata.sourceURL ?? doc.metadata.url ?? '';
        const md = doc.markdown ?? '';
        const room = Math.max(0, budget - used);
        const shown = md.length > room ? `${md.slice(0, room)}\n[… cut: ${md.length - room} more characters]` : md;
        used += Math.min(md.length, room);
        lines.push(`\n--- Result ${skip + i + 1}: ${url}\n${shown}`);
      });
      if (page.nextSkip !== undefined) lines.push(`\nMore results: call \`crawl_status\` with {"id": "${input.id}", "skip": ${page.nextSkip}}.`);
      else if (page.status === 'scraping') {
        lines.push(`\nThe crawl is still running: call \`crawl_status\` with {"id": "${input.id}", "skip": ${skip + page.data.length}} in a few seconds for the pages that follow.`);
      }
      return { text: lines.join('\n'), structured: { id: input.id, ...page } };
    },
  });
}
