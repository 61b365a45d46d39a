/**
 * ParseOptions through HTTP: good values are accepted with the spec's defaults applied; each bad
 * value is a 400 BAD_REQUEST whose message names the field; summary/json with no LLM take the
 * offline paths or answer 503 NOT_CONFIGURED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner, type ParseRunner } from '../../src/limits/runner.ts';
import type { ParseOptions } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { postParse, startTestService, upload, type TestService } from './helpers.ts';

const blog = readCorpus('html', 'markitdown', 'test_blog.html');
const seen: ParseOptions[] = [];
const real = inProcessRunner();
const recording: ParseRunner = (input, options, run) => {
  seen.push(options);
  return real(input, options, run);
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ runner: recording }, { FOLIO_DEFAULT_ZDR: 'on' });
});
afterAll(async () => {
  await service.stop();
});

async function badOptions(options: unknown) {
  const res = await postParse(service, upload('blog.html', blog, options));
  expect(res.status).toBe(400);
  expect(res.json.success).toBe(false);
  expect(res.json.code).toBe('BAD_REQUEST');
  return String(res.json.error);
}

describe('valid options', () => {
  it('no options part: every default of the spec is applied', async () => {
    seen.length = 0;
    const res = await postParse(service, upload('blog.html', blog));
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      blockAds: true,
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      origin: 'api',
      parsers: [{ type: 'pdf', mode: 'auto' }],
      redactPII: false,
      removeBase64Images: true,
      skipTlsVerification: true,
      timeout: 30000,
      zeroDataRetention: false,
    });
    const data = res.json.data as { markdown: string; metadata: { contentType: string; sourceURL: string } };
    expect(data.markdown).toContain('an example where high cost can easily prevent a generic complex');
    expect(data.metadata.contentType).toBe('text/html');
    expect(data.metadata.sourceURL).toBe('file:///blog.html');
  });

  it('every field at a good value is accepted as given', async () => {
    seen.length = 0;
    const options = {
      auditMetadata: { username: 'u'.repeat(1024) },
      blockAds: false,
      excludeTags: ['nav', '.sidebar'],
      formats: ['markdown', { type: 'html' }, { type: 'rawHtml' }, { type: 'links' }, { type: 'images' }],
      headers: { 'User-Agent': 'folio-test' },
      includeTags: ['article', 'main p'],
      integration: null,
      onlyMainContent: false,
      origin: 'test-suite',
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 10000 }],
      proxy: 'basic',
      redactPII: false,
      removeBase64Images: false,
      skipTlsVerification: false,
      timeout: 300000,
      zeroDataRetention: true,
    };
    const res = await postParse(service, upload('blog.html', blog, options));
    expect(res.status).toBe(200);
    const data = res.json.data as Record<string, unknown>;
    for (const key of ['markdown', 'html', 'rawHtml', 'links', 'images']) expect(data).toHaveProperty(key);
    expect(seen[0]).toMatchObject({ ...options, formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'rawHtml' }, { type: 'links' }, { type: 'images' }] });
    expect(String(data.rawHtml)).toContain('LLM-tuning-math');
  });

  it('parsers at the low bound and proxy auto', async () => {
    const res = await postParse(service, upload('blog.html', blog, { parsers: [{ type: 'pdf', maxPages: 1 }], proxy: 'auto', timeout: 1000 * 60 }));
    expect(res.status).toBe(200);
  });

  it('scrape-only fields the SDK sends are ignored, not refused', async () => {
    seen.length = 0;
    const res = await postParse(service, upload('blog.html', blog, { formats: ['markdown'], fastMode: true }));
    expect(res.status).toBe(200);
    expect(seen[0]).not.toHaveProperty('fastMode');
  });

  it('the options part is accepted as a part with Content-Type application/json, with or without a filename', async () => {
    for (const filename of [undefined, 'options.json']) {
      seen.length = 0;
      const res = await postParse(service, [
        { name: 'options', contentType: 'application/json', ...(filename ? { filename } : {}), data: JSON.stringify({ formats: ['links'], timeout: 12345 }) },
        { name: 'file', filename: 'blog.html', contentType: 'text/html', data: blog },
      ]);
      expect(res.status).toBe(200);
      expect(seen[0]?.timeout).toBe(12345);
      expect((res.json.data as { links: string[] }).links).toEqual(expect.any(Array));
      expect(res.json.data).not.toHaveProperty('markdown');
    }
  });

  it('an options part after the file part is read too', async () => {
    seen.length = 0;
    const res = await postParse(service, [
      { name: 'file', filename: 'blog.html', data: blog },
      { name: 'options', data: JSON.stringify({ timeout: 4321 }) },
    ]);
    expect(res.status).toBe(200);
    expect(seen[0]?.timeout).toBe(4321);
  });
});

/** Options (as JSON text: too deep for JSON.stringify) with a json format whose schema nests `key` `depth` deep. */
function nested(key: 'properties' | 'items', depth: number): string {
  const [open, close] = key === 'properties' ? ['{"properties":{"a":', '}}'] : ['{"items":', '}'];
  return `{"formats":[{"type":"json","schema":${open.repeat(depth)}{}${close.repeat(depth)}}]}`;
}

