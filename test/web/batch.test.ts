/**
 * Batch scrape through the real service, store and Firecrawl SDK against the local test site:
 * batchScrape (polling), startBatchScrape + getBatchScrapeStatus (pagination with `next`,
 * autoPaginate), getBatchScrapeErrors, cancelBatchScrape, ignoreInvalidURLs → invalidURLs,
 * x-idempotency-key, appendToId, owner binding, SSRF on every URL, crawl ids not batch ids.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp, textOf } from '../mcp/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite({ pages: 30 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_CRAWL_CONCURRENCY: '4' });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

const pages = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${site.url}/pages/${from + i}.html`);
const sources = (data: { metadata?: { sourceURL?: string } }[]) => data.map((d) => d.metadata?.sourceURL ?? '').sort();

function api(path: string, init: { method?: string; body?: unknown; key?: string; headers?: Record<string, string> } = {}) {
  return request(`${service.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.key ?? service.key}`, 'content-type': 'application/json', ...init.headers },
    ...(init.body !== undefined ? { body: Buffer.from(JSON.stringify(init.body)) } : {}),
  });
}

async function waitDone(id: string, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const job = await client.getBatchScrapeStatus(id);
    if (job.status !== 'scraping' || Date.now() > until) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('batch scrape with the Firecrawl SDK', () => {
  it('batchScrape scrapes every URL, in the scrape shape, and follows no links', async () => {
    const urls = [...pages(1, 5), `${site.url}/article.html`];
    const job = await client.batchScrape(urls, { options: { formats: ['markdown', 'links'] }, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(job.total).toBe(6);
    expect(job.completed).toBe(6);
    expect(job.creditsUsed).toBe(6);
    expect(typeof job.expiresAt).toBe('string');
    expect(sources(job.data)).toEqual([...urls].sort());
    const article = job.data.find((d) => d.metadata?.sourceURL === `${site.url}/article.html`);
    expect(article?.markdown).toContain('Tidal');
    expect(Array.isArray(article?.links)).toBe(true);
    expect(article?.rawHtml).toBeUndefined();
    // No link of the pages was followed: only the six URLs were requested (besides nothing else).
    const fetched = site.requests.filter((p) => p.startsWith('/pages/') || p === '/article.html');
    expect(new Set(fetched)).toEqual(new Set(urls.map((u) => new URL(u).pathname)));
  });

  it('startBatchScrape + getBatchScrapeStatus page with `next`; autoPaginate collects every page', async () => {
    const urls = pages(1, 25);
    const started = await client.startBatchScrape(urls, { options: { formats: ['markdown'] } });
    expect(started.url).toBe(`${service.url}/v2/batch/scrape/${started.id}`);
    expect(started.invalidURLs).toBeUndefined();
    const done = await waitDone(started.id);
    expect(done.status).toBe('completed');
    expect(sources(done.data)).toEqual([...urls].sort());

    const first = await api(`/v2/batch/scrape/${started.id}?limit=10`);
    expect(first.status).toBe(200);
    expect((first.json.data as unknown[]).length).toBe(10);
    expect(first.json.next).toBe(`${service.url}/v2/batch/scrape/${started.id}?skip=10&limit=10`);
    const manual = await client.getBatchScrapeStatus(started.id, { autoPaginate: false });
    expect(manual.data.length).toBe(25);
    expect(manual.next).toBeNull();
  });

  it('ignoreInvalidURLs answers the invalid entries in invalidURLs; without it the request is refused', async () => {
    const started = await client.startBatchScrape([`${site.url}/about.html`, 'not a url', 'ftp://example.com/x'], { ignoreInvalidURLs: true });
    expect(started.invalidURLs).toEqual(['not a url', 'ftp://example.com/x']);
    const done = await waitDone(started.id);
    expect(done.total).toBe(1);
    expect(done.completed).toBe(1);

    const refused = await api('/v2/batch/scrape', { method: 'POST', body: { urls: [`${site.url}/about.html`, 'not a url'] } });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('BAD_REQUEST');
    expect(String(refused.json.error)).toContain('urls[1]');
    expect(String(refused.json.error)).toContain('ignoreInvalidURLs');
  });

  it('errors: a page that cannot be fetched is an error (and a blocked address too); a 404 page is data', async () => {
    const started = await client.startBatchScrape([`${site.url}/about.html`, `${site.url}/missing`, 'http://127.0.0.2:9/x', 'http://169.254.169.254/latest/meta-data']);
    const done = await waitDone(started.id);
    expect(done.status).toBe('completed');
    expect(done.completed).toBe(2);
    const missing = done.data.find((d) => d.metadata?.sourceURL === `${site.url}/missing`);
    expect(missing?.metadata?.statusCode).toBe(404);
    const errors = await client.getBatchScrapeErrors(started.id);
    expect(errors.robotsBlocked).toEqual([]);
    expect(errors.errors.map((e) => e.url).sort()).toEqual(['http://127.0.0.2:9/x', 'http://169.254.169.254/latest/meta-data']);
    for (const e of errors.errors) expect(e.error).toMatch(/^URL_BLOCKED: /);
  });

  it('cancelBatchScrape stops a running batch', async () => {
    const slow = Array.from({ length: 12 }, (_, i) => `${site.url}/slow?ms=300&n=${i}`);
    const started = await client.startBatchScrape(slow, { maxConcurrency: 1 });
    expect(await client.cancelBatchScrape(started.id)).toBe(true);
    const job = await client.getBatchScrapeStatus(started.id);
    expect(job.status).toBe('cancelled');
    expect(job.completed).toBeLessThan(12);
    // Cancelling a finished job answers its own status.
    const again = await api(`/v2/batch/scrape/${started.id}`, { method: 'DELETE' });
    expect(again.json.status).toBe('cancelled');
  });

  it('the same x-idempotency-key answers the same job', async () => {
    const key = `idem-${Date.now()}`;
    const a = await client.startBatchScrape([`${site.url}/about.html`], { idempotencyKey: key });
    const b = await client.startBatchScrape([`${site.url}/article.html`], { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    const done = await waitDone(a.id);
    expect(sources(done.data)).toEqual([`${site.url}/about.html`]);
  });

  it('appendToId adds URLs to a batch, even a finished one', async () => {
    const a = await client.startBatchScrape(pages(1, 2));
    await waitDone(a.id);
    const b = await client.startBatchScrape(pages(2, 4), { appendToId: a.id });
    expect(b.id).toBe(a.id);
    const done = await waitDone(a.id);
    expect(done.status).toBe('completed');
    expect(sources(done.data)).toEqual(pages(1, 4).sort());
  });

  it('jobs are owner-bound; crawl and batch ids do not mix', async () => {
    const started = await client.startBatchScrape([`${site.url}/about.html`]);
    await waitDone(started.id);
    const other = await service.createKey('other-team');
    for (const [method, path] of [['GET', ''], ['GET', '/errors'], ['DELETE', '']] as const) {
      const res = await api(`/v2/batch/scrape/${started.id}${path}`, { method, key: other.key });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    const asCrawl = await api(`/v2/crawl/${started.id}`);
    expect(asCrawl.status).toBe(404);
    const other2 = new Firecrawl({ apiKey: other.key, apiUrl: service.url });
    await expect(other2.getBatchScrapeStatus(started.id)).rejects.toBeInstanceOf(SdkError);
    const active = await api('/v2/crawl/active');
    expect((active.json.crawls as { id: string }[]).map((c) => c.id)).not.toContain(started.id);
    const noKey = await request(`${service.url}/v2/batch/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"urls":["https://example.com"]}') });
    expect(noKey.status).toBe(401);
  });

  it('refuses a bad body with a message naming the field', async () => {
    const empty = await api('/v2/batch/scrape', { method: 'POST', body: { urls: [] } });
    expect(empty.status).toBe(400);
    expect(String(empty.json.error)).toContain('urls');
    const badFormat = await api('/v2/batch/scrape', { method: 'POST', body: { urls: [`${site.url}/about.html`], formats: ['branding'] } });
    expect(badFormat.status).toBe(400);
    expect(badFormat.json.code).toBe('NOT_YET_SUPPORTED');
    const badHook = await api('/v2/batch/scrape', { method: 'POST', body: { urls: [`${site.url}/about.html`], webhook: { url: 'file:///etc/passwd' } } });
    expect(badHook.status).toBe(400);
    expect(String(badHook.json.error)).toContain('webhook');
  });

  it('MCP: batch_scrape (waiting) and batch_scrape_status with a key; keyless cannot', async () => {
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
    try {
      const urls = [`${site.url}/about.html`, `${site.url}/article.html`, 'not a url'];
      const started = (await mcp.callTool({ name: 'batch_scrape', arguments: { urls, ignoreInvalidURLs: true, waitSeconds: 60 } })) as CallToolResult;
      expect(started.isError).toBeFalsy();
      const out = started.structuredContent as { id: string; status: string; completed: number; invalidURLs: string[] };
      expect(out.status).toBe('completed');
      expect(out.completed).toBe(2);
      expect(out.invalidURLs).toEqual(['not a url']);
      expect(textOf(started)).toContain('batch_scrape_status');
      const status = (await mcp.callTool({ name: 'batch_scrape_status', arguments: { id: out.id } })) as CallToolResult;
      expect(textOf(status)).toContain('Status: completed. Pages scraped: 2 of 2.');
      expect(textOf(status)).toContain('Tidal');
      // A crawl id is not a batch id.
      const crawl = await client.startCrawl(`${site.url}/about.html`, { limit: 1 });
      const wrongKind = (await mcp.callTool({ name: 'batch_scrape_status', arguments: { id: crawl.id } })) as CallToolResult;
      expect(wrongKind.isError).toBe(true);
      expect(textOf(wrongKind)).toMatch(/No batch scrape job/);
    } finally {
      await mcp.close();
    }
    const keyless = await connectMcp(`${service.url}/v2/mcp`);
    try {
      const names = (await keyless.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('batch_scrape');
      const refused = (await keyless.callTool({ name: 'batch_scrape', arguments: { urls: [`${site.url}/about.html`] } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/API key/);
    } finally {
      await keyless.close();
    }
  });
});
