/**
 * summary and json through a started folio (worker pool, SQLite, API key) whose LLM is a fake
 * OpenAI-compatible server on loopback: the Firecrawl SDK's `parse` and `scrape`, the MCP scrape
 * tool, the key kept out of logs and answers, and LLM_ZDR=false refusing ZDR requests.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCorpus } from '../helpers/corpus.ts';
import { slowWrites } from '../helpers/slow-writes.ts';
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.ts';
import { promptText, startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from '../helpers/fake-openai.ts';
import { postParse, request, startTestService, upload, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf } from '../mcp/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

const KEY = 'sk-folio-http-test-4e8d2b7a9c0f1e3d';
const blog = readCorpus('html', 'markitdown', 'test_blog.html');
const SCHEMA = { type: 'object', properties: { title: { type: 'string' }, topics: { type: 'array', items: { type: 'string' } } }, required: ['title'] };

function isProbe(req: RecordedRequest): boolean {
  return promptText(req).includes('{"ok": true}');
}

/** The fake model: probe → ok, JSON requests → an extraction naming the page it saw, text → a summary. */
function answer(req: RecordedRequest) {
  if (isProbe(req)) return { content: '{"ok":true}' };
  const text = promptText(req);
  const page = text.includes('Tidal Energy') ? 'Tidal Energy in Small Harbours' : text.includes('Large language models') ? 'LLM inference' : 'unknown';
  if (req.body.response_format || req.body.tools) return { content: JSON.stringify({ title: page, topics: ['a', 'b'] }) };
  return { content: `A summary of ${page}.` };
}

let openai: FakeOpenAi;
let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  openai = await startFakeOpenAi({ apiKey: KEY });
  openai.respond(answer);
  site = await startSite();
  service = await startTestService({}, { OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: KEY, MODEL_NAME: 'gpt-fake', FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_DEFAULT_ZDR: 'on' });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service?.stop();
  await site?.close();
  await openai?.close();
});

