/**
 * summary and json through parse() (in process and in the parse pool's child processes) with
 * fake LLM servers: map-reduce over a long corpus document visible in the fake's request log,
 * per-chunk extraction merged, redactPII before the LLM sees the text, token usage reported back
 * from the child over IPC, the key never in a child's argv or environment.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { forgetProbes, type LlmSettings, type LlmUsage } from '../../src/llm/index.ts';
import { runParse } from '../../src/cli/parse.ts';
import { createParsePool } from '../../src/limits/parse-pool.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { corpusPath, readCorpus } from '../helpers/corpus.ts';
import { promptText, startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from '../helpers/fake-openai.ts';

const KEY = 'sk-parse-test-KEY-7f3a9c1e5b';
const wiki = readCorpus('html', 'markitdown', 'test_wikipedia.html');
const blog = readCorpus('html', 'markitdown', 'test_blog.html');

let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await startFakeOpenAi({ apiKey: KEY });
});
afterAll(async () => {
  await openai.close();
});
afterEach(() => {
  openai.requests.length = 0;
  forgetProbes();
});

function llm(over: Partial<LlmSettings> = {}): LlmSettings {
  return { provider: 'openai', baseUrl: openai.baseUrl, apiKey: KEY, model: 'gpt-test', structuredOutput: 'json_schema', maxConcurrent: 4, contextTokens: 4096, maxRetries: 2, zdr: true, ...over };
}

function documentOf(req: RecordedRequest): string {
  return /<document ([^>]*)>/.exec(promptText(req))?.[1] ?? '';
}

describe('summary through parse()', () => {
  it('a long corpus page is summarised map-reduce: one call per chunk, then a call over the part summaries', async () => {
    openai.respond((req) => {
      const label = documentOf(req);
      const part = /part="(\d+) of (\d+)"/.exec(label);
      return { content: part ? `Part ${part[1]} is about Microsoft history.` : 'Microsoft is an American technology company.' };
    });
    const data = await parse({ bytes: wiki, filename: 'wikipedia.html' }, parseOptions({ formats: ['markdown', 'summary'], timeout: 120_000 }), { llm: llm() });
    expect(data.summary).toBe('Microsoft is an American technology company.');
    expect(data.warning ?? '').not.toContain('summary');
    const chats = openai.chats();
    const maps = chats.filter((r) => /part="\d+ of \d+"/.test(documentOf(r)));
    const n = Number(/of (\d+)/.exec(documentOf(maps[0] as RecordedRequest))?.[1]);
    expect(n).toBeGreaterThan(3);
    expect(maps).toHaveLength(n);
    // Every chunk stays within the context budget (estimated at 4 characters a token, ASCII).
    for (const m of maps) expect(promptText(m).length).toBeLessThan(4096 * 4);
    // The chunks together carry the whole markdown, in order.
    const sent = maps.map((m) => /<document [^>]*>\n([\s\S]*)\n<\/document>/.exec(promptText(m))?.[1] ?? '').join('\n\n');
    expect(sent.replace(/\s+/g, ' ')).toContain((data.markdown ?? '').slice(-300).replace(/\s+/g, ' ').trim().slice(0, 200));
    const reduce = chats.at(-1) as RecordedRequest;
    expect(documentOf(reduce)).toBe('kind="part summaries"');
    for (let i = 1; i <= n; i++) expect(promptText(reduce)).toContain(`Summary of part ${i}:\nPart ${i} is about Microsoft history.`);
  });

  it('a short page: one call with the whole document', async () => {
    openai.respond(() => ({ content: 'A blog post about LLM inference parameters.' }));
    const data = await parse({ bytes: blog, filename: 'blog.html' }, parseOptions({ formats: ['summary'] }), { llm: llm() });
    expect(data.summary).toBe('A blog post about LLM inference parameters.');
    expect(data.markdown).toBeUndefined();
    expect(openai.chats()).toHaveLength(1);
    expect(documentOf(openai.chats()[0] as RecordedRequest)).toBe('kind="whole"');
    expect(promptText(openai.chats()[0] as RecordedRequest)).toContain('Large language models (LLMs) are powerful tools');
  });

  it('redactPII runs before the LLM sees the text', async () => {
    openai.respond(() => ({ content: 'Contact details were given.' }));
    const page = Buffer.from('<html><body><h1>Contact</h1><p>Write to jane.doe@example.org or call +44 20 7946 0958 about the harbour survey.</p></body></html>');
    const data = await parse({ bytes: page, filename: 'contact.html' }, parseOptions({ formats: ['summary'], redactPII: { mode: 'fast' } }), { llm: llm() });
    expect(data.summary).toBe('Contact details were given.');
    const text = promptText(openai.chats()[0] as RecordedRequest);
    expect(text).toContain('<EMAIL>');
    expect(text).not.toContain('jane.doe@example.org');
    expect(text).not.toContain('7946');
  });
});

describe('json through parse()', () => {
  const schema = { type: 'object', properties: { title: { type: 'string' }, people: { type: 'array', items: { type: 'string' } } }, required: ['title'] };

  it('a long page is extracted per chunk (required lifted) and merged: first title wins, arrays concatenated and de-duplicated', async () => {
    openai.respond((req) => {
      const part = Number(/part="(\d+) of/.exec(documentOf(req))?.[1] ?? 0);
      const answer = part === 1 ? { people: ['Bill Gates', 'Paul Allen'] } : part === 2 ? { title: 'Microsoft', people: ['Paul Allen', 'Steve Ballmer'] } : { title: 'Other', people: [] };
      return { content: JSON.stringify(answer) };
    });
    const data = await parse({ bytes: wiki, filename: 'wikipedia.html' }, parseOptions({ formats: [{ type: 'json', schema }], timeout: 120_000 }), { llm: llm() });
    expect(data.json).toEqual({ title: 'Microsoft', people: ['Bill Gates', 'Paul Allen', 'Steve Ballmer'] });
    expect(data.warning ?? '').not.toContain('json:');
    const chunkSchema = (openai.chats()[0]?.body.response_format as { json_schema: { schema: Record<string, unknown> } }).json_schema.schema;
    expect(chunkSchema.required).toBeUndefined();
    expect(openai.chats().length).toBeGreaterThan(3);
  });

  it('what still fails after the repair round is data.warning, never an error', async () => {
    openai.respond(() => ({ content: JSON.stringify({ people: ['x'] }) }));
    const data = await parse({ bytes: blog, filename: 'blog.html' }, parseOptions({ formats: ['markdown', { type: 'json', schema }] }), { llm: llm() });
    expect(data.json).toEqual({ people: ['x'] });
    expect(data.warning).toContain("json: the model's answer does not fully match the schema after a repair round: / must have required property 'title'.");
    expect(openai.chats()).toHaveLength(2);
  });
});

describe('in the parse pool', () => {
  it('the settings travel in the job message (not argv or env); usage comes back per call', async () => {
    openai.respond((req) => ({ content: req.body.response_format ? JSON.stringify({ title: 'Blog' }) : 'Summary from the child.' }));
    const pool = createParsePool({ size: 1, maxQueue: 1, workerMemoryMb: 1536, llm: llm() });
    try {
      await pool.ready();
      const [pid] = pool.pids();
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
      expect(argv).not.toContain(KEY);
      expect(environ).not.toContain(KEY);
      const usage: LlmUsage[] = [];
      const data = await pool.run({ bytes: blog, filename: 'blog.html' }, parseOptions({ formats: ['summary', { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } } }] }), {
        onLlmUsage: (u) => usage.push(u),
      });
      expect(data.summary).toBe('Summary from the child.');
      expect(data.json).toEqual({ title: 'Blog' });
      expect(usage).toHaveLength(2);
      for (const u of usage) {
        expect(u.model).toBe('gpt-test');
        expect(u.promptTokens).toBeGreaterThan(100);
        expect(u.completionTokens).toBeGreaterThan(0);
      }
    } finally {
      await pool.close();
    }
  });

  it('inProcessRunner reports usage too, and a ZDR request with LLM_ZDR=false is refused before anything is sent', async () => {
    openai.respond(() => ({ content: 'In process.' }));
    const usage: LlmUsage[] = [];
    const runner = inProcessRunner({ llm: llm() });
    const data = await runner({ bytes: blog, filename: 'blog.html' }, parseOptions({ formats: ['summary'], zeroDataRetention: true }), { onLlmUsage: (u) => usage.push(u) });
    expect(data.summary).toBe('In process.');
    expect(usage).toHaveLength(1);
    const refusing = inProcessRunner({ llm: llm({ zdr: false }) });
    const before = openai.chats().length;
    await expect(refusing({ bytes: blog, filename: 'blog.html' }, parseOptions({ formats: ['summary'], zeroDataRetention: true }))).rejects.toMatchObject({ code: 'LLM_ZDR_REFUSED', status: 403 });
    expect(openai.chats().length).toBe(before);
    // Without zeroDataRetention the same server answers.
    expect((await refusing({ bytes: blog, filename: 'blog.html' }, parseOptions({ formats: ['summary'] }))).summary).toBe('In process.');
  });
});

describe('folio parse (CLI)', () => {
  it('--formats summary uses the configured LLM', async () => {
    openai.respond(() => ({ content: 'Summary for the command line.' }));
    const out: string[] = [];
    const code = await runParse([corpusPath('html', 'markitdown', 'test_blog.html'), '--formats', 'markdown,summary', '--json'], { stdout: (t) => out.push(t), stderr: () => undefined }, () => 'eng', () => ({}), () => llm());
    expect(code).toBe(0);
    const body = JSON.parse(out.join('')) as { data: { summary: string } };
    expect(body.data.summary).toBe('Summary for the command line.');
    expect(openai.chats()).toHaveLength(1);
  });
});

describe('redactPII with an LLM', () => {
  const page = Buffer.from(
    '<html><body><h1>Visit notes</h1><p>Xochitl Quispe met the harbour master at the quay. Write to x.quispe@example.org.</p><p>Annual report filed by Ann.</p></body></html>',
  );

  function entities(list: { text: string; type: string }[]) {
    return () => ({ content: JSON.stringify({ entities: list }) });
  }

  it("accurate: the model's spans are located in the text (an invented one matches nothing), patterns still apply, and no fallback warning", async () => {
    openai.respond(entities([
      { text: 'Xochitl Quispe', type: 'PERSON' },
      { text: 'Ann', type: 'PERSON' },
      { text: 'Maria Invented', type: 'PERSON' },
    ]));
    const data = await parse({ bytes: page, filename: 'notes.html' }, parseOptions({ formats: ['markdown', 'rawHtml'], redactPII: true }), { llm: llm() });
    expect(data.markdown).toContain('\\<PERSON> met the harbour master');
    expect(data.markdown).toContain('Write to \\<EMAIL>.');
    // Whole words only: "Annual" keeps its letters, "Ann." is redacted.
    expect(data.markdown).toContain('Annual report filed by \\<PERSON>.');
    expect(data.rawHtml).toContain('&lt;PERSON&gt; met the harbour master');
    expect(data.rawHtml).not.toContain('Quispe');
    expect(data.warning ?? '').not.toContain('needs an LLM');
    expect(data.metadata.piiRedacted).toEqual(['PERSON:2', 'EMAIL:1']);
    // One call: the raw HTML is not sent, the model's entities are located in it again.
    const chats = openai.chats();
    expect(chats).toHaveLength(1);
    const sent = promptText(chats[0] as RecordedRequest);
    expect(sent).toContain('Report only spans you are sure are personal data');
    expect(sent).not.toContain('<html>');
    const schema = (chats[0]?.body.response_format as { json_schema: { schema: { properties: { entities: { items: { properties: { type: { enum: string[] } } } } } } } }).json_schema.schema;
    expect(schema.properties.entities.items.properties.type.enum).toEqual(['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET']);
  });

  it("aggressive: the offline detectors plus the model's PERSON/LOCATION spans, asked for recall", async () => {
    openai.respond(entities([{ text: 'Xochitl Quispe', type: 'PERSON' }]));
    const data = await parse({ bytes: page, filename: 'notes.html' }, parseOptions({ formats: ['markdown'], redactPII: { mode: 'aggressive' } }), { llm: llm() });
    expect(data.markdown).not.toContain('Quispe');
    expect(data.markdown).toContain('\\<EMAIL>');
    const sent = promptText(openai.chats()[0] as RecordedRequest);
    expect(sent).toContain('Report every span that may be personal data');
    const schema = (openai.chats()[0]?.body.response_format as { json_schema: { schema: { properties: { entities: { items: { properties: { type: { enum: string[] } } } } } } } }).json_schema.schema;
    expect(schema.properties.entities.items.properties.type.enum).toEqual(['PERSON', 'LOCATION']);
  });

  it('fast never calls the model; a ZDR request with LLM_ZDR=false keeps its text and says so', async () => {
    openai.respond(entities([{ text: 'Xochitl Quispe', type: 'PERSON' }]));
    await parse({ bytes: page, filename: 'notes.html' }, parseOptions({ formats: ['markdown'], redactPII: { mode: 'fast' } }), { llm: llm() });
    expect(openai.chats()).toHaveLength(0);
    const data = await parse({ bytes: page, filename: 'notes.html' }, parseOptions({ formats: ['markdown'], redactPII: true, zeroDataRetention: true }), { llm: llm({ zdr: false }) });
    expect(openai.chats()).toHaveLength(0);
    expect(data.warning).toContain("redactPII: the LLM is not cleared for zero data retention (LLM_ZDR=false), so this zeroDataRetention request's text was not sent to it; the offline 'aggressive' detectors were used alone.");
    expect(data.warning).not.toContain('none is configured');
  });

  it('the summary is made from the text the model-assisted redaction left', async () => {
    openai.respond((req) => (req.body.response_format ? entities([{ text: 'Xochitl Quispe', type: 'PERSON' }])() : { content: 'Notes of a visit.' }));
    const data = await parse({ bytes: page, filename: 'notes.html' }, parseOptions({ formats: ['summary'], redactPII: true }), { llm: llm() });
    expect(data.summary).toBe('Notes of a visit.');
    const summaryCall = openai.chats().find((r) => !r.body.response_format) as RecordedRequest;
    expect(promptText(summaryCall)).not.toContain('Quispe');
    expect(promptText(summaryCall)).toContain('<PERSON>');
  });
});
