/**
 * Closing the crawl queue on Redis (src/web/crawl/bullmq-queue.ts `close`) while a ticket's
 * completion is on its way to Redis. BullMQ asks for the next ticket with the completion
 * (`moveToFinished` with fetchNext, decided before the close began); when the answer comes, the
 * closing worker's main loop has already ended (another ticket, put back by the close, woke it),
 * and BullMQ 5.47 never runs that ticket: it stayed active under a lock nobody renews, for
 * BullMQ's lock duration (30 s) and up to two stalled checks (30 s apart). A page ticket kept its
 * URL `running` that long; a job's seed ticket kept the job from starting, and from being
 * seeded again by the next start (same job id). CI saw a batch restarted after stopping both
 * services wait past the test's 60 s.
 *
 * The interleaving is made exact here: the first page ticket's completion is held just before it
 * goes to Redis (BullMQ's own `Scripts.moveToFinished`, the real Redis behind it) until the
 * service is closing and its other ticket has been put back; the completion then brings back the
 * seed ticket of a second batch started meanwhile. A service started after must run that batch
 * at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { Scripts } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
afterAll(async () => {
  for (const s of services) await s.shutdown();
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
      await until(async () => (await c.client.getBatchScrapeStatus(first.id)).status !== 'scraping', 'the first batch to finish after the restart', 40_000);
      expect((await c.client.getBatchScrapeStatus(first.id)).completed).toBe(2);
    } finally {
      Scripts.prototype.moveToFinished = moveToFinished;
      keys.disconnect();
    }
  });
});