describe('Firecrawl SDK with an LLM configured', () => {
  it('parse: summary and {type: json, schema}', async () => {
    const doc = await client.parse(
      { data: blog, filename: 'test_blog.html', contentType: 'text/html' },
      { formats: ['markdown', 'summary', { type: 'json', schema: SCHEMA, prompt: 'The title and topics' }] },
    );
    expect(doc.summary).toBe('A summary of LLM inference.');
    expect(doc.json).toEqual({ title: 'LLM inference', topics: ['a', 'b'] });
    expect(doc.markdown).toContain('Large language models (LLMs) are powerful tools');
    expect(doc.warning ?? undefined).toBeUndefined();
    const extraction = openai.chats().find((r) => !isProbe(r) && promptText(r).includes('Task from the user: The title and topics')) as RecordedRequest;
    expect((extraction.body.response_format as { type: string }).type).toBe('json_schema');
    expect(extraction.body.model).toBe('gpt-fake');
  });

  it('the tokens a parse spends are recorded for its team (GET /v2/team/token-usage)', async () => {
    const tokensUsed = async (): Promise<number> => {
      const res = await request(`${service.url}/v2/team/token-usage`, { headers: { authorization: `Bearer ${service.key}` } });
      expect(res.status).toBe(200);
      return (res.json as { data: { tokensUsed: number } }).data.tokensUsed;
    };
    const before = await tokensUsed();
    const chats = openai.chats().length;
    // The store's write made slow (on PostgreSQL it once landed after the answer, and the read
    // right after it found nothing): the answer waits for it.
    const restore = slowWrites(service.store, 'recordTokenUsage', 300);
    try {
      await client.parse({ data: blog, filename: 'test_blog.html', contentType: 'text/html' }, { formats: ['summary'] });
    } finally {
      restore();
    }
    expect(openai.chats().length).toBeGreaterThan(chats);
    // Each call's prompt and completion tokens as the provider reported them (at least the prompt's ~1 token per 4 characters).
    const spent = (await tokensUsed()) - before;
    expect(spent).toBeGreaterThan(100);
  });

  it('parse: a zod schema, which the SDK sends as draft 2020-12 JSON Schema', async () => {
    const doc = await client.parse(
      { data: blog, filename: 'test_blog.html', contentType: 'text/html' },
      { formats: [{ type: 'json', schema: z.object({ title: z.string(), topics: z.array(z.string()) }) }] },
    );
    expect(doc.json).toEqual({ title: 'LLM inference', topics: ['a', 'b'] });
    const sent = openai.chats().at(-1)?.body.response_format as { json_schema: { schema: Record<string, unknown>; strict: boolean } };
    expect(sent.json_schema.schema.$schema).toBeUndefined();
    expect(sent.json_schema.strict).toBe(true);
  });

  it('scrape: summary and json of a page', async () => {
    const doc = await client.scrape(`${site.url}/article.html`, { formats: ['summary', { type: 'json', schema: SCHEMA }] });
    expect(doc.summary).toBe('A summary of Tidal Energy in Small Harbours.');
    expect(doc.json).toEqual({ title: 'Tidal Energy in Small Harbours', topics: ['a', 'b'] });
  });

  it('batch scrape and crawl scrapeOptions carry summary and json to every page', async () => {
    const batch = await client.batchScrape([`${site.url}/article.html`], { options: { formats: ['summary', { type: 'json', schema: SCHEMA }] }, pollInterval: 1, timeout: 60 });
    expect(batch.status).toBe('completed');
    expect(batch.data[0]?.summary).toBe('A summary of Tidal Energy in Small Harbours.');
    expect(batch.data[0]?.json).toEqual({ title: 'Tidal Energy in Small Harbours', topics: ['a', 'b'] });
    const crawl = await client.crawl(`${site.url}/article.html`, { limit: 1, scrapeOptions: { formats: ['summary'] }, pollInterval: 1, timeout: 60 });
    expect(crawl.status).toBe('completed');
    expect(crawl.data[0]?.summary).toBe('A summary of Tidal Energy in Small Harbours.');
  });

  it('the MCP scrape tool returns summary and json too', async () => {
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
    try {
      const result = await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/article.html`, formats: ['summary', { type: 'json', schema: SCHEMA }] } });
      const data = structuredOf(result);
      expect(data.summary).toBe('A summary of Tidal Energy in Small Harbours.');
      expect(data.json).toEqual({ title: 'Tidal Energy in Small Harbours', topics: ['a', 'b'] });
    } finally {
      await mcp.close();
    }
  });

  it('an answer that fails the schema twice is data.warning on a 200', async () => {
    openai.enqueue({ content: '{"topics": []}' }, { content: 'not json' });
    const res = await postParse(service, upload('blog.html', blog, { formats: [{ type: 'json', schema: SCHEMA }] }));
    expect(res.status).toBe(200);
    const data = res.json.data as { json: unknown; warning: string };
    expect(data.json).toEqual({ topics: [] });
    expect(data.warning).toContain("json: the model's answer does not fully match the schema after a repair round");
  });

  it('zeroDataRetention: the exchange reaches no log line (neither the page text sent nor the answer)', async () => {
    openai.enqueue({ content: 'ZDR-ANSWER-7f1c summary.' });
    const res = await postParse(service, upload('blog.html', blog, { formats: ['summary'], zeroDataRetention: true }));
    expect(res.status).toBe(200);
    expect((res.json.data as { summary: string }).summary).toBe('ZDR-ANSWER-7f1c summary.');
    expect(service.logText()).not.toContain('ZDR-ANSWER-7f1c');
    expect(service.logText()).not.toContain('Large language models (LLMs) are powerful tools');
  });

  it('a bare "json" format (no prompt, no schema) asks for the main facts as one JSON object', async () => {
    const res = await postParse(service, upload('blog.html', blog, { formats: ['json'] }));
    expect(res.status).toBe(200);
    expect((res.json.data as { json: unknown }).json).toEqual({ title: 'LLM inference', topics: ['a', 'b'] });
    const req = openai.chats().at(-1) as RecordedRequest;
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(promptText(req)).toContain("Task: extract the document's main facts");
  });

  it('an LLM slower than the request timeout: 408 SCRAPE_TIMEOUT naming the LLM, on time', async () => {
    openai.enqueue({ content: 'too late', delayMs: 8_000 });
    const started = Date.now();
    const res = await postParse(service, upload('blog.html', blog, { formats: ['summary'], timeout: 3_000 }));
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('SCRAPE_TIMEOUT');
    expect(String(res.json.error)).toContain('The LLM at http://127.0.0.1');
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('an LLM that fails is 502 FETCH_FAILED naming the server, and the key is in no log line or answer', async () => {
    openai.enqueue({ status: 500, error: 'down' }, { status: 500, error: 'down' }, { status: 500, error: 'down' }, { status: 500, error: 'down' });
    const res = await postParse(service, upload('blog.html', blog, { formats: ['summary'] }));
    expect(res.status).toBe(502);
    expect(res.json.code).toBe('FETCH_FAILED');
    expect(String(res.json.error)).toContain(`The LLM at ${new URL(openai.url).origin} (MODEL_NAME gpt-fake) could not answer: HTTP 500 (down)`);
    expect(res.text).not.toContain(KEY);
    expect(service.logText()).not.toContain(KEY);
    expect(service.logText()).not.toContain(KEY.slice(-8));
    // Every request to the provider carried the key in its Authorization header only.
    for (const r of openai.chats()) {
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.text).not.toContain(KEY);
      expect(r.path).not.toContain(KEY);
    }
  });
});

describe('a provider not cleared for zero data retention (LLM_ZDR=false)', () => {
  let strict: TestService;
  let other: FakeOpenAi;
  beforeAll(async () => {
    other = await startFakeOpenAi({ apiKey: KEY });
    other.respond(answer);
    strict = await startTestService({}, { OPENAI_BASE_URL: other.baseUrl, OPENAI_API_KEY: KEY, MODEL_NAME: 'gpt-fake', LLM_ZDR: 'false', FOLIO_MAX_CONCURRENT_PARSES: '1', FOLIO_DEFAULT_ZDR: 'on' });
  });
  afterAll(async () => {
    await strict?.stop();
    await other?.close();
  });

  it('a ZDR request needing the LLM is refused with 403 LLM_ZDR_REFUSED naming LLM_ZDR, and nothing is sent', async () => {
    const res = await postParse(strict, upload('blog.html', blog, { formats: ['markdown', 'summary'], zeroDataRetention: true }));
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('LLM_ZDR_REFUSED');
    expect(String(res.json.error)).toContain('LLM_ZDR=false');
    expect(other.requests).toHaveLength(0);
    // The SDK sees the same refusal.
    const sdk = new Firecrawl({ apiKey: strict.key, apiUrl: strict.url });
    const failure = await sdk.parse({ data: blog, filename: 'blog.html', contentType: 'text/html' }, { formats: [{ type: 'json', schema: SCHEMA }], zeroDataRetention: true }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(403);
    expect(other.requests).toHaveLength(0);
  });

  it('the same request without zeroDataRetention is served; a ZDR request without summary/json is too', async () => {
    const res = await postParse(strict, upload('blog.html', blog, { formats: ['summary'] }));
    expect(res.status).toBe(200);
    expect((res.json.data as { summary: string }).summary).toBe('A summary of LLM inference.');
    const zdr = await postParse(strict, upload('blog.html', blog, { formats: ['markdown'], zeroDataRetention: true }));
    expect(zdr.status).toBe(200);
  });
});

describe('Ollama configured (OLLAMA_BASE_URL)', () => {
  let ollamaService: TestService;
  let ollama: FakeOllama;
  beforeAll(async () => {
    ollama = await startFakeOllama();
    ollama.respond((req) => (req.body.format ? { content: JSON.stringify({ title: 'From Ollama' }) } : { content: 'Summarised by Ollama.' }));
    ollamaService = await startTestService({}, { OLLAMA_BASE_URL: ollama.url, MODEL_NAME: 'llama3.1', FOLIO_MAX_CONCURRENT_PARSES: '1' });
  });
  afterAll(async () => {
    await ollamaService?.stop();
    await ollama?.close();
  });

  it('the SDK parse gets summary and json through /api/chat', async () => {
    const sdk = new Firecrawl({ apiKey: ollamaService.key, apiUrl: ollamaService.url });
    const doc = await sdk.parse({ data: blog, filename: 'blog.html', contentType: 'text/html' }, { formats: ['summary', { type: 'json', schema: SCHEMA }] });
    expect(doc.summary).toBe('Summarised by Ollama.');
    expect(doc.json).toEqual({ title: 'From Ollama' });
    const chats = ollama.chats();
    expect(chats).toHaveLength(2);
    for (const c of chats) expect(c.body).toMatchObject({ model: 'llama3.1', stream: false });
    expect(chats.find((c) => c.body.format)?.body.format).toEqual(SCHEMA);
  });
});