describe('invalid options are 400 BAD_REQUEST naming the field', () => {
  it.each([
    ['unknown format type', { formats: [{ type: 'screenshot' }] }, ['`formats[0].type`', 'screenshot']],
    ['unknown format as a string', { formats: ['markdown', 'branding'] }, ['`formats[1].type`', 'branding']],
    ['json format with an invalid schema', { formats: [{ type: 'json', schema: { type: 'nope' } }] }, ['`formats[0].schema`', 'valid JSON Schema']],
    ['json schema nested 20,000 deep', nested('properties', 20_000), ['`formats[0].schema`', 'nests more than 64 levels deep']],
    ['json schema of items nested 20,000 deep', nested('items', 20_000), ['`formats[0].schema`', 'nests more than 64 levels deep']],
    [
      'json schema whose $refs loop',
      { formats: [{ type: 'json', schema: { $ref: '#/definitions/a', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } } }] },
      ['`formats[0].schema`', '`$ref`s lead to each other in a loop'],
    ],
    ['json schema of 20,000 properties', { formats: [{ type: 'json', schema: { properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, {}])) } }] }, ['more than 10000 keywords']],
    ['maxPages 0', { parsers: [{ type: 'pdf', maxPages: 0 }] }, ['`parsers[0].maxPages`', '1']],
    ['maxPages 10001', { parsers: [{ type: 'pdf', maxPages: 10001 }] }, ['`parsers[0].maxPages`', '10000']],
    ['unknown parser mode', { parsers: [{ type: 'pdf', mode: 'turbo' }] }, ['`parsers[0].mode`']],
    ['timeout 300001', { timeout: 300001 }, ['`timeout`', '300000']],
    ['timeout not an integer', { timeout: 1.5 }, ['`timeout`']],
    ['username of 1025 characters', { auditMetadata: { username: 'x'.repeat(1025) } }, ['`auditMetadata.username`', '1024']],
    ['proxy stealth', { proxy: 'stealth' }, ['`proxy`', 'basic']],
    ['extra property in a parser object', { parsers: [{ type: 'pdf', pages: true }] }, ['`parsers[0]`', 'pages']],
    ['extra property in redactPII', { redactPII: { mode: 'fast', level: 3 } }, ['`redactPII`', 'level']],
    ['unknown redactPII entity', { redactPII: { entities: ['PASSPORT'] } }, ['`redactPII.entities[0]`']],
    ['extra property in auditMetadata', { auditMetadata: { username: 'a', role: 'admin' } }, ['`auditMetadata`', 'role']],
    ['invalid CSS selector in includeTags', { includeTags: ['article', 'div['] }, ['`includeTags[1]`', 'div[']],
    ['invalid CSS selector in excludeTags', { excludeTags: ['##'] }, ['`excludeTags[0]`']],
    ['onlyMainContent not a boolean', { onlyMainContent: 'yes' }, ['`onlyMainContent`']],
    ['header value not a string', { headers: { 'X-A': 1 } }, ['`headers.X-A`']],
  ])('%s', async (_label, options, fragments) => {
    const message = await badOptions(options);
    expect(message).toMatch(/^Invalid options: /);
    for (const f of fragments) expect(message).toContain(f);
  });

  it('options that are not JSON', async () => {
    const message = await badOptions('{formats: [markdown]');
    expect(message).toContain('`options` part is not valid JSON');
  });

  it('options that are JSON but not an object', async () => {
    expect(await badOptions('["markdown"]')).toContain('must be a JSON object');
  });

  it('bad options sent before a large file are answered before the file is received', async () => {
    seen.length = 0;
    const big = Buffer.alloc(40 * 1024 * 1024, 0x20);
    const res = await postParse(service, upload('big.html', big, { timeout: 0 }));
    expect(res.status).toBe(400);
    expect(String(res.json.error)).toContain('`timeout`');
    // The body was left unread, so the connection is not kept.
    expect(res.headers.connection).toBe('close');
    expect(seen).toHaveLength(0);
  });
});

