/**
 * POST /v2/search against a started folio whose SEARXNG_ENDPOINT is a fake SearXNG speaking the
 * real JSON format: the Firecrawl v2 response shape for web, news and images, what is sent to
 * SearXNG (categories, time_range, language, pageno, operators), dedupe, limit, domain filters,
 * and the failure answers (json format off, 5xx, not JSON).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { MIXED_URLS, searxngWebUrl, startFakeSearxng, type FakeServer } from './fake-searxng.ts';

let searxng: FakeServer;
let service: TestService;

function postSearch(body: unknown) {
  return request(`${service.url}/v2/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
}

beforeAll(async () => {
  searxng = await startFakeSearxng();
  service = await startTestService({ runner: inProcessRunner() }, { SEARXNG_ENDPOINT: `${searxng.url}/` });
});
afterAll(async () => {
  await service.stop();
  await searxng.close();
});
beforeEach(() => {
  searxng.requests.length = 0;
  searxng.mode = 'ok';
});

describe('search over SearXNG', () => {
  it('answers web results in Firecrawl’s shape with the default limit of 5', async () => {
    const res = await postSearch({ query: 'folio parsing' });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    const data = res.json.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['web']);
    expect(data.web).toEqual([1, 2, 3, 4, 5].map((n) => ({
      url: searxngWebUrl('folio parsing', n),
      title: `Result ${n} about folio parsing`,
      description: `Snippet ${n} & more about folio parsing.`,
      position: n,
    })));
    expect(searxng.requests).toHaveLength(1);
    expect(searxng.requests[0]?.params).toEqual({ q: 'folio parsing', format: 'json', categories: 'general', pageno: '1' });
  });

  it('pages SearXNG for a larger limit, skipping URL-less results, repeats and fragment variants', async () => {
    const res = await postSearch({ query: 'many', limit: 22 });
    expect(res.status).toBe(200);
    const web = (res.json.data as { web: { url: string; position: number }[] }).web;
    expect(web).toHaveLength(22);
    const urls = web.map((r) => r.url);
    expect(new Set(urls).size).toBe(22);
    // Pages 1 and 2 give 10 + 8 new pages (two repeats), page 3 the rest.
    expect(urls.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => searxngWebUrl('many', i + 1)));
    expect(urls).not.toContain(`${searxngWebUrl('many', 3)}#section`);
    expect(urls[10]).toBe(searxngWebUrl('many', 13));
    expect(web.map((r) => r.position)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(searxng.requests.map((r) => r.params.pageno)).toEqual(['1', '2', '3']);
  });

  it('answers news and images under their own keys, mapped field by field', async () => {
    const res = await postSearch({ query: 'solar eclipse', sources: ['news', { type: 'images' }], limit: 2 });
    expect(res.status).toBe(200);
    const data = res.json.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(['images', 'news']);
    expect(data.news).toEqual([
      { title: 'News 1: solar eclipse', url: 'https://news1.example.net/solar-eclipse', snippet: 'News snippet 1.', date: '2024-05-01T10:00:00', imageUrl: 'https://img.example.net/news-1.jpg', position: 1 },
      { title: 'News 2: solar eclipse', url: 'https://news2.example.net/solar-eclipse', snippet: 'News snippet 2.', date: '2024-05-02T10:00:00', imageUrl: 'https://img.example.net/news-2.jpg', position: 2 },
    ]);
    expect(data.images).toEqual([
      { title: 'Image 1 of solar eclipse', imageUrl: 'https://cdn.example.com/solar-eclipse-1.jpg', imageWidth: 801, imageHeight: 601, url: 'https://photos.example.com/solar-eclipse/1', position: 1 },
      { title: 'Image 2 of solar eclipse', imageUrl: 'https://cdn.example.com/solar-eclipse-2.jpg', imageWidth: 802, imageHeight: 602, url: 'https://photos.example.com/solar-eclipse/2', position: 2 },
    ]);
    expect(searxng.requests.map((r) => r.params.categories).sort()).toEqual(['images', 'news']);
  });

  it.each([
    ['qdr:d', 'day', undefined],
    ['qdr:w', 'week', undefined],
    ['qdr:m', 'month', undefined],
    ['qdr:y', 'year', undefined],
    ['qdr:h', 'day', 'SearXNG has no range of 1 hour(s); the past day was searched.'],
    ['qdr:d3', 'week', 'SearXNG has no range of 3 day(s); the past week was searched.'],
  ])('tbs %s → time_range=%s', async (tbs, range, warning) => {
    const res = await postSearch({ query: 'recent', tbs, limit: 1 });
    expect(res.status).toBe(200);
    expect(searxng.requests[0]?.params.time_range).toBe(range);
    expect(res.json.warning).toBe(warning);
  });

  it('a custom date range is not sent (SearXNG has none) and says so', async () => {
    const res = await postSearch({ query: 'range', tbs: 'cdr:1,cd_min:1/1/2024,cd_max:12/31/2024', limit: 1 });
    expect(res.status).toBe(200);
    expect(searxng.requests[0]?.params.time_range).toBeUndefined();
    expect(String(res.json.warning)).toContain('SearXNG has no custom date range');
  });

  it('location → language (with the region), lang overrides it, country alone works', async () => {
    await postSearch({ query: 'a', location: 'Munich,Bavaria,Germany', limit: 1 });
    await postSearch({ query: 'b', location: 'Germany', lang: 'en', limit: 1 });
    await postSearch({ query: 'c', country: 'fr', limit: 1 });
    expect(searxng.requests.map((r) => r.params.language)).toEqual(['de-DE', 'en-DE', 'fr-FR']);
    const res = await postSearch({ query: 'd', location: 'Atlantis', limit: 1 });
    expect(res.status).toBe(200);
    expect(searxng.requests.at(-1)?.params.language).toBeUndefined();
    expect(String(res.json.warning)).toContain("location 'Atlantis' names no country");
  });

  it('categories and domains become operators; domains are enforced on the hits too', async () => {
    const res = await postSearch({ query: 'parser', categories: ['github', { type: 'pdf' }], limit: 1 });
    expect(res.status).toBe(200);
    expect(searxng.requests[0]?.params.q).toBe('parser (site:github.com OR filetype:pdf)');

    searxng.requests.length = 0;
    const only = await postSearch({ query: 'parser', includeDomains: ['site2.example.org', 'site4.example.org'], limit: 10 });
    expect(searxng.requests[0]?.params.q).toBe('parser (site:site2.example.org OR site:site4.example.org)');
    const urls = (only.json.data as { web: { url: string }[] }).web.map((r) => r.url);
    expect(urls).toEqual([searxngWebUrl('parser', 2), searxngWebUrl('parser', 4)]);

    const without = await postSearch({ query: 'parser', excludeDomains: ['site1.example.org'], limit: 3 });
    expect(searxng.requests.at(-1)?.params.q).toBe('parser -site:site1.example.org');
    expect((without.json.data as { web: { url: string }[] }).web.map((r) => r.url)).toEqual([2, 3, 4].map((n) => searxngWebUrl('parser', n)));
  });

  it('labels web results with the category they match', async () => {
    const res = await postSearch({ query: 'mixed', categories: ['github', 'research', 'pdf'], limit: 10 });
    const web = (res.json.data as { web: { url: string; category?: string }[] }).web;
    expect(web.map((r) => [r.url, r.category])).toEqual([
      ['https://github.com/folio/folio', 'github'],
      ['http://localhost:8080/admin', undefined],
      ['https://10.0.0.5/internal', undefined],
      ['https://user:secret@example.com/private', undefined],
      ['https://papers.example.com/paper.pdf', 'pdf'],
      ['https://arxiv.org/abs/2401.00001', 'research'],
      ['https://intranet/home', undefined],
      ['https://[::1]/x', undefined],
    ]);
  });

  it('ignoreInvalidURLs drops what scrape would refuse; without it everything stays', async () => {
    const kept = await postSearch({ query: 'mixed', limit: 10 });
    expect((kept.json.data as { web: { url: string }[] }).web.map((r) => r.url)).toEqual(MIXED_URLS);
    const res = await postSearch({ query: 'mixed', limit: 10, ignoreInvalidURLs: true });
    expect((res.json.data as { web: { url: string }[] }).web.map((r) => r.url)).toEqual([
      'https://github.com/folio/folio',
      'https://papers.example.com/paper.pdf',
      'https://arxiv.org/abs/2401.00001',
    ]);
  });

  it('SearXNG without the json format → 502 FETCH_FAILED saying how to enable it', async () => {
    searxng.mode = 'forbidden';
    const res = await postSearch({ query: 'x' });
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      success: false,
      code: 'FETCH_FAILED',
      error: 'Search backend SearXNG answered HTTP 403: enable the JSON API by adding `json` to `search.formats` in its settings.yml.',
    });
  });

  it('a 5xx or a non-JSON answer → 502 FETCH_FAILED naming SearXNG, not its URL', async () => {
    searxng.mode = 'error';
    const failed = await postSearch({ query: 'x' });
    expect(failed.status).toBe(502);
    expect(failed.json.error).toBe('Search backend SearXNG answered HTTP 500.');
    searxng.mode = 'html';
    const html = await postSearch({ query: 'x' });
    expect(html.status).toBe(502);
    expect(html.json.error).toBe('Search backend SearXNG answered with something that is not JSON.');
    expect(failed.text + html.text).not.toContain(searxng.url);
  });

  it('a SearXNG that never answers is given up at the search timeout: 408', async () => {
    searxng.mode = 'slow';
    const started = Date.now();
    const res = await postSearch({ query: 'x', timeout: 400 });
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('SCRAPE_TIMEOUT');
    expect(res.json.error).toContain('timeout of 400 ms');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
