/**
 * Agent jobs on instances sharing one PostgreSQL (docs/agent.md, "Several instances"): a running
 * job's row is touched by its instance (its lease, FOLIO_AGENT_LEASE_SECONDS, 2 s here). An
 * instance starting does not fail another's running job; a job whose instance died is failed by
 * an instance alive once its lease ran out; a cancel sent to the other instance stops the job
 * where it runs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTART_ERROR } from '../../src/agent/index.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';

type Json = Record<string, unknown>;

let cluster: TestPostgres;
let llm: FakeOpenAi;
let site: http.Server;
let siteUrl = '';
const siteRequests: string[] = [];
let env: Record<string, string>;
let a: TestService;
let b: TestService;

beforeAll(async () => {
  [cluster, llm] = await Promise.all([startPostgres(), startFakeOpenAi()]);
  site = http.createServer((req, res) => {
    siteRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><head><title>Lease</title></head><body><h1>About</h1><p>This site exists only for tests.</p></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  siteUrl = `http://127.0.0.1:${port}`;
  env = {
    DATABASE_URL: await cluster.createDatabase(),
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'sk-lease-test-key-0123456789',
    MODEL_NAME: 'fake-tool-model',
    FOLIO_FETCH_ALLOW: `127.0.0.1:${port}`,
    FOLIO_AGENT_LEASE_SECONDS: '2',
  };
  a = await startTestService({ runner: inProcessRunner() }, env);
  b = await startTestService({ runner: inProcessRunner() }, env);
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await llm?.close();
  await cluster?.stop();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

async function call(svc: TestService, method: string, p: string, body?: unknown): Promise<Json> {
  const res = await request(`${svc.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${svc.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}),
  });
  return res.json as Json;
}

async function statusOf(svc: TestService, id: string, until: (s: Json) => boolean, ms = 20_000): Promise<Json> {
  const end = Date.now() + ms;
  for (;;) {
    const s = await call(svc, 'GET', `/v2/agent/${id}`);
    if (until(s) || Date.now() > end) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('agent jobs on two instances sharing PostgreSQL', () => {
  it('an instance starting leaves another instance’s running job alone: it completes', async () => {
    llm.enqueue({ content: '{"answer": "still mine"}', delayMs: 3_000 });
    const started = await call(a, 'POST', '/v2/agent', { prompt: 'Answer slowly.' });
    const id = started.id as string;
    await new Promise((r) => setTimeout(r, 300));
    // A third instance starts (a rolling deploy): before the lease it failed every job not its own.
    const c = await startTestService({ runner: inProcessRunner() }, env);
    await c.stop();
    const done = await statusOf(a, id, (s) => s.status !== 'processing');
    expect(done).toMatchObject({ status: 'completed', data: { answer: 'still mine' } });
  }, 60_000);

  it('a job whose instance died is failed by an instance alive once its lease ran out', async () => {
    const team = await a.store.findTeamByName('test-team');
    // A row left `processing` by a process that is gone: nobody touches it.
    const orphan = await a.store.createAgentJob({ id: '00000000-0000-4000-8000-00000000dead', kind: 'agent', owner: `team:${team?.id ?? ''}`, request: JSON.stringify({ prompt: 'orphan' }), expiresAt: new Date(Date.now() + 60_000) });
    expect((await b.store.getAgentJob(orphan.id))?.status).toBe('processing');
    const t0 = Date.now();
    const ended = await statusOf(b, orphan.id, (s) => s.status !== 'processing');
    expect(ended).toMatchObject({ status: 'failed', error: RESTART_ERROR });
    // Within the lease (2 s) and a heartbeat or two (0.5 s each), not at once.
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 60_000);

  it('a cancel sent to the other instance stops the job where it runs: the page it was about to read is never fetched', async () => {
    llm.enqueue({ toolCalls: [{ name: 'scrape', arguments: { url: `${siteUrl}/about.html` } }], delayMs: 3_000 }, { content: '{"purpose": "tests"}' });
    const started = await call(a, 'POST', '/v2/agent', { prompt: 'What is the site for?', urls: [siteUrl] });
    const id = started.id as string;
    await new Promise((r) => setTimeout(r, 300));
    expect(await call(b, 'DELETE', `/v2/agent/${id}`)).toMatchObject({ success: true, status: 'cancelled' });
    // The LLM's answer (a scrape) comes at 3 s; without the lease the job ran on and fetched the page.
    await new Promise((r) => setTimeout(r, 4_500));
    expect(siteRequests).not.toContain('/about.html');
    expect(await call(a, 'GET', `/v2/agent/${id}`)).toMatchObject({ status: 'cancelled' });
    llm.respond(() => ({ content: '{}' }));
  }, 60_000);
});
