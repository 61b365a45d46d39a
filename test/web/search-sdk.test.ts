/**
 * The official Firecrawl JS SDK's `search()` against folio (SearXNG fake behind it): the SDK
 * returns `data` unwrapped, grouped by source, with the same result objects; its errors carry
 * folio's status and code.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { searxngWebUrl, startFakeSearxng, type FakeServer } from './fake-searxng.ts';

let searxng: FakeServer;
let service: TestService;
let unconfigured: TestService;

beforeAll(async () => {
  searxng = await startFakeSearxng();
  service = await startTestService({ runner: inProcessRunner() }, { SEARXNG_ENDPOINT: searxng.url });
  unconfigured = await startTestService({ runner: inProcessRunner() });
});
afterAll(async () => {
  await service.stop();
  await unconfigured.stop();
  await searxng.close();
});

describe('Firecrawl SDK search() against folio', () => {
  it('returns web, news and images grouped by source', async () => {
    const client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
    const result = await client.search('open data', { limit: 3, sources: ['web', 'news', 'images'], tbs: 'qdr:w' });
    expect(result.web?.map((r) => ('url' in r ? r.url : undefined))).toEqual([1, 2, 3].map((n) => searxngWebUrl('open data', n)));
    expect(result.web?.[0]).toEqual({ url: searxngWebUrl('open data', 1), title: 'Result 1 about open data', description: 'Snippet 1 & more about open data.', position: 1 });
    expect(result.news?.[2]).toMatchObject({ title: 'News 3: open data', snippet: 'News snippet 3.', position: 3 });
    expect(result.images?.[1]).toMatchObject({ imageUrl: 'https://cdn.example.com/open-data-2.jpg', imageWidth: 802, imageHeight: 602, position: 2 });
    expect(result.warning).toBeUndefined();
    expect(searxng.requests.every((r) => r.params.time_range === 'week')).toBe(true);
  });

  it('what firecrawl-mcp sends with a key (toolDetail, sources with alexandria, domainTools) → results and a warning', async () => {
    const client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
    // firecrawl-mcp 3.26's firecrawl_search with a key: sources web + alexandria, domainTools and
    // toolDetail "compact" defaulted, its origin; plus fields the SDK passes through.
    const result = await client.search('open data', {
      limit: 2,
      sources: ['web', 'alexandria'],
      domainTools: true,
      toolDetail: 'compact',
      highlights: true,
      enterprise: ['default'],
      origin: 'mcp-fastmcp@3.26.0',
    });
    expect(result.web?.map((r) => ('url' in r ? r.url : undefined))).toEqual([1, 2].map((n) => searxngWebUrl('open data', n)));
    expect(result.warning).toContain('No Alexandria tools were searched (`sources: alexandria`, `domainTools`)');
    // firecrawl-mcp's keyless call: toolDetail only, web only → no warning at all.
    const keyless = await client.search('open data', { limit: 1, sources: ['web'], toolDetail: 'compact', domainTools: false });
    expect(keyless.web).toHaveLength(1);
    expect(keyless.warning).toBeUndefined();
  });

  it('a search with nothing configured surfaces as an SdkError with 503 NOT_CONFIGURED', async () => {
    const client = new Firecrawl({ apiKey: unconfigured.key, apiUrl: unconfigured.url });
    const failure = await client.search('x').then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(503);
    expect((failure as SdkError).code).toBe('NOT_CONFIGURED');
    expect((failure as SdkError).message).toContain('SEARXNG_ENDPOINT');
  });

  it('an invalid option surfaces as a 400 naming it', async () => {
    const client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
    const failure = await client.search('x', { tbs: 'last week' }).then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(400);
    expect((failure as SdkError).message).toContain('`tbs`');
  });
});
