/**
 * Agent and extract jobs under `zeroDataRetention` (docs/agent.md "Zero data retention",
 * docs/zdr.md): a marker in the prompt, the schema, a tool parameter the model writes, the page it
 * reads and the answer. While the job runs and after it ended, DATA_DIR, the temp directory and
 * the log hold no trace of it; the trace and the answer are read from memory, the answer once —
 * the second read says it is gone, and the trace is gone with it. The same scan finds a marker
 * of a job without ZDR in the store. With a team without ZDR: 403 ZDR_NOT_ENABLED; with an LLM
 * not cleared for ZDR (LLM_ZDR=false): 403 LLM_ZDR_REFUSED, both before any job exists.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { redisText } from '../helpers/test-store.ts';
import { request, startTestService, storeAtRest, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf } from '../mcp/helpers.ts';

/** Everything this file starts resolves os.tmpdir() here (set before anything starts). */
const TEMP_ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-zdr-agent-'));
process.env.TMPDIR = TEMP_ROOT;

const MARKER = `ZDRAGENT${randomBytes(10).toString('hex')}`;
const CONTROL = `NOZDRAGENT${randomBytes(10).toString('hex')}`;

type Json = Record<string, unknown>;

let llm: FakeOpenAi;
let site: { url: string; hostPort: string; close(): Promise<void> };
let service: TestService;
let refusing: TestService;
let noZdrTeam: TestService;

function filesHolding(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker, 'utf8');
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (fs.readFileSync(file).includes(needle)) hits.push(path.relative(dir, file));
    } catch {
      // removed while the scan ran
    }
  }
  return hits;
}

/** Files under the temp root (the SQLite store among them), log lines, and on the postgres+redis project every row of the database and key of Redis. */
const scan = async (marker = MARKER) => {
  const database = service.databaseUrl !== undefined && (await storeAtRest(service)).includes(marker);
  const redisUrl = service.storeEnv.REDIS_URL;
  const redis = redisUrl !== undefined && (await redisText(redisUrl)).includes(marker);
  return { disk: filesHolding(TEMP_ROOT, marker), logs: service.logText().includes(marker), database, redis };
};

