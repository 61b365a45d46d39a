/**
 * Which backend answers: SearXNG first when both are configured, Brave Search when SearXNG
 * fails, a 502 naming both when both fail, 503 NOT_CONFIGURED with neither; and the request
 * validation every search goes through (400 naming the field, API key required).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { refusedPort } from '../helpers/refused-port.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { BRAVE_TEST_KEY, braveWebUrl, startFakeBrave } from './fake-brave.ts';
import { searxngWebUrl, startFakeSearxng, type FakeServer } from './fake-searxng.ts';

let searxng: FakeServer;
let brave: FakeServer;
let both: TestService;
let none: TestService;

function postSearch(target: TestService, body: unknown, headers: Record<string, string> = {}) {
  return request(`${target.url}/v2/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json', ...headers },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });
}

beforeAll(async () => {
  [searxng, brave] = await Promise.all([startFakeSearxng(), startFakeBrave()]);
  both = await startTestService(
    { runner: inProcessRunner() },
    { SEARXNG_ENDPOINT: searxng.url, BRAVE_API_KEY: BRAVE_TEST_KEY, BRAVE_SEARCH_URL: `${brave.url}/res/v1` },
  );
  none = await startTestService({ runner: inProcessRunner() });
});
afterAll(async () => {
  await both.stop();
  await none.stop();
  await searxng.close();
  await brave.close();
});
beforeEach(() => {
  searxng.requests.length = 0;
  brave.requests.length = 0;
  searxng.mode = 'ok';
  brave.mode = 'ok';
});

describe('backend order', () => {
  it('SearXNG answers when both are configured; Brave is not asked', async () => {
    const res = await postSearch(both, { query: 'order', limit: 2 });
    expect(res.status).toBe(200);
    expect((res.json.data as { web: { url: string }[] }).web.map((r) => r.url)).toEqual([searxngWebUrl('order', 1), searxngWebUrl('order', 2)]);
    expect(searxng.requests).toHaveLength(1);
    expect(brave.requests).toHaveLength(0);
  });

  it('Brave answers when SearXNG fails', async () => {
    searxng.mode = 'error';
    const res = await postSearch(both, { query: 'order', limit: 2 });
    expect(res.status).toBe(200);
    expect((res.json.data as { web: { url: string }[] }).web.map((r) => r.url)).toEqual([braveWebUrl('order', 1), braveWebUrl('order', 2)]);
    expect(searxng.requests).toHaveLength(1);
    expect(brave.requests).toHaveLength(1);
  });

  it('both failing → 502 FETCH_FAILED naming each backend', async () => {
    searxng.mode = 'error';
    brave.mode = 'error';
    const res = await postSearch(both, { query: 'order' });
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      success: false,
      code: 'FETCH_FAILED',
      error: 'Every search backend failed. Search backend SearXNG answered HTTP 500. Search backend Brave Search answered HTTP 503.',
    });
  });

  it('an unreachable backend is named, its address is not', async () => {
    const url = `http://127.0.0.1:${await refusedPort()}`;
    const down = await startTestService({ runner: inProcessRunner() }, { SEARXNG_ENDPOINT: url });
    try {
      const res = await postSearch(down, { query: 'x' });
      expect(res.status).toBe(502);
      expect(res.json).toEqual({ success: false, code: 'FETCH_FAILED', error: 'Search backend SearXNG could not be reached (ECONNREFUSED).' });
    } finally {
      await down.stop();
    }
  });

  it('no backend configured → 503 NOT_CONFIGURED saying what to set', async () => {
    const res = await postSearch(none, { query: 'x' });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({
      success: false,
      code: 'NOT_CONFIGURED',
      error: 'Search is not configured on this server: set SEARXNG_ENDPOINT (a SearXNG instance with the json format enabled) or BRAVE_API_KEY.',
    });
  });
});

describe('request validation', () => {
  it.each([
    [{}, '`query`: `query` is required: the words to search for'],
    [{ query: '   ' }, '`query`: must not be empty'],
    [{ query: 'x', limit: 0 }, '`limit`: Too small: expected number to be >=1'],
    [{ query: 'x', limit: 101 }, '`limit`: Too big: expected number to be <=100'],
    [{ query: 'x', sources: [{ kind: 'web' }] }, '`sources[0].type`: each source needs a string `type`'],
    [{ query: 'x', toolDetail: 'everything' }, '`toolDetail`: Invalid option: expected one of "compact"|"summary"|"full"'],
    [{ query: 'x', tbs: 'qdr:x' }, "`tbs`: 'qdr:x' is not a time range; use qdr:h, qdr:d, qdr:w, qdr:m, qdr:y or cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY"],
    [{ query: 'x', tbs: 'cdr:1,cd_min:13/45/2024' }, "`tbs`: 'cd_min:13/45/2024' is not a date; cd_min takes MM/DD/YYYY"],
    [{ query: 'x', country: 'Germany' }, '`country`: must be an ISO 3166-1 alpha-2 code such as US or DE'],
    [{ query: 'x', timeout: 300_001 }, '`timeout`: Too big: expected number to be <=300000'],
    [{ query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] }, '`excludeDomains`: cannot be combined with `includeDomains`; give one of them'],
  ])('%j → 400 naming the field', async (body, message) => {
    const res = await postSearch(none, body);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, code: 'BAD_REQUEST', error: `Invalid search request: ${message}` });
  });

  it('sources, categories and fields folio does not have are skipped or ignored with a warning, not refused', async () => {
    const res = await postSearch(both, {
      query: 'tolerant',
      limit: 2,
      sources: ['web', 'videos', { type: 'alexandria' }],
      categories: ['developer', 'github'],
      pageSize: 3,
      toolDetail: 'compact',
      domainTools: true,
      enterprise: ['zdr'],
      __searchPreviewToken: 'x',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json.data as object)).toEqual(['web']);
    expect(res.json.warning).toBe(
      "No Alexandria tools were searched (`sources: alexandria`, `domainTools`): Alexandria is Firecrawl's hosted catalogue of data providers, which folio does not have, so the answer has no `tools`. " +
        "Skipped source 'videos': folio searches 'web', 'news', 'images'. " +
        "Skipped category 'developer': folio knows 'github', 'research', 'pdf'; the results are not narrowed by it. " +
        'Ignored field `pageSize`: folio does not know it (check the spelling; the accepted fields are listed in docs/web.md, "Compatibility").',
    );
    expect(searxng.requests[0]?.params.q).toBe('tolerant site:github.com');
  });

  it('only sources folio cannot serve → 200 with no results and the warning', async () => {
    const res = await postSearch(both, { query: 'tools only', sources: ['alexandria'] });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({});
    expect(String(res.json.warning)).toContain('No Alexandria tools were searched (`sources: alexandria`)');
    expect(searxng.requests).toHaveLength(0);
  });

  it('scrapeOptions are validated as scrape validates them', async () => {
    const bad = await postSearch(none, { query: 'x', scrapeOptions: { formats: ['markdown'], timeout: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, code: 'BAD_REQUEST', error: 'Invalid `scrapeOptions`: `timeout`: Too small: expected number to be >=1' });
    const unbuilt = await postSearch(none, { query: 'x', scrapeOptions: { formats: ['branding'] } });
    expect(unbuilt.status).toBe(400);
    expect(unbuilt.json.code).toBe('NOT_YET_SUPPORTED');
    expect(String(unbuilt.json.error)).toContain("'branding'");
  });

  it('a body that is not JSON, or not an object, is a 400', async () => {
    const broken = await postSearch(none, '{"query": ');
    expect(broken.status).toBe(400);
    expect(broken.json).toEqual({ success: false, code: 'BAD_REQUEST', error: 'The request body is not valid JSON.' });
    const list = await postSearch(none, '["x"]');
    expect(list.status).toBe(400);
    expect(list.json.error).toBe('Invalid search request: the body must be a JSON object with at least `query`.');
    const form = await postSearch(none, 'query=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(400);
    expect(String(form.json.error)).toContain('Content-Type: application/json');
  });

  it('needs an API key', async () => {
    const res = await request(`${none.url}/v2/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"query":"x"}'),
    });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('UNAUTHORIZED');
  });
});
