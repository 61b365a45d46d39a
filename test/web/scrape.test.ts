/**
 * POST /v2/scrape against a started folio (worker pool, SQLite, API key) and the local test
 * site, with FOLIO_FETCH_ALLOW naming only that site: through the official Firecrawl SDK
 * (markdown, html, links, metadata, a PDF and a DOCX URL, redirects, upstream 404) and over raw
 * HTTP for the error answers (blocked, too large, too slow, unsupported type and features).
 * The browser engine is off here (FOLIO_BROWSER=off: what a server without Chromium answers);
 * test/browser/ covers rendering.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite();
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_BROWSER: 'off' });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service?.stop();
  await site?.close();
});

function postScrape(body: unknown, key = service.key, timeoutMs = 20_000): Promise<RawResponse> {
  return request(`${service.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    timeoutMs,
  });
}

describe('Firecrawl SDK scrape() against folio', () => {
  it('scrapes a page to markdown, html and absolute links, with the page metadata', async () => {
    const doc = await client.scrape(`${site.url}/article.html`, { formats: ['markdown', 'html', 'links'] });
    expect(doc.markdown).toContain('# Tidal Energy in Small Harbours');
    expect(doc.markdown).toContain('Small harbours see two tides a day');
    expect(doc.markdown).toMatch(/\|\s*Aberdyfi\s*\|\s*120\s*\|/);
    // onlyMainContent (default true) drops the nav and the footer.
    expect(doc.markdown).not.toContain('Copyright Folio Test Site');
    expect(doc.html).toContain(`href="${site.url}/docs/report.docx"`);
    expect(doc.html).not.toContain('<script');
    expect(doc.links).toEqual(expect.arrayContaining([`${site.url}/docs/paper.pdf`, `${site.url}/docs/report.docx`, 'https://example.org/tides']));
    expect(doc.metadata?.title).toBe('Tidal Energy in Small Harbours');
    expect(doc.metadata?.description).toBe('How small harbours can generate power from the tide.');
    expect(doc.metadata?.sourceURL).toBe(`${site.url}/article.html`);
    expect(doc.metadata?.url).toBe(`${site.url}/article.html`);
    expect(doc.metadata?.statusCode).toBe(200);
    expect(doc.metadata?.contentType).toBe('text/html; charset=utf-8');
    expect(doc.metadata?.error).toBeUndefined();
  });

  it('keeps the requested URL as sourceURL and reports the final URL after redirects', async () => {
    const doc = await client.scrape(`${site.url}/redirect-chain/2`, { formats: ['markdown'] });
    expect(doc.metadata?.sourceURL).toBe(`${site.url}/redirect-chain/2`);
    expect(doc.metadata?.url).toBe(`${site.url}/article.html`);
    expect(doc.markdown).toContain('Tidal Energy in Small Harbours');
  });

  it('parses a PDF URL like an uploaded PDF', async () => {
    const doc = await client.scrape(`${site.url}/docs/paper.pdf`, { formats: ['markdown'] });
    expect(doc.markdown).toContain('Chapter 1');
    expect(doc.metadata?.numPages).toBe(3);
    expect(doc.metadata?.contentType).toBe('application/pdf');
    expect(doc.metadata?.sourceURL).toBe(`${site.url}/docs/paper.pdf`);
  });

  it('tells a PDF by its bytes when the URL has no extension and the type is octet-stream', async () => {
    const doc = await client.scrape(`${site.url}/download/octet`, { formats: ['markdown'] });
    expect(doc.metadata?.numPages).toBe(3);
    expect(doc.markdown).toContain('Chapter 1');
  });

  it('parses a DOCX URL with its headings and tables', async () => {
    const doc = await client.scrape(`${site.url}/docs/report.docx`, { formats: ['markdown'] });
    expect(doc.markdown).toContain('# Comprehensive Extraction Test Document');
    expect(doc.markdown).toMatch(/\|\s*Orange\s*\|\s*\$0\.75\s*\|\s*15\s*\|/);
  });

  it('answers an upstream 404 with the page, statusCode 404 and metadata.error', async () => {
    const doc = await client.scrape(`${site.url}/missing`, { formats: ['markdown'] });
    expect(doc.metadata?.statusCode).toBe(404);
    expect(doc.metadata?.error).toContain('404 Not Found');
    expect(doc.markdown).toContain('There is no page here.');
  });

  it('surfaces a blocked URL as an SdkError with 403 URL_BLOCKED', async () => {
    const failure = await client.scrape('http://169.254.169.254/latest/meta-data/').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(403);
    expect((failure as SdkError).code).toBe('URL_BLOCKED');
    expect((failure as SdkError).message).toContain('169.254.169.254');
  });
});

describe('POST /v2/scrape', () => {
  it('needs an API key', async () => {
    const res = await request(`${service.url}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ url: site.url })) });
    expect(res.status).toBe(401);
  });

  it('answers {success: true, data} with the options applied (onlyMainContent false, includeTags, rawHtml)', async () => {
    const full = await postScrape({ url: `${site.url}/article.html`, onlyMainContent: false, formats: ['markdown', 'rawHtml'] });
    expect(full.status).toBe(200);
    expect(full.json.success).toBe(true);
    const data = full.json.data as { markdown: string; rawHtml: string };
    expect(data.markdown).toContain('Copyright Folio Test Site');
    expect(data.rawHtml).toContain('<script>window.tracking = 1;</script>');
    const table = await postScrape({ url: `${site.url}/article.html`, includeTags: ['table'] });
    const md = (table.json.data as { markdown: string }).markdown;
    expect(md).toContain('Porthleven');
    expect(md).not.toContain('Small harbours see two tides');
  });

  it('refuses every blocked form and redirect with 403 URL_BLOCKED in the spec’s error shape', async () => {
    for (const url of ['http://localhost/', 'http://[::1]/', 'http://10.0.0.1/', `http://127.0.0.1:${site.port + 1}/`, 'file:///etc/passwd', `${site.url}/redirect-to?url=${encodeURIComponent('http://192.168.0.1/')}`]) {
      const res = await postScrape({ url });
      expect(res.status, url).toBe(403);
      expect(res.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect(String(res.json.error)).toContain('Refused to fetch');
    }
  });

  it('refuses a huge response with FILE_TOO_LARGE and a slow one with SCRAPE_TIMEOUT', async () => {
    const huge = await postScrape({ url: `${site.url}/huge` });
    expect(huge.status).toBe(400);
    expect(huge.json.code).toBe('FILE_TOO_LARGE');
    const started = Date.now();
    const slow = await postScrape({ url: `${site.url}/slow?ms=10000`, timeout: 800 });
    expect(slow.status).toBe(408);
    expect(slow.json.code).toBe('SCRAPE_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses content types parse cannot read with UNSUPPORTED_FILE_TYPE naming the type', async () => {
    const png = await postScrape({ url: `${site.url}/image.png` });
    expect(png.status).toBe(400);
    expect(png.json.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(String(png.json.error)).toContain("'image/png'");
    const txt = await postScrape({ url: `${site.url}/notes.txt` });
    expect(txt.json.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(String(txt.json.error)).toContain("'text/plain'");
  });

  it('answers screenshots and actions with NOT_CONFIGURED when the browser is off, other unbuilt features with NOT_YET_SUPPORTED, bad bodies with BAD_REQUEST', async () => {
    const shot = await postScrape({ url: site.url, formats: ['markdown', { type: 'screenshot', fullPage: true }] });
    expect(shot.status).toBe(503);
    expect(shot.json.code).toBe('NOT_CONFIGURED');
    expect(String(shot.json.error)).toContain('FOLIO_BROWSER=off');
    const actions = await postScrape({ url: site.url, actions: [{ type: 'click', selector: '#go' }] });
    expect(actions.json.code).toBe('NOT_CONFIGURED');
    expect(String(actions.json.error)).toContain('`actions`');
    const branding = await postScrape({ url: site.url, formats: ['branding'] });
    expect(branding.status).toBe(400);
    expect(branding.json.code).toBe('NOT_YET_SUPPORTED');
    const stealth = await postScrape({ url: site.url, proxy: 'stealth' });
    expect(stealth.json.code).toBe('NOT_YET_SUPPORTED');

    const missing = await postScrape({ formats: ['markdown'] });
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('BAD_REQUEST');
    expect(String(missing.json.error)).toContain('`url`');
    const unknown = await postScrape({ url: site.url, formats: ['pictures'] });
    expect(unknown.json.code).toBe('BAD_REQUEST');
    expect(String(unknown.json.error)).toContain("'pictures' is not a scrape format");
    const badTimeout = await postScrape({ url: site.url, timeout: 999_999 });
    expect(String(badTimeout.json.error)).toContain('`timeout`');
    const notJson = await postScrape('{"url": ');
    expect(notJson.status).toBe(400);
    expect(notJson.json.code).toBe('BAD_REQUEST');
    const notUrl = await postScrape({ url: 'not a url' });
    expect(notUrl.status).toBe(400);
    expect(String(notUrl.json.error)).toContain('not a valid absolute URL');
  });

  it('warns about browser-only fields it ignores and about JavaScript app shells', async () => {
    const res = await postScrape({ url: `${site.url}/article.html`, waitFor: 2000, mobile: true, maxAge: 0, storeInCache: false, location: { country: 'DE', languages: ['de-DE', 'en'] } });
    expect(res.status).toBe(200);
    const warning = String((res.json.data as { warning?: string }).warning);
    expect(warning).toContain('`waitFor`');
    expect(warning).toContain('`mobile`');
    expect(warning).toContain('`location.country`');
    expect(site.requestHeaders.at(-1)?.['accept-language']).toBe('de-DE, en;q=0.9');

    const shell = await postScrape({ url: `${site.url}/app-shell` });
    expect(shell.status).toBe(200);
    expect(String((shell.json.data as { warning?: string }).warning)).toContain('JavaScript application shell');
    const plain = await postScrape({ url: `${site.url}/about.html` });
    expect((plain.json.data as { warning?: string }).warning).toBeUndefined();
  });

  it('sends the request’s headers upstream and never logs them', async () => {
    const res = await postScrape({ url: `${site.url}/echo-headers`, headers: { 'x-api-token': 'upstream-token-XYZ123', cookie: 'session=abc987' } });
    expect(res.status).toBe(200);
    expect((res.json.data as { markdown: string }).markdown).toContain('x-api-token: upstream-token-XYZ123');
    expect(site.requestHeaders.at(-1)?.cookie).toBe('session=abc987');
    expect(service.logText()).not.toContain('upstream-token-XYZ123');
    expect(service.logText()).not.toContain('abc987');
  });
});
