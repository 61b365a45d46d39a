/**
 * The `map` tool: the URLs of a site (sitemaps + the page's links), optionally ranked by a search
 * term — thin over src/web/map.ts, the same function as POST /v2/map.
 */
import { z } from 'zod';
import type { Fetcher } from '../src/web/fetch/types.ts';
import { map, MAP_MAX_LIMIT, parseMapRequest } from '../src/web/map.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface MapToolDeps {
  fetcher: Fetcher;
}

/** Loose like POST /v2/map: the other Firecrawl map fields (and unknown ones) reach the core. */
const MapToolInput = z.looseObject({
  url: z.string().describe('The site or page to map (http or https).'),
  search: z.string().optional().describe('Keep only URLs matching these words, best first.'),
  sitemap: z.enum(['include', 'skip', 'only']).optional().describe('Use the sitemap and the page links (include, default), only the page links (skip), or only the sitemap (only).'),
  includeSubdomains: z.boolean().optional().describe('Include URLs of subdomains (default true).'),
  ignoreQueryParameters: z.boolean().optional().describe('Treat URLs that differ only in their query as one (default true).'),
  limit: z.number().int().min(1).max(MAP_MAX_LIMIT).optional().describe('At most this many URLs (default 5000).'),
  timeout: z.number().int().min(1).optional().describe('Milliseconds (default 60000).'),
});

export function createMapTool(deps: MapToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'map',
    title: 'Map a website',
    description:
      'List the URLs of a website quickly, without scraping them: from its sitemaps and the links of the given page, limited to the site. Use it to find the right page before `scrape`, or to plan a `crawl`. Give `search` to keep only URLs about a topic.',
    inputSchema: MapToolInput,
    annotations: { readOnlyHint: true, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const { request, warning } = parseMapRequest(input);
      const result = await map(request, deps, { signal: ctx.signal });
      const lines = result.links.map((l) => (l.title ? `${l.url} — ${l.title}` : l.url));
      const text = (lines.length === 0 ? 'No URLs found.' : `${lines.length} URLs:\n${lines.join('\n')}`) + (warning ? `\n\nNote: ${warning}` : '');
      return { text, structured: { links: result.links, ...(warning ? { warning } : {}) } };
    },
  });
}
