/**
 * The shared limits of src/limits/redis against a real redis-server (docs/scale-out.md): two
 * "instances" are two connections with their own queue objects. The sliding window (refused
 * requests not counted, Retry-After, prefixed expiring keys), the team places (a semaphore held
 * across instances, FIFO across them, woken by pub/sub not by the poll, a killed instance's lease
 * back after its TTL, timeouts and aborts leaving the queue, the queue bound counting every
 * instance), the fixed-window counters (hashed keys) and the OAuth sign-in limit over them, and a
 * Redis that stops answering: 503
 * LIMITS_UNAVAILABLE at once.
 */
import { Redis } from 'ioredis';
import { createSignInAttemptLimit } from '../../auth/sign-in-attempts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.ts';
import { FREED_CHANNEL, openSharedLimits, redisRateWindow, RedisTeamQueue, redisWindowCounter } from '../../src/limits/redis/index.ts';
import type { AcquireOptions, Lease } from '../../src/limits/teams/index.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';

let redis: TestRedis;
const clients: Redis[] = [];
const errors: string[] = [];

function connect(): Redis {
  const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  clients.push(c);
  return c;
}

/** An instance's queue: its own connection, and its own subscriber relaying freed places. */
async function instance(options: { leaseTtlMs?: number; pollMs?: number } = {}): Promise<{ queue: RedisTeamQueue; client: Redis; subscriber: Redis }> {
  const client = connect();
  const subscriber = connect();
  const queue = new RedisTeamQueue(client, { leaseTtlMs: options.leaseTtlMs ?? 30_000, pollMs: options.pollMs ?? 10_000, onError: (err) => errors.push(String(err)) });
  subscriber.on('message', (channel: string, team: string) => {
    if (channel === FREED_CHANNEL) queue.freed(team);
  });
  await subscriber.subscribe(FREED_CHANNEL);
  return { queue, client, subscriber };
}

const options = (extra: Partial<AcquireOptions> = {}): AcquireOptions => ({
  limit: 1,
  maxQueued: 10,
  refuse: (s) => new ServiceError('RATE_LIMITED', `queue full, retry in ${s}`, { retryAfterSeconds: s }),
  expire: (ms) => new ServiceError('SCRAPE_TIMEOUT', `waited ${ms}`),
  ...extra,
});

const settled = async (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => 'done', () => 'failed'), new Promise((r) => setTimeout(() => r('pending'), ms))]);

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis?.stop();
});

