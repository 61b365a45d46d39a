/**
 * `crawlParamsPreview(url, prompt)` of the Firecrawl SDK against folio: without a language model
 * folio answers the options the prompt states explicitly and a warning saying that free-form
 * interpretation needs a model (never a made-up answer); a prompt with nothing explicit gives the
 * defaults and says so; bad input is a 400 naming the field; a key is required.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';

let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  service = await startTestService();
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
});

describe('POST /v2/crawl/params-preview', () => {
  it('derives the explicit options of the prompt and warns that a model would be needed for the rest', async () => {
    const data = await client.crawlParamsPreview('https://example.com', 'Crawl the docs under /docs and /api/v2, but not /docs/legacy. Up to 50 pages, 2 levels deep, include subdomains.');
    expect(data).toMatchObject({
      url: 'https://example.com/',
      includePaths: ['^/docs(/.*)?$', '^/api/v2(/.*)?$'],
      excludePaths: ['^/docs/legacy(/.*)?$'],
      limit: 50,
      maxDiscoveryDepth: 2,
      allowSubdomains: true,
    });
    expect(data.crawlEntireDomain).toBeUndefined();
    expect(String(data.warning)).toContain('needs a language model');
    expect(String(data.warning)).toContain('OPENAI_BASE_URL / OLLAMA_BASE_URL');
    expect(String(data.warning)).toContain('limit 50 from "Up to 50 pages"');
  });

  it('a prompt with nothing explicit answers the URL alone and says these are the defaults', async () => {
    const data = await client.crawlParamsPreview('example.com/blog', 'Find the most interesting articles about cooking');
    expect(Object.keys(data).sort()).toEqual(['url', 'warning']);
    expect(data.url).toBe('https://example.com/blog');
    expect(String(data.warning)).toContain('these are the defaults');
  });

  it('an empty prompt or a bad URL is a 400 naming the field; no key is a 401', async () => {
    const res = await request(`${service.url}/v2/crawl/params-preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ url: 'ftp://example.com', prompt: '  ' })),
    });
    expect(res.status).toBe(400);
    expect(String(res.json.error)).toContain('`url`');
    expect(String(res.json.error)).toContain('`prompt`');
    const anonymous = new Firecrawl({ apiKey: 'folio_not-a-key', apiUrl: service.url });
    const failure = await anonymous.crawlParamsPreview('https://example.com', 'docs').then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(401);
  });
});
