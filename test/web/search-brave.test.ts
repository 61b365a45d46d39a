/**
 * POST /v2/search with only BRAVE_API_KEY set, BRAVE_SEARCH_URL pointing at a fake Brave Search
 * API that speaks its real JSON: the token travels in `X-Subscription-Token` only, web/news/images
 * map to Firecrawl's shapes, tbs → freshness, location → country/search_lang, paging by offset,
 * and a refused token is a 502 that names BRAVE_API_KEY but never carries the key.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { BRAVE_TEST_KEY, braveWebUrl, startFakeBrave } from './fake-brave.ts';
import type { FakeServer } from './fake-searxng.ts';

let brave: FakeServer;
let service: TestService;
let wrongKey: TestService;

function postSearch(target: TestService, body: unknown) {
  return request(`${target.url}/v2/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
}

beforeAll(async () => {
  brave = await startFakeBrave();
  const base = `${brave.url}/res/v1`;
  service = await startTestService({ runner: inProcessRunner() }, { BRAVE_API_KEY: BRAVE_TEST_KEY, BRAVE_SEARCH_URL: base });
  wrongKey = await startTestService({ runner: inProcessRunner() }, { BRAVE_API_KEY: 'BSA-not-the-right-token-000', BRAVE_SEARCH_URL: base });
});
afterAll(async () => {
  await service.stop();
  await wrongKey.stop();
  await brave.close();
});
beforeEach(() => {
  brave.requests.length = 0;
  brave.mode = 'ok';
});

describe('search over Brave Search', () => {
  it('maps web results (marks and entities stripped) and sends the token as a header only', async () => {
    const res = await postSearch(service, { query: 'rust parsers', limit: 3 });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      web: [1, 2, 3].map((n) => ({
        url: braveWebUrl('rust parsers', n),
        title: `Brave rust parsers ${n}`,
        description: `Description ${n} for rust parsers 'quoted'`,
        position: n,
      })),
    });
    expect(brave.requests).toHaveLength(1);
    const sent = brave.requests[0];
    expect(sent?.path).toBe('/res/v1/web/search');
    expect(sent?.headers['x-subscription-token']).toBe(BRAVE_TEST_KEY);
    // limit + 5 spare hits, so that dropped duplicates still leave `limit`.
    expect(sent?.params).toEqual({ q: 'rust parsers', count: '8', offset: '0', result_filter: 'web' });
  });

  it('pages with offset for a limit above 20 and stops at the last result', async () => {
    const res = await postSearch(service, { query: 'deep', limit: 100 });
    expect(res.status).toBe(200);
    const web = (res.json.data as { web: { url: string; position: number }[] }).web;
    expect(web).toHaveLength(45);
    expect(web[44]).toMatchObject({ url: braveWebUrl('deep', 45), position: 45 });
    expect(brave.requests.map((r) => [r.params.count, r.params.offset])).toEqual([
      ['20', '0'],
      ['20', '1'],
      ['20', '2'],
    ]);
  });

  it('maps news and images', async () => {
    const res = await postSearch(service, { query: 'storm', sources: ['news', 'images'], limit: 1 });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      news: [{ title: 'Brave news 1', url: 'https://bravenews1.example.com/storm', snippet: 'News storm 1', date: '2024-06-01T08:00:00', imageUrl: 'https://imgs.search.brave.com/news-1.jpg', position: 1 }],
      images: [{ title: 'Brave image 1', imageUrl: 'https://bravephotos.example.com/full-1.png', imageWidth: 1601, imageHeight: 1201, url: 'https://bravephotos.example.com/storm/1', position: 1 }],
    });
    expect(brave.requests.map((r) => r.path).sort()).toEqual(['/res/v1/images/search', '/res/v1/news/search']);
  });

  it('tbs → freshness; a custom range is sent as Brave’s date range', async () => {
    await postSearch(service, { query: 'a', tbs: 'qdr:w', limit: 1 });
    await postSearch(service, { query: 'b', tbs: 'cdr:1,cd_min:2/1/2024,cd_max:2/29/2024', limit: 1 });
    await postSearch(service, { query: 'c', tbs: 'qdr:d2', limit: 1 });
    const [week, range, twoDays] = brave.requests.map((r) => r.params.freshness);
    expect(week).toBe('pw');
    expect(range).toBe('2024-02-01to2024-02-29');
    expect(twoDays).toMatch(/^\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2}$/);
    const [from, to] = (twoDays ?? '').split('to') as [string, string];
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(2);
  });

  it('location → country and search_lang', async () => {
    await postSearch(service, { query: 'a', location: 'Lyon,France', limit: 1 });
    expect(brave.requests[0]?.params).toMatchObject({ country: 'FR', search_lang: 'fr' });
  });

  it('a refused token → 502 FETCH_FAILED naming BRAVE_API_KEY, the key nowhere', async () => {
    const res = await postSearch(wrongKey, { query: 'x' });
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      success: false,
      code: 'FETCH_FAILED',
      error: 'Search backend Brave Search answered HTTP 401: the subscription token was refused; check BRAVE_API_KEY.',
    });
    expect(wrongKey.logText()).not.toContain('BSA-not-the-right-token-000');
    expect(wrongKey.logText()).toContain('FETCH_FAILED');
  });
});
