/**
 * Two folio instances on one PostgreSQL and one Redis (REDIS_URL), through their HTTP ports: the
 * limits hold across both (docs/scale-out.md "Redis: shared limits"). A team's rate limit (5 per
 * minute): the sixth request, sent to either, is 429 with Retry-After. A team's concurrency limit
 * (maxConcurrent 1, a slow loopback page): the scrape sent to the other instance waits for the
 * first, says it waited, and queue status read on either counts both. The keyless per-minute rate
 * and the OAuth registration limit per address hold across both. The place of an instance killed
 * with SIGKILL mid-scrape comes back once its lease expires (FOLIO_LIMITS_LEASE_TTL_SECONDS). When
 * Redis stops answering, a limited request is 503 LIMITS_UNAVAILABLE with Retry-After; once it is
 * back, requests pass again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { request, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let cluster: TestPostgres;
let redis: TestRedis;
let site: TestSite;
let databaseUrl: string;
let a: TestService;
let b: TestService;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

const shared = () => ({
  DATABASE_URL: databaseUrl,
  REDIS_URL: redis.url,
  FOLIO_FETCH_ALLOW: site.hostPort,
  FOLIO_KEYLESS_RATE_PER_MINUTE: '3',
  FOLIO_OAUTH_REGISTRATIONS_PER_MINUTE: '3',
});

beforeAll(async () => {
  [cluster, redis, site] = await Promise.all([startPostgres(), startRedis(), startSite()]);
  databaseUrl = await cluster.createDatabase();
  a = await startTestService({}, shared());
  b = await startTestService({}, shared());
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await a?.stop();
  await b?.stop();
  await site?.close();
  await redis?.stop();
  await cluster?.stop();
  for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A key of a new team with the given plan limits. */
async function teamKey(name: string, plan: { ratePerMinute?: number; maxConcurrent?: number }): Promise<string> {
  const { key } = await a.createKey(name);
  const teamId = (await a.store.findTeamByName(name))?.id ?? '';
  await a.store.updateTeamPlan(teamId, plan, new Date());
  return key;
}

const get = (service: { url: string }, key: string, p: string) => request(`${service.url}${p}`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });

const scrape = (service: { url: string }, key: string, url: string) =>
  request(`${service.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
    body: Buffer.from(JSON.stringify({ url, timeout: 60_000 })),
    timeoutMs: 60_000,
  });

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

const metadataOf = (res: RawResponse) => (res.json.data as { metadata: Record<string, unknown> }).metadata;

describe('limits shared by two instances through Redis', () => {
  it('a team rate limit of 5 per minute holds across both: the sixth request, on either, is 429 with Retry-After', async () => {
    const key = await teamKey('rate-team', { ratePerMinute: 5 });
    const answers: RawResponse[] = [];
    for (let i = 0; i < 5; i++) answers.push(await get(i % 2 === 0 ? a : b, key, '/v2/concurrency-check'));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const service of [b, a]) {
      const refused = await get(service, key, '/v2/concurrency-check');
      expect(refused.status, refused.text).toBe(429);
      expect(refused.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
      expect(String(refused.json.error)).toMatch(/allows 5 requests per minute/);
      const retry = Number(refused.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(55);
      expect(retry).toBeLessThanOrEqual(60);
    }
  });

  it('a team concurrency limit of 1 holds across both: the scrape sent to the other instance waits for the first, and queue status on either counts both', async () => {
    const key = await teamKey('busy-team', { maxConcurrent: 1 });
    const first = scrape(a, key, `${site.url}/slow?ms=2000`);
    await until('the slow scrape on A holds the place', async () => (await get(b, key, '/v2/team/queue-status')).json.activeJobsInQueue === 1);
    const started = Date.now();
    const second = scrape(b, key, `${site.url}/about.html`);
    await until('the scrape on B waits', async () => (await get(a, key, '/v2/team/queue-status')).json.waitingJobsInQueue === 1);
    expect((await get(a, key, '/v2/concurrency-check')).json).toMatchObject({ concurrency: 1, maxConcurrency: 1 });
    const [one, two] = await Promise.all([first, second]);
    expect(one.status, one.text).toBe(200);
    expect(two.status, two.text).toBe(200);
    expect(metadataOf(one).concurrencyLimited).toBeUndefined();
    expect(metadataOf(two).concurrencyLimited).toBe(true);
    expect(Number(metadataOf(two).concurrencyQueueDurationMs)).toBeGreaterThan(500);
    expect(Date.now() - started).toBeGreaterThan(500);
    const after = await get(b, key, '/v2/team/queue-status');
    expect(after.json).toMatchObject({ activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 1 });
    expect(after.json.mostRecentSuccess).toEqual(expect.any(String));
  });

  it('the keyless per-minute rate holds across both (3 tool calls per client, then a tool error on either)', async () => {
    const [onA, onB] = [await connectMcp(`${a.url}/v2/mcp`), await connectMcp(`${b.url}/v2/mcp`)];
    try {
      for (const client of [onA, onB, onA]) {
        const ok = await client.callTool({ name: 'parse', arguments: {} });
        expect(structuredOf(ok).code, textOf(ok)).toBe('BAD_REQUEST');
      }
      for (const client of [onB, onA]) {
        const limited = await client.callTool({ name: 'parse', arguments: {} });
        expect(limited.isError).toBe(true);
        expect(structuredOf(limited).code).toBe('RATE_LIMITED');
        expect(textOf(limited)).toMatch(/^Keyless rate limit reached: 3 tool calls per minute per client/);
      }
    } finally {
      await onA.close();
      await onB.close();
    }
  });

  it('the OAuth client registration limit per address holds across both', async () => {
    const register = (service: TestService) =>
      request(`${service.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ client_name: 'shared limit', redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none' })),
      });
    const statuses = [];
    for (const service of [a, b, a, b]) statuses.push((await register(service)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const refused = await register(a);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('the place of an instance killed with SIGKILL mid-scrape comes back once its lease expires', async () => {
    const key = await teamKey('killed-team', { maxConcurrent: 1 });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-redis-kill-'));
    dataDirs.push(dataDir);
    const env = { ...process.env, ...shared(), DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', FOLIO_MAX_CONCURRENT_PARSES: '1', FOLIO_LIMITS_LEASE_TTL_SECONDS: '2' };
    // Node itself with tsx's loader (not the tsx wrapper): SIGKILL must reach the server process.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await until('the third instance listens', async () => /"url":"http:\/\/127\.0\.0\.1:\d+"/.test(out), 90_000);
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1] ?? '';

    const doomed = scrape({ url }, key, `${site.url}/slow?ms=60000`).catch((err: unknown) => err);
    await until('the killed instance holds the place', async () => (await get(a, key, '/v2/team/queue-status')).json.activeJobsInQueue === 1);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await doomed;
    // Nobody gave the place back: it is still held, until its lease (2 s) runs out.
    expect((await get(a, key, '/v2/team/queue-status')).json.activeJobsInQueue).toBe(1);
    const started = Date.now();
    const after = await scrape(b, key, `${site.url}/about.html`);
    const waitedMs = Date.now() - started;
    expect(after.status, after.text).toBe(200);
    expect(metadataOf(after).concurrencyLimited).toBe(true);
    expect(waitedMs).toBeLessThan(15_000);
    console.log(`a killed instance's place came back after ${waitedMs} ms (lease TTL 2 s, poll 1 s)`);
  }, 150_000);

  it('when Redis stops answering, a limited request is 503 LIMITS_UNAVAILABLE with Retry-After (not served unchecked) and /ready says redis; once it is back, requests pass again', async () => {
    let own = await startRedis();
    let stopMs = Number.POSITIVE_INFINITY;
    const c = await startTestService({}, { ...shared(), REDIS_URL: own.url });
    try {
      const { key } = await c.createKey('redis-down-team');
      const teamId = (await c.store.findTeamByName('redis-down-team'))?.id ?? '';
      await c.store.updateTeamPlan(teamId, { ratePerMinute: 100 }, new Date());
      expect((await get(c, key, '/v2/concurrency-check')).status).toBe(200);
      await own.stop();
      const started = Date.now();
      const refused = await get(c, key, '/v2/concurrency-check');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(refused.status, refused.text).toBe(503);
      expect(refused.json).toMatchObject({ success: false, code: 'LIMITS_UNAVAILABLE' });
      expect(String(refused.json.error)).toMatch(/cannot be checked right now, because Redis does not answer/);
      expect(refused.headers['retry-after']).toBe('5');
      const ready = await request(`${c.url}/ready`);
      expect(ready.status).toBe(503);
      expect(ready.json).toMatchObject({ ready: false, checks: { redis: expect.any(String) } });
      // Redis back where it was: the connection comes back by itself.
      own = await startRedis({ port: own.port });
      await until('requests pass again', async () => (await get(c, key, '/v2/concurrency-check')).status === 200, 30_000);
    } finally {
      // Once its Redis went away, BullMQ's close waits for commands that never complete: the crawl
      // queue drops its connections after 10 s (src/web/crawl/bullmq-queue.ts), so the stop ends.
      const stopping = Date.now();
      await c.stop();
      stopMs = Date.now() - stopping;
      await own.stop();
    }
    expect(stopMs).toBeLessThan(20_000);
  }, 120_000);
});