describe('sliding rate window in Redis', () => {
  it('admits `limit` requests across instances, refuses the next with the wait until the oldest leaves, and does not count refusals', async () => {
    const [a, b] = [redisRateWindow(connect(), 'team'), redisRateWindow(connect(), 'team')];
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await (i % 2 === 0 ? a : b).hit('team_window', 3));
    expect(answers.map((d) => d.admitted)).toEqual([true, true, true, false, false]);
    const refused = answers[3] as { admitted: false; retryAfterSeconds: number };
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(58);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    const raw = connect();
    expect(await raw.zcard('folio:rate:team:{team_window}')).toBe(3);
    const ttl = await raw.pttl('folio:rate:team:{team_window}');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('slides: a request admitted once the window passed; undo takes a request back out', async () => {
    const w = redisRateWindow(connect(), 'keyless', { windowMs: 800 });
    expect((await w.hit('client', 2)).admitted).toBe(true);
    const second = await w.hit('client', 2);
    expect((await w.hit('client', 2)).admitted).toBe(false);
    if (second.admitted) await second.undo();
    expect((await w.hit('client', 2)).admitted).toBe(true);
    expect((await w.hit('client', 2)).admitted).toBe(false);
    await new Promise((r) => setTimeout(r, 900));
    expect((await w.hit('client', 2)).admitted).toBe(true);
  });
});

describe('team places in Redis', () => {
  it('maxConcurrent 1 holds across two instances; a freed place wakes the other instance by message, not by its poll', async () => {
    const [a, b] = [await instance(), await instance()];
    const held = await a.queue.acquire('team_sem', options());
    expect(held.waited).toBe(false);
    const waiting = b.queue.acquire('team_sem', options());
    expect(await settled(waiting, 400)).toBe('pending');
    expect(await a.queue.stats('team_sem')).toMatchObject({ running: 1, waiting: 1 });
    const freedAt = Date.now();
    held.release(true);
    const next = await waiting;
    const wakeMs = Date.now() - freedAt;
    // The poll is 10 s here: only the freed-place message explains a start this soon.
    expect(wakeMs).toBeLessThan(2_000);
    console.log(`team place handed across instances in ${wakeMs} ms (pub/sub wake)`);
    expect(next.waited).toBe(true);
    expect(next.waitedMs).toBeGreaterThanOrEqual(300);
    const stats = await b.queue.stats('team_sem');
    expect(stats).toMatchObject({ running: 1, waiting: 0 });
    expect(stats.mostRecentSuccess).toBeInstanceOf(Date);
    next.release();
    await new Promise((r) => setTimeout(r, 100));
    expect(await b.queue.stats('team_sem')).toMatchObject({ running: 0, waiting: 0 });
  });

  it('waiting jobs start in arrival order whichever instance they wait on', async () => {
    const [a, b] = [await instance(), await instance()];
    const first = await a.queue.acquire('team_fifo', options());
    const order: string[] = [];
    const queued: Promise<Lease>[] = [];
    for (const [name, on] of [['b1', b], ['a1', a], ['b2', b], ['a2', a]] as const) {
      queued.push(
        on.queue.acquire('team_fifo', options()).then((lease) => {
          order.push(name);
          return lease;
        }),
      );
      // Arrival order is the order the script sees them: one after the other.
      await new Promise((r) => setTimeout(r, 50));
    }
    first.release();
    for (const p of queued) (await p).release();
    expect(order).toEqual(['b1', 'a1', 'b2', 'a2']);
  });

  it('the queue bound counts the waiting jobs of every instance', async () => {
    const [a, b] = [await instance(), await instance()];
    const held = await a.queue.acquire('team_bound', options({ maxQueued: 1 }));
    const waiting = b.queue.acquire('team_bound', options({ maxQueued: 1 }));
    await new Promise((r) => setTimeout(r, 100));
    const refused = await a.queue.acquire('team_bound', options({ maxQueued: 1 })).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe('RATE_LIMITED');
    held.release();
    (await waiting).release();
  });

  it('a timed-out or aborted waiter leaves the queue and the next one moves up', async () => {
    const [a, b] = [await instance(), await instance()];
    const held = await a.queue.acquire('team_leave', options());
    const late = b.queue.acquire('team_leave', options({ timeoutMs: 300 }));
    const controller = new AbortController();
    const aborted = b.queue.acquire('team_leave', options({ signal: controller.signal }));
    const patient = a.queue.acquire('team_leave', options());
    await expect(late).rejects.toMatchObject({ code: 'SCRAPE_TIMEOUT' });
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toThrow('client went away');
    await new Promise((r) => setTimeout(r, 100));
    expect(await a.queue.stats('team_leave')).toMatchObject({ running: 1, waiting: 1 });
    held.release();
    (await patient).release();
  });

  it('the place of a killed instance (no release, no renewal) comes back once its lease expires', async () => {
    const killed = await instance({ leaseTtlMs: 1_000 });
    const survivor = await instance({ leaseTtlMs: 1_000, pollMs: 200 });
    await killed.queue.acquire('team_killed', options());
    // Killed: its renewals stop and its connections drop without a word.
    killed.queue.close();
    killed.client.disconnect();
    killed.subscriber.disconnect();
    const started = Date.now();
    const lease = await survivor.queue.acquire('team_killed', options({ timeoutMs: 10_000 }));
    const waitedMs = Date.now() - started;
    expect(lease.waited).toBe(true);
    // Held until its lease ran out (1 s from when it was taken), then handed over by the poll.
    expect(waitedMs).toBeGreaterThanOrEqual(500);
    expect(waitedMs).toBeLessThan(3_000);
    lease.release();
  });

  it('a running lease is renewed while its job runs past the TTL', async () => {
    const [a, b] = [await instance({ leaseTtlMs: 600 }), await instance({ leaseTtlMs: 600, pollMs: 100 })];
    const held = await a.queue.acquire('team_renew', options());
    const waiting = b.queue.acquire('team_renew', options());
    expect(await settled(waiting, 1_800)).toBe('pending');
    held.release();
    (await waiting).release();
    expect(errors.filter((e) => e.includes('team_renew'))).toEqual([]);
  });
});

describe('fixed-window counters in Redis', () => {
  it('counts per key across instances, reports the window end, clears, and stores only hashed keys', async () => {
    const [a, b] = [redisWindowCounter(connect()), redisWindowCounter(connect())];
    expect(await a.add('sign-in:email:someone@example.com', 60_000)).toMatchObject({ count: 1 });
    const second = await b.add('sign-in:email:someone@example.com', 60_000);
    expect(second.count).toBe(2);
    expect(second.resetInMs).toBeGreaterThan(55_000);
    expect((await a.peek('sign-in:email:someone@example.com')).count).toBe(2);
    const keys = await connect().keys('folio:count:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('example.com');
    await b.clear('sign-in:email:someone@example.com');
    expect(await a.peek('sign-in:email:someone@example.com')).toEqual({ count: 0, resetInMs: 0 });
  });
});

describe('OAuth sign-in attempts on Redis', () => {
  it('failures recorded on one instance lock the email on the other; a success clears it', async () => {
    const [a, b] = [createSignInAttemptLimit({ counter: redisWindowCounter(connect()) }), createSignInAttemptLimit({ counter: redisWindowCounter(connect()) })];
    for (let i = 0; i < 5; i++) await (i % 2 === 0 ? a : b).recordFailure(`10.0.0.${i}`, 'guessed@example.com');
    const wait = await b.retryAfterSeconds('10.0.0.9', 'guessed@example.com');
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(await a.retryAfterSeconds('10.0.0.9', 'other@example.com')).toBe(0);
    await a.recordSuccess('guessed@example.com');
    expect(await b.retryAfterSeconds('10.0.0.9', 'guessed@example.com')).toBe(0);
  });
});

describe('Redis unreachable', () => {
  it('a start against a Redis that does not answer fails naming REDIS_URL, password redacted', async () => {
    const err = await openSharedLimits('redis://user:s3cret-pass@127.0.0.1:1/0', { leaseTtlMs: 30_000, onError: () => undefined }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/^Cannot reach Redis at REDIS_URL=redis:\/\/\*\*\*@127\.0\.0\.1:1\/0 /);
    expect(err?.message).not.toContain('s3cret');
  });

  it('once Redis stops answering, a check fails at once with 503 LIMITS_UNAVAILABLE (not let through, not hanging)', async () => {
    const own = await startRedis();
    const shared = await openSharedLimits(own.url, { leaseTtlMs: 30_000, onError: () => undefined });
    try {
      expect((await shared.teamRate.hit('team_down', 5)).admitted).toBe(true);
      await own.stop();
      const started = Date.now();
      const failures = await Promise.all([
        shared.teamRate.hit('team_down', 5).then(() => undefined, (err: unknown) => err),
        shared.teamPlaces.acquire('team_down', options()).then(() => undefined, (err: unknown) => err),
        shared.counter.add('register:ip:127.0.0.1', 60_000).then(() => undefined, (err: unknown) => err),
      ]);
      expect(Date.now() - started).toBeLessThan(3_000);
      for (const err of failures) {
        expect(err).toBeInstanceOf(ServiceError);
        expect(err).toMatchObject({ code: 'LIMITS_UNAVAILABLE', status: 503, retryAfterSeconds: 5 });
        expect((err as Error).message).toMatch(/Redis \(REDIS_URL\)/);
      }
    } finally {
      await shared.close();
    }
  });
});
