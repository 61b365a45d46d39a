/**
 * `scrapeOptions` on POST /v2/search: every web result is scraped through the real scrape
 * (SSRF-protected fetcher, same parse core) from a local test site that only its own port is
 * allowed for (FOLIO_FETCH_ALLOW); the formats are merged into the result, a failing scrape
 * leaves `metadata.error` without failing the search, scrapes run at most three at a time, and
 * the search's timeout bounds them.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { createFetcher } from '../../src/web/fetch/fetcher.ts';
import { scrape } from '../../src/web/scrape.ts';
import { createSearch } from '../../src/web/search/index.ts';
import { searxngBackend } from '../../src/web/search/searxng.ts';
import { createSearchTool } from '../../tools/search.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startFakeSearxng, type FakeServer } from './fake-searxng.ts';
import { startSite, type TestSite } from './site.ts';

let searxng: FakeServer;
let site: TestSite;
let service: TestService;

type Result = { url: string; title: string; description: string; position: number; markdown?: string; links?: string[]; metadata?: Record<string, unknown> };

async function postSearch(body: unknown): Promise<{ status: number; web: Result[]; json: Record<string, unknown> }> {
  const res = await request(`${service.url}/v2/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
  return { status: res.status, json: res.json, web: ((res.json.data as { web?: Result[] } | undefined)?.web ?? []) };
}

beforeAll(async () => {
  [searxng, site] = await Promise.all([startFakeSearxng(), startSite()]);
  service = await startTestService({ runner: inProcessRunner() }, { SEARXNG_ENDPOINT: searxng.url, FOLIO_FETCH_ALLOW: site.hostPort });
});
afterAll(async () => {
  await service.stop();
  await Promise.all([searxng.close(), site.close()]);
});
beforeEach(() => {
  delete searxng.webUrls;
  site.requests.length = 0;
});

describe('search with scrapeOptions', () => {
  it('merges each result’s scraped formats; failures keep the result with metadata.error', async () => {
    searxng.webUrls = [`${site.url}/article.html`, `${site.url}/docs/paper.pdf`, `${site.url}/missing`, 'http://10.255.255.1/intranet'];
    const { status, web } = await postSearch({ query: 'tidal', limit: 4, scrapeOptions: { formats: ['markdown', 'links'] } });
    expect(status).toBe(200);
    expect(web.map((r) => r.url)).toEqual(searxng.webUrls);

    const [article, pdf, missing, blocked] = web as [Result, Result, Result, Result];
    expect(article).toMatchObject({ title: 'Result 1 about tidal', description: 'Snippet 1 & more about tidal.', position: 1 });
    expect(article.markdown).toContain('# Tidal Energy in Small Harbours');
    expect(article.links).toEqual([`${site.url}/docs/paper.pdf`, `${site.url}/docs/report.docx`, 'https://example.org/tides']);
    expect(article.metadata).toMatchObject({ sourceURL: `${site.url}/article.html`, statusCode: 200, title: 'Tidal Energy in Small Harbours' });

    expect(pdf.metadata).toMatchObject({ contentType: 'application/pdf', statusCode: 200 });
    expect(pdf.markdown?.length).toBeGreaterThan(20);

    // An upstream 404 is scraped as Firecrawl does it: the page, with metadata.error and the status.
    expect(missing.metadata).toMatchObject({ statusCode: 404 });
    expect(String(missing.metadata?.error)).toContain('404');

    // A private address is refused by the SSRF rules; the search still succeeds.
    expect(blocked).toMatchObject({ url: 'http://10.255.255.1/intranet', title: 'Result 4 about tidal', position: 4 });
    expect(blocked.markdown).toBeUndefined();
    expect(blocked.metadata?.sourceURL).toBe('http://10.255.255.1/intranet');
    expect(String(blocked.metadata?.error)).toMatch(/blocked|private|not allowed/i);
  });

  it('scrapeOptions without formats, or with none, scrape nothing (as Firecrawl)', async () => {
    searxng.webUrls = [`${site.url}/article.html`];
    const empty = await postSearch({ query: 'tidal', scrapeOptions: { formats: [] } });
    const none = await postSearch({ query: 'tidal', scrapeOptions: { onlyMainContent: false } });
    expect(empty.web[0]?.markdown).toBeUndefined();
    expect(none.web[0]?.markdown).toBeUndefined();
    expect(site.requests).toEqual([]);
  });

  it('scrapes at most three results at once', async () => {
    searxng.webUrls = Array.from({ length: 6 }, (_, i) => `${site.url}/slow?ms=300&n=${i}`);
    const started = Date.now();
    const { status, web } = await postSearch({ query: 'slow', limit: 6, scrapeOptions: { formats: ['markdown'] } });
    const elapsed = Date.now() - started;
    expect(status).toBe(200);
    expect(web.every((r) => r.markdown?.includes('Finally.'))).toBe(true);
    expect(site.requests.filter((p) => p.startsWith('/slow'))).toHaveLength(6);
    // Six 300 ms pages, three at a time: two rounds at least.
    expect(elapsed).toBeGreaterThanOrEqual(600);
  });

  it('the search’s timeout bounds the scrapes: a slow page gets metadata.error, the rest its content', async () => {
    searxng.webUrls = [`${site.url}/article.html`, `${site.url}/slow?ms=20000`];
    const started = Date.now();
    const { status, web } = await postSearch({ query: 'timeout', limit: 2, timeout: 1500, scrapeOptions: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(web[0]?.markdown).toContain('Tidal Energy');
    expect(web[1]?.markdown).toBeUndefined();
    expect(typeof web[1]?.metadata?.error).toBe('string');
    expect(web[1]?.metadata?.sourceURL).toBe(`${site.url}/slow?ms=20000`);
  });

  it('the Firecrawl SDK gets the scraped documents in search().web', async () => {
    searxng.webUrls = [`${site.url}/article.html`];
    const client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
    const result = await client.search('tidal', { limit: 1, scrapeOptions: { formats: ['markdown'] } });
    const first = result.web?.[0] as Result | undefined;
    expect(first?.url).toBe(`${site.url}/article.html`);
    expect(first?.markdown).toContain('# Tidal Energy in Small Harbours');
    expect(first?.metadata?.statusCode).toBe(200);
  });

  it('the search tool shows each scraped page’s markdown under its entry', async () => {
    searxng.webUrls = [`${site.url}/article.html`, `${site.url}/about.html`];
    const fetcher = createFetcher({ allow: [site.hostPort] });
    const runner = inProcessRunner();
    try {
      const tool = createSearchTool(
        createSearch({ backends: [searxngBackend(searxng.url)], scrape: (url, options, run) => scrape({ ...options, url }, { fetcher, runner }, run) }),
      );
      const input = tool.inputSchema.parse({ query: 'tidal', limit: 2, scrapeOptions: { formats: ['markdown'] } });
      const ctx = { caller: { kind: 'keyless' as const, owner: 'keyless:test' }, signal: new AbortController().signal, progress: () => undefined };
      const result = await tool.run(input, ctx);
      const [first, second] = result.text.split('\n\n2. ');
      expect(first).toContain(`1. Result 1 about tidal\n   ${site.url}/article.html\n   Snippet 1 & more about tidal.\n\n# Tidal Energy in Small Harbours`);
      expect(first).toContain('| Aberdyfi | 120 |');
      expect(second).toMatch(/^Result 2 about tidal\n/);
      expect((result.structured.web as Result[])[0]?.markdown).toContain('# Tidal Energy in Small Harbours');
    } finally {
      await fetcher.close();
    }
  });
});
