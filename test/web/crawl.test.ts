/**
 * Crawl against the local test site through the real service, store and Firecrawl SDK: crawl()
 * with polling, startCrawl + getCrawlStatus, limit/depth/include/exclude, robots.txt, paging with
 * `next`, cancel, owner binding, bad patterns.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite({ pages: 10 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_CRAWL_CONCURRENCY: '4' });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

const sourceUrls = (data: { metadata?: { sourceURL?: string } }[]) => data.map((d) => d.metadata?.sourceURL ?? '').sort();

async function waitDone(id: string, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const job = await client.getCrawlStatus(id);
    if (job.status !== 'scraping' || Date.now() > until) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function api(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  return request(`${service.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.key ?? service.key}`, 'content-type': 'application/json' },
    ...(init.body !== undefined ? { body: Buffer.from(JSON.stringify(init.body)) } : {}),
  });
}

describe('crawl', () => {
  it('crawls the site with the SDK (polling): pages and documents scraped, robots.txt obeyed', async () => {
    const job = await client.crawl(`${site.url}/`, { limit: 50, scrapeOptions: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const urls = sourceUrls(job.data);
    for (let n = 1; n <= 10; n++) expect(urls).toContain(`${site.url}/pages/${n}.html`);
    expect(urls).toContain(`${site.url}/article.html`);
    expect(urls).toContain(`${site.url}/docs/paper.pdf`);
    expect(urls).not.toContain(`${site.url}/private/secret.html`);
    expect(new Set(urls).size).toBe(urls.length);
    expect(job.completed).toBe(job.data.length);
    expect(job.creditsUsed).toBe(job.completed);
    expect(Date.parse(job.expiresAt ?? '')).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const article = job.data.find((d) => d.metadata?.sourceURL === `${site.url}/article.html`);
    expect(article?.markdown).toContain('Tidal Energy in Small Harbours');
    // rawHtml was fetched for link discovery only: not requested, not returned.
    expect(article?.rawHtml).toBeUndefined();
  });

  it('startCrawl + getCrawlStatus with maxDiscoveryDepth; robots-blocked URLs listed by /errors', async () => {
    const { id, url } = await client.startCrawl(`${site.url}/`, { limit: 50, sitemap: 'skip', maxDiscoveryDepth: 1 });
    expect(url).toBe(`${service.url}/v2/crawl/${id}`);
    const job = await waitDone(id);
    expect(job.status).toBe('completed');
    const urls = sourceUrls(job.data);
    expect(urls).toContain(`${site.url}/pages/1.html`);
    // Depth 2 from the root: not followed with maxDiscoveryDepth 1.
    expect(urls).not.toContain(`${site.url}/pages/2.html`);
    const errors = await client.getCrawlErrors(id);
    expect(errors.robotsBlocked).toEqual([`${site.url}/private/secret.html`]);
  });

  it('limit, includePaths and excludePaths', async () => {
    const limited = await waitDone((await client.startCrawl(`${site.url}/`, { limit: 4, sitemap: 'skip' })).id);
    expect(limited.completed).toBe(4);
    expect(limited.total).toBe(4);

    const included = await waitDone((await client.startCrawl(`${site.url}/`, { includePaths: ['^/pages/[0-9]+\\.html$'], sitemap: 'skip' })).id);
    const inc = sourceUrls(included.data);
    expect(inc).toContain(`${site.url}/pages/10.html`);
    expect(inc.filter((u) => u !== `${site.url}/` && !/\/pages\/\d+\.html$/.test(u))).toEqual([]);

    const excluded = await waitDone((await client.startCrawl(`${site.url}/`, { excludePaths: ['^/pages/', '^/docs/'] })).id);
    const exc = sourceUrls(excluded.data);
    expect(exc).toContain(`${site.url}/about.html`);
    expect(exc.filter((u) => u.includes('/pages/') || u.includes('/docs/'))).toEqual([]);
  });

  it('pages results with an absolute `next` URL', async () => {
    const { id } = await client.startCrawl(`${site.url}/`, { limit: 7, sitemap: 'include' });
    await waitDone(id);
    const first = await api(`/v2/crawl/${id}?limit=3`);
    expect(first.status).toBe(200);
    expect((first.json.data as unknown[]).length).toBe(3);
    const next = String(first.json.next);
    expect(next).toBe(`${service.url}/v2/crawl/${id}?skip=3&limit=3`);
    const second = await request(next, { headers: { authorization: `Bearer ${service.key}` } });
    expect((second.json.data as unknown[]).length).toBe(3);
    const third = await request(String(second.json.next), { headers: { authorization: `Bearer ${service.key}` } });
    expect((third.json.data as unknown[]).length).toBe(1);
    expect(third.json.next).toBeUndefined();
    const all = [first, second, third].flatMap((r) => (r.json.data as { metadata: { sourceURL: string } }[]).map((d) => d.metadata.sourceURL));
    expect(new Set(all).size).toBe(7);
  });

  it('cancels a running crawl', async () => {
    const { id } = await client.startCrawl(`${site.url}/`, { delay: 1, limit: 50 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await client.cancelCrawl(id)).toBe(true);
    const after = await client.getCrawlStatus(id);
    expect(after.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1200));
    const later = await client.getCrawlStatus(id);
    expect(later.completed).toBe(after.completed);
    expect(later.completed).toBeLessThan(3);
  });

  it("another team's job is a 404, and unknown ids too", async () => {
    const { id } = await client.startCrawl(`${site.url}/about.html`, { limit: 1 });
    const other = await service.createKey('other-team');
    for (const path of [`/v2/crawl/${id}`, `/v2/crawl/${id}/errors`]) {
      const res = await api(path, { key: other.key });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    expect((await api(`/v2/crawl/${id}`, { method: 'DELETE', key: other.key })).status).toBe(404);
    const failure = await new Firecrawl({ apiKey: other.key, apiUrl: service.url }).getCrawlStatus(id).then(() => undefined, (e: unknown) => e);
    expect((failure as SdkError).status).toBe(404);
    expect((await api('/v2/crawl/not-an-id')).status).toBe(404);
    const active = await api('/v2/crawl/active', { key: other.key });
    expect(active.json).toEqual({ success: true, crawls: [] });
    await waitDone(id);
  });

  it('refuses bad and catastrophic regexes and bad options with 400', async () => {
    const bad = await api('/v2/crawl', { method: 'POST', body: { url: site.url, includePaths: ['(unclosed'] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('`includePaths[0]` is not a valid regular expression');
    const evil = await api('/v2/crawl', { method: 'POST', body: { url: site.url, excludePaths: ['^/ok$', '(a+)+$'] } });
    expect(evil.status).toBe(400);
    expect(evil.json.error).toContain('`excludePaths[1]`');
    expect(evil.json.error).toContain('nested quantifiers');
    const limit = await api('/v2/crawl', { method: 'POST', body: { url: site.url, limit: 0 } });
    expect(limit.status).toBe(400);
    expect(limit.json.error).toContain('`limit`');
    const noUrl = await api('/v2/crawl', { method: 'POST', body: {} });
    expect(noUrl.status).toBe(400);
    for (const path of ['/v2/crawl', '/v2/map']) {
      const anonymous = await request(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ url: site.url })) });
      expect(anonymous.status).toBe(401);
    }
  });
});
