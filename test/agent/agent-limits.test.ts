/**
 * An agent job holds one of its team's concurrent places (docs/agent.md "Team limits",
 * docs/limits.md) through a started server: a team at maxConcurrent 1 with a team queue of 1.
 * While the agent runs, getQueueStatus counts it, a parse of the team waits its turn and a second
 * one is refused (429, the queue is full); the agent's own scrape (and its parse) runs on the
 * agent's place, so the job finishes (no deadlock), and then the waiting parse runs, marked
 * concurrencyLimited. A second agent job of the team waits for the place (never refused) and can
 * be cancelled while it waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { postParse, request, startTestService, upload, type RawResponse, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

type Json = Record<string, unknown>;

let llm: FakeOpenAi;
let site: TestSite;
let service: TestService;

beforeAll(async () => {
  llm = await startFakeOpenAi();
  site = await startSite();
  service = await startTestService(
    { runner: inProcessRunner() },
    {
      OPENAI_BASE_URL: llm.baseUrl,
      MODEL_NAME: 'fake-tool-model',
      LLM_STRUCTURED_OUTPUT: 'json_schema',
      FOLIO_FETCH_ALLOW: site.hostPort,
      FOLIO_DEFAULT_MAX_CONCURRENT: '1',
      FOLIO_MAX_QUEUED_PER_TEAM: '1',
    },
  );
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await llm?.close();
  await site?.close();
});

const auth = () => ({ authorization: `Bearer ${service.key}`, connection: 'close' });

async function get(p: string): Promise<Json> {
  return (await request(`${service.url}${p}`, { headers: auth() })).json as Json;
}

async function startAgent(body: Json): Promise<string> {
  const res = await request(`${service.url}/v2/agent`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json as { id: string }).id;
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

async function waitDone(id: string): Promise<Json> {
  let job: Json = {};
  await until(`agent ${id} ends`, async () => {
    job = await get(`/v2/agent/${id}`);
    return job.status !== 'processing';
  });
  return job;
}

const page = '<!DOCTYPE html><html><head><title>Queued</title></head><body><h1>Queued parse</h1><p>This parse waited for the agent.</p></body></html>';
const parse = (): Promise<RawResponse> => postParse({ url: service.url, key: service.key }, upload('queued.html', page), { timeoutMs: 60_000, headers: { connection: 'close' } });

describe('an agent job holds one of its team’s concurrent places', () => {
  it('at maxConcurrent 1: the queue counts it, a parse waits (a second is 429), the agent’s own scrape runs on its place, then the parse runs', async () => {
    llm.enqueue(
      // The first turn is slow: the place is the job's from its start, before any scrape.
      { toolCalls: [{ name: 'scrape', arguments: { url: `${site.url}/about.html` } }], delayMs: 2500 },
      { content: '{"purpose": "tests"}' },
    );
    const id = await startAgent({ prompt: 'What is the site for?', urls: [`${site.url}/about.html`] });
    await until('the agent holds the team place', async () => (await get('/v2/team/queue-status')).activeJobsInQueue === 1);
    expect(site.requests, 'the place is the job’s own, not its scrape’s').not.toContain('/about.html');

    const waiting = parse();
    await until('the parse waits behind the agent', async () => (await get('/v2/team/queue-status')).waitingJobsInQueue === 1);
    const status = await get('/v2/team/queue-status');
    expect(status).toMatchObject({ success: true, jobsInQueue: 2, activeJobsInQueue: 1, waitingJobsInQueue: 1, maxConcurrency: 1 });

    // The team's queue (1) is full: refused at once, with when to come back.
    const refused = await parse();
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, code: 'RATE_LIMITED', error: expect.stringContaining('concurrency limit') });

    // The agent's scrape (a fetch and a parse of the team) ran on the agent's own place.
    const done = await waitDone(id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', data: { purpose: 'tests' }, creditsUsed: 1 });
    const events = (await get(`/v2/agent/${id}/trace`)).events as Json[];
    expect(events.find((e) => e.type === 'tool_call.finished')).toMatchObject({ toolName: 'scrape', result: { ok: true } });

    const parsed = await waiting;
    expect(parsed.status, JSON.stringify(parsed.json)).toBe(200);
    const metadata = ((parsed.json as Json).data as { metadata: Json }).metadata;
    expect(metadata.concurrencyLimited).toBe(true);
    expect(metadata.concurrencyQueueDurationMs as number).toBeGreaterThan(0);
    await until('the place is free again', async () => (await get('/v2/team/queue-status')).jobsInQueue === 0);
  }, 60_000);

  it('a second agent job of the team waits for the place (never refused), and cancel takes it out of the queue', async () => {
    llm.enqueue({ content: '{"first": true}', delayMs: 1500 });
    const first = await startAgent({ prompt: 'Slow first.' });
    await until('the first agent holds the place', async () => (await get('/v2/team/queue-status')).activeJobsInQueue === 1);
    const second = await startAgent({ prompt: 'Second, cancelled while waiting.' });
    const third = await startAgent({ prompt: 'Third, waits and runs.' });
    await until('two agents wait', async () => (await get('/v2/team/queue-status')).waitingJobsInQueue === 2);
    const chatsBefore = llm.chats().length;

    const t0 = Date.now();
    const res = await request(`${service.url}/v2/agent/${second}`, { method: 'DELETE', headers: auth() });
    expect(res.json).toEqual({ success: true, status: 'cancelled' });
    expect((await waitDone(second)).status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(5_000);

    llm.enqueue({ content: '{"third": true}' });
    expect(await waitDone(first)).toMatchObject({ status: 'completed', data: { first: true } });
    const thirdDone = await waitDone(third);
    expect(thirdDone).toMatchObject({ status: 'completed', data: { third: true } });
    // The cancelled job never reached the LLM; the third says in its trace that it waited.
    expect(llm.chats().length - chatsBefore).toBe(1);
    const events = (await get(`/v2/agent/${third}/trace`)).events as Json[];
    expect(events.some((e) => e.type === 'progress.reported' && String(e.message).includes('concurrent places'))).toBe(true);
  }, 60_000);
});