async function startMarkerSite(): Promise<typeof site> {
  const server = http.createServer((req, res) => {
    const marker = req.url === '/control.html' ? CONTROL : MARKER;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html><head><title>Vault</title></head><body><main><h1>Vault</h1><p>The code word is ${marker}.</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

beforeAll(async () => {
  llm = await startFakeOpenAi();
  site = await startMarkerSite();
  const env = { OPENAI_BASE_URL: llm.baseUrl, MODEL_NAME: 'fake-tool-model', LLM_STRUCTURED_OUTPUT: 'json_schema', FOLIO_FETCH_ALLOW: site.hostPort };
  service = await startTestService({ runner: inProcessRunner() }, { ...env, FOLIO_DEFAULT_ZDR: 'on' });
  refusing = await startTestService({ runner: inProcessRunner() }, { ...env, FOLIO_DEFAULT_ZDR: 'on', LLM_ZDR: 'false' });
  noZdrTeam = await startTestService({ runner: inProcessRunner() }, env);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await refusing?.stop();
  await noZdrTeam?.stop();
  await llm?.close();
  await site?.close();
  fs.rmSync(TEMP_ROOT, { recursive: true, force: true });
});

async function call(svc: TestService, method: string, p: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await request(`${svc.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${svc.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}),
  });
  return { status: res.status, json: res.json as Json };
}

/** Waits for the job's end without reading its status (which would take a ZDR answer): its trace says when. */
async function ended(kind: 'agent' | 'extract', id: string): Promise<Json[]> {
  const until = Date.now() + 30_000;
  for (;;) {
    const events = (await call(service, 'GET', `/v2/${kind}/${id}/trace`)).json.events as Json[];
    if (events.some((e) => e.type === 'run.finished')) return events;
    if (Date.now() > until) throw new Error(`${kind} ${id} did not end`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('agent and extract under zeroDataRetention', () => {
  it('an agent job: nothing on disk or in the log; the trace and the answer from memory, the answer once', async () => {
    llm.enqueue(
      { toolCalls: [{ name: 'map', arguments: { url: site.url, search: MARKER } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: `${site.url}/vault.html` } }] },
      { content: JSON.stringify({ codeWord: MARKER }) },
    );
    const schema = { type: 'object', properties: { codeWord: { type: 'string', description: `like ${MARKER}` } }, required: ['codeWord'] };
    const started = await call(service, 'POST', '/v2/agent', { prompt: `Find the code word (hint: ${MARKER}).`, urls: [site.url], schema, zeroDataRetention: true });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const id = started.json.id as string;

    const events = await ended('agent', id);
    // The trace, from memory: the parameter the model wrote is there.
    expect(JSON.stringify(events)).toContain(MARKER);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
    // The list shows the job without its prompt.
    const listed = ((await call(service, 'GET', '/v2/agent')).json.agents as Json[]).find((a) => a.id === id);
    expect(listed).toMatchObject({ status: 'completed', options: { prompt: '(not kept: zeroDataRetention)' } });
    expect(await scan()).toEqual({ disk: [], logs: false, database: false, redis: false });

    // The answer, once.
    const first = await call(service, 'GET', `/v2/agent/${id}`);
    expect(first.json).toMatchObject({ success: true, status: 'completed', data: { codeWord: MARKER } });
    expect(first.json.creditsUsed as number).toBeGreaterThan(0);
    const second = await call(service, 'GET', `/v2/agent/${id}`);
    expect(second.json).toMatchObject({ success: true, status: 'completed', warning: expect.stringContaining('handed out once') });
    expect(second.json.data).toBeUndefined();
    // The trace went with the answer.
    expect(JSON.stringify((await call(service, 'GET', `/v2/agent/${id}/trace`)).json.events)).not.toContain(MARKER);
    expect(await scan()).toEqual({ disk: [], logs: false, database: false, redis: false });
  });

  it('an extract job (ZDR in scrapeOptions), with sources, and the MCP agent tool', async () => {
    llm.respond(() => ({ content: JSON.stringify({ codeWord: MARKER }) }));
    try {
      const started = await call(service, 'POST', '/v2/extract', { urls: [`${site.url}/vault.html`], prompt: `The code word (${MARKER}).`, showSources: true, scrapeOptions: { zeroDataRetention: true } });
      expect(started.status, JSON.stringify(started.json)).toBe(200);
      const id = started.json.id as string;
      await ended('extract', id);
      expect(await scan()).toEqual({ disk: [], logs: false, database: false, redis: false });
      const first = await call(service, 'GET', `/v2/extract/${id}`);
      expect(first.json).toMatchObject({ status: 'completed', data: { codeWord: MARKER }, sources: { codeWord: [`${site.url}/vault.html`] } });
      expect((await call(service, 'GET', `/v2/extract/${id}`)).json.data).toBeUndefined();

      // The MCP agent tool: waiting, its result is the one read.
      const client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
      try {
        const res = await client.callTool({ name: 'agent', arguments: { prompt: `Answer ${MARKER}.`, zeroDataRetention: true, waitSeconds: 60 } }, undefined, { timeout: 60_000 });
        expect(structuredOf(res)).toMatchObject({ status: 'completed', data: { codeWord: MARKER } });
      } finally {
        await client.close();
      }
      expect(await scan()).toEqual({ disk: [], logs: false, database: false, redis: false });
    } finally {
      llm.respond(() => ({ content: '{}' }));
    }
  });

  it('the same scan finds the marker of a job without ZDR in the store', async () => {
    llm.enqueue({ toolCalls: [{ name: 'scrape', arguments: { url: `${site.url}/control.html` } }] }, { content: JSON.stringify({ codeWord: CONTROL }) });
    const started = await call(service, 'POST', '/v2/agent', { prompt: `Find ${CONTROL}.`, urls: [site.url] });
    await ended('agent', started.json.id as string);
    const found = await scan(CONTROL);
    expect(found.disk.length > 0 || found.database).toBe(true);
  });

  it('refused before any job: a team without ZDR (403 ZDR_NOT_ENABLED), an LLM not cleared for it (403 LLM_ZDR_REFUSED)', async () => {
    const team = await call(noZdrTeam, 'POST', '/v2/agent', { prompt: 'x', zeroDataRetention: true });
    expect(team.status).toBe(403);
    expect(team.json).toMatchObject({ code: 'ZDR_NOT_ENABLED' });
    const agent = await call(refusing, 'POST', '/v2/agent', { prompt: 'x', zeroDataRetention: true });
    expect(agent.status).toBe(403);
    expect(agent.json).toMatchObject({ code: 'LLM_ZDR_REFUSED', error: expect.stringContaining('LLM_ZDR=true') });
    const extract = await call(refusing, 'POST', '/v2/extract', { urls: [site.url], prompt: 'x', scrapeOptions: { zeroDataRetention: true } });
    expect(extract.json).toMatchObject({ code: 'LLM_ZDR_REFUSED' });
    expect(((await call(refusing, 'GET', '/v2/agent')).json.agents as Json[]).length).toBe(0);
  });
});
