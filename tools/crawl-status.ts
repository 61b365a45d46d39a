/**
 * The `crawl_status` tool: a crawl job's status, progress and a page of its results — thin over
 * the crawl service (GET /v2/crawl/:id). Pages come `limit` at a time from `skip`; the text holds
 * each page's markdown, cut to `maxChars` in all.
 */
import { z } from 'zod';
import type { CrawlService, CrawlStatusPage } from '../src/web/crawl/index.ts';
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

/** A job's status page as text: the status line, each page's markdown within `maxChars`, what to call next. */
export function jobPageText(page: CrawlStatusPage, at: { id: string; skip: number; maxChars: number; tool: string; what: string }): string {
  const lines = [`Status: ${page.status}. Pages scraped: ${page.completed} of ${page.total}.${page.error ? ` ${page.error}` : ''}`];
  let used = 0;
  page.data.forEach((doc, i) => {
    const url = doc.metadata.sourceURL ?? doc.metadata.url ?? '';
    const md = doc.markdown ?? '';
    const room = Math.max(0, at.maxChars - used);
    const shown = md.length > room ? `${md.slice(0, room)}\n[… cut: ${md.length - room} more characters]` : md;
    used += Math.min(md.length, room);
    lines.push(`\n--- Result ${at.skip + i + 1}: ${url}\n${shown}`);
  });
  if (page.nextSkip !== undefined) lines.push(`\nMore results: call \`${at.tool}\` with {"id": "${at.id}", "skip": ${page.nextSkip}}.`);
  else if (page.status === 'scraping') {
    lines.push(`\nThe ${at.what} is still running: call \`${at.tool}\` with {"id": "${at.id}", "skip": ${at.skip + page.data.length}} in a few seconds for the pages that follow.`);
  }
  return lines.join('\n');
}

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
      return { text: jobPageText(page, { id: input.id, skip, maxChars: input.maxChars, tool: 'crawl_status', what: 'crawl' }), structured: { id: input.id, ...page } };
    },
  });
}
