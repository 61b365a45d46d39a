/**
 * Request tolerance as Firecrawl's clients need it, over HTTP against a started service with the
 * real Firecrawl SDK: the fields the SDK and firecrawl-mcp 3.26 send to scrape, map and crawl are
 * accepted (ignored where folio does not act on them, with a warning where that changes the
 * result); unknown fields are ignored and named in `warning`; the objects the spec keeps strict
 * (parser objects, RedactPIIOptions, AuditMetadata) still refuse extra keys.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite({ pages: 3 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

function post(path: string, body: unknown) {
  return request(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
}

describe('scrape tolerance', () => {
  it("firecrawl-mcp's scrape body (maxAge, storeInCache, zeroDataRetention, proxy auto, toolDetail, origin) → 200 without a warning", async () => {
    const doc = await client.scrape(`${site.url}/about.html`, {
      formats: ['markdown'],
      maxAge: 0,
      storeInCache: false,
      lockdown: false,
      proxy: 'auto',
      toolDetail: 'compact',
      origin: 'mcp-fastmcp@3.26.0',
      fastMode: false,
      blockAds: true,
    });
    expect(doc.markdown).toContain('A site that exists only for tests.');
    expect(doc.warning).toBeUndefined();
  });

  it('profile, threatProtection and domainTools are accepted with a warning; an unknown field is named', async () => {
    const res = await post('/v2/scrape', {
      url: `${site.url}/about.html`,
      profile: { name: 'work', saveChanges: false },
      threatProtection: { mode: 'off' },
      domainTools: true,
      onlyMainContnet: false,
      __experimental_omce: true,
    });
    expect(res.status).toBe(200);
    const warning = String((res.json.data as { warning?: string }).warning);
    expect(warning).toContain('`profile` was ignored');
    expect(warning).toContain('`threatProtection` was ignored');
    expect(warning).toContain('`domainTools` was ignored');
    expect(warning).toContain('Ignored field `onlyMainContnet`: folio does not know it');
    expect(warning).not.toContain('__experimental');
  });

  it('an alexandria body (SDK scrapeAlexandria, firecrawl-mcp alexandria mode) is a clear 400', async () => {
    const res = await post('/v2/scrape', { alexandria: [{ provider: 'fred', capability: 'series/observations' }], origin: 'js-sdk@4.42.0' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('BAD_REQUEST');
    expect(String(res.json.error)).toContain("Firecrawl's hosted data-provider catalogue");
  });

  it.each([
    ['a parser object', { parsers: [{ type: 'pdf', pages: true }] }, '`parsers[0]`'],
    ['RedactPIIOptions', { redactPII: { mode: 'fast', style: 'mask' } }, '`redactPII'],
    ['AuditMetadata', { auditMetadata: { username: 'me', team: 'x' } }, '`auditMetadata`'],
  ])('%s still refuses extra keys (the spec: no extra properties)', async (_what, options, field) => {
    const res = await post('/v2/scrape', { url: `${site.url}/about.html`, ...options });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('BAD_REQUEST');
    expect(String(res.json.error)).toContain(field);
  });
});

describe('map and crawl tolerance', () => {
  it('map takes the SDK map options (location, threatProtection, auditMetadata, integration) and names an unknown field', async () => {
    const map = await client.map(`${site.url}/`, { sitemap: 'skip', location: { country: 'US' }, threatProtection: { mode: 'off' }, auditMetadata: { username: 'me' }, integration: 'test' });
    expect(map.links.map((l) => l.url)).toContain(`${site.url}/about.html`);
    const res = await post('/v2/map', { url: `${site.url}/`, sitemap: 'skip', useIndex: true, ignoreCache: true, filterByPath: true, seach: 'about' });
    expect(res.status).toBe(200);
    expect(res.json.warning).toBe('Ignored field `seach`: folio does not know it (check the spelling; the accepted fields are listed in docs/web.md, "Compatibility").');
  });

  it("crawl takes firecrawl-mcp's crawl body (deduplicateSimilarURLs, robotsUserAgent, origin) and names unknown fields", async () => {
    const res = await post('/v2/crawl', {
      url: `${site.url}/about.html`,
      limit: 1,
      sitemap: 'skip',
      deduplicateSimilarURLs: true,
      ignoreQueryParameters: true,
      robotsUserAgent: 'FirecrawlAgent',
      origin: 'mcp-fastmcp@3.26.0',
      integration: 'x',
      pollInterval: 2,
      scrapeOptions: { formats: ['markdown'], maxAge: 0, storeInCache: false, waitFr: 1 },
    });
    expect(res.status).toBe(200);
    expect(typeof res.json.id).toBe('string');
    expect(String(res.json.warning)).toContain('Ignored fields `pollInterval`, `scrapeOptions.waitFr`');
    const done = await client.getCrawlStatus(String(res.json.id));
    expect(['scraping', 'completed']).toContain(done.status);
  });
});

describe('language of small pages', () => {
  it('a small page without lang gets its language from the text where the text allows, else null', async () => {
    const small = await client.parse({ data: Buffer.from('<html><body><h1>About us</h1><p>A site that exists only for tests.</p></body></html>'), filename: 'about.html' });
    expect(small.metadata?.language).toBe('en');
    const tiny = await client.parse({ data: Buffer.from('<html><body><p>Hello world</p></body></html>'), filename: 'hello.html' });
    expect(tiny.metadata?.language).toBeNull();
  });
});
