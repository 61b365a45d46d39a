/**
 * Closing the crawl queue on Redis (src/web/crawl/bullmq-queue.ts `close`) while a ticket's
 * completion is on its way to Redis. BullMQ asks for the next ticket with the completion
 * (`moveToFinished` with fetchNext, decided before the close began); when the answer comes, the
 * closing worker's main loop has already ended (another ticket, put back by the close, woke it),
 * and BullMQ 5.47 never runs that ticket: it stayed active under a lock nobody renews, for
 * BullMQ's lock duration (30 s) and up to two stalled checks (30 s apart). A page ticket kept its
 * URL `running` that long; a job's seed ticket kept the job from starting, and from being
 * seeded again by the next start (same job id): the likely cause of a CI timeout, a batch
 * restarted after stopping both services (test/web/crawl-redis.test.ts) still waiting at 60 s.
 *
 * The interleaving is made exact here: the first page ticket's completion is held just before it
 * goes to Redis (BullMQ's own `Scripts.moveToFinished`, the real Redis behind it) until the
 * service is closing and its other ticket has been put back; the completion then brings back the
 * seed ticket of a second batch started meanwhile. A service started after must run that batch
 * at once.
 *
 * And a ticket no worker finishes because its process died, twice: BullMQ's stalled check fails
 * it (whatever its attempts left); its URL is recorded as failed so that the job still ends. And
 * a page whose host lock cannot be let go still gives its place in the job back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { Scripts } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { startService, type Service } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { createLogger } from '../../src/log.ts';
import { CRAWL_QUEUE_NAME, CRAWL_QUEUE_PREFIX } from '../../src/web/crawl/bullmq-queue.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { startSite, type TestSite } from './site.ts';

let redis: TestRedis;
let site: TestSite;
let dataDir: string;
let storeEnv: Record<string, string> = {};
let key = '';
const services: Service[] = [];

async function start(env: Record<string, string> = {}): Promise<{ service: Service; client: Firecrawl }> {
  const config = loadConfig({ DATA_DIR: dataDir, ...storeEnv, PORT: '0', HOST: '127.0.0.1', FOLIO_FETCH_ALLOW: site.hostPort, REDIS_URL: redis.url, ...env });
  const service = await startService(config, { logger: createLogger({ level: 'silent' }), graceMs: 2000, runner: inProcessRunner() });
  services.push(service);
  if (!key) {
    key = generateApiKey();
    const team = await service.store.ensureTeam('redis-close-team');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  }
  return { service, client: new Firecrawl({ apiKey: key, apiUrl: service.url }) };
}

/** Resolves when `done()` holds (checked every 10 ms); rejects with `what` after `ms`. */
async function until(done: () => boolean | Promise<boolean>, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`still waiting after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** `promise`, or a rejection naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  redis = await startRedis();
  site = await startSite({ pages: 2 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-crawl-redis-close-'));
  storeEnv = await testStoreEnv(dataDir);
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.shutdown();
});
afterAll(async () => {
  await site.close();
  await redis.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('closing the crawl queue on Redis', () => {
  it('a ticket fetched with a completion as the worker closes goes back to wait: a service started after runs its job at once', async () => {
    const keys = new Redis(redis.url);
    const queueKey = `${CRAWL_QUEUE_PREFIX}:${CRAWL_QUEUE_NAME}`;
    const moveToFinished = Scripts.prototype.moveToFinished;
    let reached: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (reached = resolve));
    // The first page ticket's completion, asking for the next ticket (BullMQ read `closing` as
    // false when it wrote the arguments), is held before it goes to Redis until the worker is
    // closing and the other page ticket has been put back (its processing ended: the worker's
    // main loop woke up and ended).
    let armed = true;
    Scripts.prototype.moveToFinished = async function (this: Scripts, jobId: string, args: Parameters<typeof moveToFinished>[1]) {
      const at = args.indexOf(jobId);
      if (armed && !jobId.startsWith('seed-') && args[at + 4] === 'completed' && args[at + 5] === 1) {
        armed = false;
        reached();
        // BullMQ's Worker (the scripts' queue): `closing` is set the moment close() is called.
        const worker = (this as unknown as { queue: { closing?: unknown } }).queue;
        await until(async () => Boolean(worker.closing) && (await keys.zcard(`${queueKey}:delayed`)) === 1, 'the worker to close and put the slow page back', 30_000);
        await new Promise((r) => setTimeout(r, 100));
      }
      return moveToFinished.call(this, jobId, args);
    };
    try {
      // Two tickets at once, two pages: one answers at once, the other (6 s) is still loading at the close.
      const a = await start({ FOLIO_CRAWL_CONCURRENCY: '2' });
      const first = await a.client.startBatchScrape([`${site.url}/slow?ms=10&first=1`, `${site.url}/slow?ms=6000&first=2`]);
      await within(held, 20_000, 'the first page ticket to complete (does the test patch the bullmq module the service loads?)');
      // Both places are taken: the second batch's seed ticket waits in Redis.
      const second = await a.client.startBatchScrape([`${site.url}/slow?ms=10&second=1`, `${site.url}/slow?ms=10&second=2`]);
      await a.service.shutdown();
      Scripts.prototype.moveToFinished = moveToFinished;

      // Nothing is left active under the closed worker's lock; the seed waits for a worker.
      expect(await keys.lrange(`${queueKey}:active`, 0, -1)).toEqual([]);
      expect(await keys.lrange(`${queueKey}:wait`, 0, -1)).toContain(`seed-${second.id}`);
      const c = await start();
      // Well under BullMQ's 30 s lock: the job is not waiting for a stalled check.
      await until(async () => (await c.client.getBatchScrapeStatus(second.id)).status !== 'scraping', 'the second batch to finish after the restart', 20_000);
      const end = await c.client.getBatchScrapeStatus(second.id);
      expect(end.status).toBe('completed');
      expect(end.completed).toBe(2);
      // The first batch's slow page was put back with its URL and is done by the new service.
      await until(async () => (await c.client.getBatchScrapeStatus(first.id)).status !== 'scraping', 'the first batch to finish after the restart', 20_000);
      expect((await c.client.getBatchScrapeStatus(first.id)).completed).toBe(2);
    } finally {
      Scripts.prototype.moveToFinished = moveToFinished;
      keys.disconnect();
    }
  });
});

describe('a ticket whose process stopped twice without handing it back', () => {
  it('is failed by the stalled check, and its URL with it: the job still ends', async () => {
    const keys = new Redis(redis.url);
    const q = `${CRAWL_QUEUE_PREFIX}:${CRAWL_QUEUE_NAME}`;
    try {
      const a = await start({ FOLIO_CRAWL_CONCURRENCY: '1' });
      const url = `${site.url}/slow?ms=5000&stalled=1`;
      const { id } = await a.client.startBatchScrape([url]);
      await until(async () => (await a.service.store.crawlCounts(id)).running === 1, 'the page to be claimed', 10_000);
      // Stopped while the page loads, the ticket goes back with its URL (delayed, due now).
      await a.service.shutdown();
      const [ticket] = await keys.zrange(`${q}:delayed`, 0, -1);
      expect(JSON.parse((await keys.hget(`${q}:${ticket ?? ''}`, 'data')) ?? '{}')).toMatchObject({ crawlId: id, url });
      // What a process dying with the ticket leaves, after a first such stop and a stalled check
      // since (BullMQ's keys): the ticket active without a lock, marked by the check, stalled once.
      await keys.zrem(`${q}:delayed`, ticket ?? '');
      await keys.lpush(`${q}:active`, ticket ?? '');
      await keys.sadd(`${q}:stalled`, ticket ?? '');
      await keys.hset(`${q}:${ticket ?? ''}`, 'stalledCounter', '1');
      await keys.del(`${q}:stalled-check`);

      // A worker's first stalled check runs as it starts: the ticket is failed for good.
      const c = await start();
      await until(async () => (await c.client.getBatchScrapeStatus(id)).status !== 'scraping', 'the batch to end', 15_000);
      expect((await c.client.getBatchScrapeStatus(id)).status).toBe('completed');
      const { errors } = await c.client.getBatchScrapeErrors(id);
      expect(errors).toEqual([expect.objectContaining({ url, error: 'the page could not be scraped: the process scraping it stopped twice without handing it back' })]);
    } finally {
      keys.disconnect();
    }
  });
});

describe('a page whose host cannot be left', () => {
  it('still gives its place in the job back', async () => {
    const keys = new Redis(redis.url);
    try {
      const a = await start();
      // A delay: the page takes the host's lock in Redis, and lets it go after.
      const { id } = await a.client.startCrawl(`${site.url}/slow?ms=1500&host-lock=1`, { limit: 1, delay: 0.1, sitemap: 'skip' });
      const lock = `${CRAWL_QUEUE_PREFIX}:crawl:${id}:host:${site.hostPort}:lock`;
      await until(async () => (await keys.exists(lock)) === 1, 'the page to take the host', 10_000);
      // Letting the host go fails (Redis answers WRONGTYPE to the release script's GET).
      await keys.del(lock);
      await keys.rpush(lock, 'not a lock');
      await until(async () => (await a.client.getCrawlStatus(id)).status !== 'scraping', 'the crawl to end', 15_000);
      expect((await a.client.getCrawlStatus(id)).status).toBe('completed');
      // Its place is free: kept, it would hold one of the job's places for 10 min.
      await until(async () => (await keys.zcard(`${CRAWL_QUEUE_PREFIX}:crawl:${id}:slots`)) === 0, 'the page to give its place back', 5_000);
    } finally {
      keys.disconnect();
    }
  });
});