describe('summary and json on a server with no LLM (docs/llm.md)', () => {
  it('json with a prompt and no schema → 503 NOT_CONFIGURED naming the variables', async () => {
    const res = await postParse(service, upload('blog.html', blog, { formats: [{ type: 'json', prompt: 'Title?' }] }));
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ success: false, code: 'NOT_CONFIGURED', error: expect.stringContaining('OPENAI_BASE_URL (with OPENAI_API_KEY) and MODEL_NAME, or OLLAMA_BASE_URL') });
  });

  it('summary takes the offline path: the extractive summary with its warning', async () => {
    const res = await postParse(service, upload('blog.html', blog, { formats: ['markdown', 'summary'] }));
    expect(res.status).toBe(200);
    const data = res.json.data as { summary: string; markdown: string; warning: string };
    expect(data.summary.length).toBeGreaterThan(40);
    expect(data.summary.length).toBeLessThanOrEqual(1_000);
    // Quoted from the document, not written: its first sentence stands in the markdown as it is.
    const first = data.summary.split(/(?<=[.!?])\s/)[0] ?? '';
    expect(data.markdown.replace(/\s+/g, ' ')).toContain(first.replace(/\s+/g, ' ').slice(0, 40));
    expect(data.warning).toContain('summary: no LLM is configured, so this summary is extractive');
  });

  it('a document with no running text gets an empty offline summary and a warning saying why', async () => {
    const table = Buffer.from('<!doctype html><html><body><table><tr><th>Code</th><th>Qty</th></tr><tr><td>A1</td><td>2</td></tr></table></body></html>');
    const res = await postParse(service, upload('table.html', table, { formats: ['summary'] }));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ summary: '', warning: expect.stringContaining('no running-text sentence to quote') });
  });

  it('json with a schema is filled offline from a corpus invoice: its line items, and a warning naming the field left empty', async () => {
    const invoice = readCorpus('pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf');
    const schema = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'integer' }, amount: { type: 'number' } } } },
        total: { type: 'number' },
      },
    };
    const res = await postParse(service, upload('invoice.pdf', invoice, { formats: [{ type: 'json', schema }] }));
    expect(res.status).toBe(200);
    const data = res.json.data as { json: { items: { description: string; quantity: number; amount: number }[] }; warning: string };
    expect(data.json.items).toHaveLength(7);
    expect(data.json.items[0]).toEqual({ description: 'Super Kite', quantity: 2, amount: 40 });
    expect(data.warning).toContain('fields nothing in the document matched were left empty: /total');
  });

  it('json with a schema nothing in the document matches → 503 NOT_CONFIGURED naming the variables', async () => {
    const schema = { type: 'object', properties: { flightNumber: { type: 'string' }, gate: { type: 'string' } } };
    const res = await postParse(service, upload('blog.html', blog, { formats: [{ type: 'json', schema }] }));
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ success: false, code: 'NOT_CONFIGURED', error: expect.stringContaining('Nothing in this document matches') });
  });
});
