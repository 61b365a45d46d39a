/**
 * The MCP tools tolerate what the HTTP routes tolerate (docs/web.md "Compatibility"), over the
 * real tool server (/v2/mcp with an API key) and the MCP SDK client: firecrawl-mcp's scrape
 * arguments pass, unknown arguments of crawl and map are named in the result's `warning`, and
 * the crawl tool takes `deduplicateSimilarURLs`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';
import { connectMcp, structuredOf, textOf } from './helpers.ts';

let site: TestSite;
let service: TestService;
let client: Client;

beforeAll(async () => {
  site = await startSite({ pages: 3 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort });
  client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
});
afterAll(async () => {
  await client.close();
  await service.stop();
  await site.close();
});

describe('MCP tools tolerate Firecrawl client fields', () => {
  it("scrape takes firecrawl-mcp's arguments (maxAge, storeInCache, zeroDataRetention, proxy, toolDetail)", async () => {
    const result = await client.callTool({
      name: 'scrape',
      arguments: { url: `${site.url}/about.html`, formats: ['markdown'], maxAge: 0, storeInCache: false, zeroDataRetention: false, proxy: 'auto', toolDetail: 'compact', onlyMainContent: true },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('A site that exists only for tests.');
  });

  it('crawl takes deduplicateSimilarURLs and names unknown arguments; map too', async () => {
    const crawl = await client.callTool({
      name: 'crawl',
      arguments: { url: `${site.url}/similar/`, sitemap: 'skip', limit: 10, deduplicateSimilarURLs: false, pollInterval: 2, waitSeconds: 60 },
    });
    expect(crawl.isError).toBeFalsy();
    expect(structuredOf(crawl)).toMatchObject({ status: 'completed', completed: 5 });
    expect(String(structuredOf(crawl).warning)).toContain('Ignored field `pollInterval`');
    const map = await client.callTool({ name: 'map', arguments: { url: `${site.url}/`, sitemap: 'skip', useIndex: true, serach: 'x' } });
    expect(map.isError).toBeFalsy();
    expect(String(structuredOf(map).warning)).toBe('Ignored field `serach`: folio does not know it (check the spelling; the accepted fields are listed in docs/web.md, "Compatibility").');
  });
});
