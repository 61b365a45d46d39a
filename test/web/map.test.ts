/**
 * POST /v2/map against the local test site through the real service and the Firecrawl SDK:
 * sitemap index + gzip sitemap, page links, search ranking, sitemap only/skip, limits, and the
 * errors for bad input and blocked addresses.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite({ pages: 12 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

const urlsOf = (links: { url: string }[]) => links.map((l) => l.url);

describe('map', () => {
  it('finds the sitemap URLs (robots.txt → index → gzip sitemap) and the page links, on this site only', async () => {
    const { links } = await client.map(`${site.url}/`);
    const urls = urlsOf(links);
    // Only in the gzip sitemap, reached through the index named in robots.txt:
    expect(urls).toContain(`${site.url}/pages/12.html`);
    // Only in the plain sitemap of the index:
    expect(urls).toContain(`${site.url}/docs/report.docx`);
    // Only a link of the page (footer):
    expect(urls).toContain(`${site.url}/privacy.html`);
    expect(urls.filter((u) => !u.startsWith(site.url))).toEqual([]);
    expect(new Set(urls).size).toBe(urls.length);
    expect(site.requests).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap-index.xml', '/sitemap-pages.xml.gz', '/sitemap-docs.xml']));
    const article = links.find((l) => l.url === `${site.url}/article.html`);
    expect(article?.title).toBe('Tidal energy');
  });

  it('sitemap "only" leaves the page links out; "skip" reads no sitemap', async () => {
    const only = urlsOf((await client.map(`${site.url}/`, { sitemap: 'only' })).links);
    expect(only).toContain(`${site.url}/pages/12.html`);
    expect(only).not.toContain(`${site.url}/privacy.html`);

    const before = site.requests.length;
    const skip = urlsOf((await client.map(`${site.url}/`, { sitemap: 'skip' })).links);
    expect(skip).toContain(`${site.url}/privacy.html`);
    expect(skip).not.toContain(`${site.url}/pages/12.html`);
    expect(site.requests.slice(before).filter((p) => p.includes('sitemap') || p === '/robots.txt')).toEqual([]);
  });

  it('ranks by search: matching URLs only, best first', async () => {
    const { links } = await client.map(`${site.url}/`, { search: 'tidal energy' });
    expect(links[0]?.url).toBe(`${site.url}/article.html`);
    const docs = urlsOf((await client.map(`${site.url}/`, { search: 'docs report' })).links);
    expect(docs[0]).toBe(`${site.url}/docs/report.docx`);
    expect(docs).toContain(`${site.url}/docs/paper.pdf`);
    expect(docs).not.toContain(`${site.url}/about.html`);
  });

  it('honours limit', async () => {
    const { links } = await client.map(`${site.url}/`, { limit: 3 });
    expect(links).toHaveLength(3);
  });

  it('answers bad input with 400 and a blocked address with 403 URL_BLOCKED', async () => {
    const post = (body: unknown) =>
      request(`${service.url}/v2/map`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      });
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('`url`');
    const ftp = await post({ url: 'ftp://example.com/' });
    expect(ftp.status).toBe(400);
    const big = await post({ url: site.url, limit: 100_001 });
    expect(big.status).toBe(400);
    expect(big.json.error).toContain('`limit`');

    const failure = await client.map('http://127.0.0.1:1/').then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(403);
    expect((failure as SdkError).code).toBe('URL_BLOCKED');
  });
});
