/**
 * The `crawl` tool: starts a crawl job and returns its id at once — thin over the crawl service,
 * the same one as POST /v2/crawl. The job runs on the server; `crawl_status` reads its progress
 * and pages.
 */
import { z } from 'zod';
import type { CrawlService } from '../src/web/crawl/index.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface CrawlToolDeps {
  crawls: CrawlService;
}

const CrawlToolInput = z.object({
  url: z.string().describe('Where the crawl starts (http or https).'),
  limit: z.number().int().min(1).optional().describe('Pages to scrape at most (default 10000; keep it small for a quick look).'),
  maxDiscoveryDepth: z.number().int().min(0).optional().describe('Link hops from the start page (sitemap pages count as 0).'),
  includePaths: z.array(z.string()).optional().describe('Regexes on the URL path; only matching pages are crawled.'),
  excludePaths: z.array(z.string()).optional().describe('Regexes on the URL path; matching pages are skipped.'),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  crawlEntireDomain: z.boolean().optional().describe('Also follow links outside the start path (siblings, parents).'),
  ignoreQueryParameters: z.boolean().optional(),
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  delay: z.number().min(0).optional().describe('Seconds between requests to the site.'),
  maxConcurrency: z.number().int().min(1).optional(),
  scrapeOptions: z.record(z.string(), z.unknown()).optional().describe('Options for each page, as for `scrape` (formats, onlyMainContent, …).'),
});

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
      const { id } = await deps.crawls.start(ctx.caller.owner, input);
      const text = `Crawl started. Job id: ${id}\nCall \`crawl_status\` with {"id": "${id}"} to see progress and the scraped pages (poll every few seconds until status is "completed").`;
      return { text, structured: { id, status: 'scraping', next: { tool: 'crawl_status', arguments: { id } } } };
    },
  });
}
