/**
 * Crawl jobs on BullMQ over a real redis-server (started by the test): two folio services on the
 * same DATA_DIR and Redis share one crawl page by page (the Firecrawl SDK's crawl() unchanged),
 * a job survives stopping every service mid-crawl, a cancel on one service stops the other, and an
 * unreachable REDIS_URL fails the start with a message naming it (password redacted). Parsing
 * runs in-process (no worker pools to warm up per service): what is under test is the queue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Firecrawl from '@mendable/firecrawl-js';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { startService, type Service } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { createLogger } from '../../src/log.ts';
import { CRAWL_QUEUE_NAME, CRAWL_QUEUE_PREFIX } from '../../src/web/crawl/bullmq-queue.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { refusedPort } from '../helpers/refused-port.ts';
import { startSite, type TestSite } from './site.ts';

interface Instance {
  service: Service;
  client: Firecrawl;
  /** Pages this instance's worker scraped (its debug log lines). */
  pagesScraped(): number;
}

let redis: TestRedis;
let site: TestSite;
let dataDir: string;
let key: string;
let running: Instance[] = [];
/** DATABASE_URL in the postgres+redis project (the test's own redis-server stays its REDIS_URL). */
let storeEnv: Record<string, string> = {};

function configFor(env: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: dataDir,
    ...storeEnv,
    PORT: '0',
    HOST: '127.0.0.1',
    FOLIO_FETCH_ALLOW: site.hostPort,
    FOLIO_CRAWL_CONCURRENCY: '3',
    REDIS_URL: redis.url,
    ...env,
  });
}

async function startInstance(): Promise<Instance> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      cb();
    },
  });
  const service = await startService(configFor(), { logger: createLogger({ level: 'debug', destination }), graceMs: 2000, runner: inProcessRunner() });
  if (!key) {
    key = generateApiKey();
    const team = await service.store.ensureTeam('redis-team');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  }
  const instance = {
    service,
    client: new Firecrawl({ apiKey: key, apiUrl: service.url }),
    pagesScraped: () => lines.filter((l) => (JSON.parse(l) as { msg?: string }).msg === 'crawl page scraped').length,
  };
  running.push(instance);
  return instance;
}

async function stopAll(): Promise<void> {
  const all = running;
  running = [];
  await Promise.all(all.map((i) => i.service.shutdown()));
}

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  let v = await read();
  while (!done(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

/**
 * Where a multi-service test is when a phase runs past its bound: every `scraping` job's URL
 * counts in the store, and the crawl queue in Redis (tickets waiting, delayed, and each active
 * one with its job, URL and lock: the worker holding it and the ms left, or none: stalled).
 */
async function queueSnapshot(store: Service['store'] | undefined): Promise<string> {
  const lines: string[] = [];
  const jobs: string[] = [];
  if (store) {
    try {
      for (const job of await store.listCrawlJobs({ status: 'scraping' })) {
        jobs.push(job.id);
        lines.push(`job ${job.id} (${job.kind}) ${JSON.stringify(await store.crawlCounts(job.id))}`);
      }
    } catch (err) {
      lines.push(`store not read: ${(err as Error).message}`);
    }
  } else lines.push('store: no service running');
  const keys = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  try {
    const q = `${CRAWL_QUEUE_PREFIX}:${CRAWL_QUEUE_NAME}`;
    lines.push(`redis: wait ${await keys.llen(`${q}:wait`)}, delayed ${await keys.zcard(`${q}:delayed`)}`);
    // The job's places (src/web/crawl/redis-gates.ts): holders and their lease's end.
    for (const id of jobs) lines.push(`places of ${id}: ${JSON.stringify(await keys.zrange(`${CRAWL_QUEUE_PREFIX}:crawl:${id}:slots`, 0, -1, 'WITHSCORES'))}`);
    for (const id of await keys.lrange(`${q}:active`, 0, -1)) {
      const [name, data] = await keys.hmget(`${q}:${id}`, 'name', 'data');
      const lock = await keys.get(`${q}:${id}:lock`);
      const ttl = await keys.pttl(`${q}:${id}:lock`);
      lines.push(`active ${id} ${name ?? '?'} ${data ?? ''} lock ${lock ? `${lock.split(':')[0]?.slice(0, 8)}… ${ttl} ms left` : 'none (stalled)'}`);
    }
  } catch (err) {
    lines.push(`redis not read: ${(err as Error).message}`);
  } finally {
    keys.disconnect();
  }
  return lines.join('\n  ');
}

/**
 * `work` within `ms`, else an error naming the phase and where the jobs and the queue are (a CI
 * timeout said only "timed out in 60000ms"). `store`: read at that moment.
 */
async function phase<T>(name: string | (() => string), ms: number, store: () => Service['store'] | undefined, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const began = Date.now();
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    const first = await Promise.race([work.then((v) => ({ v })), late]);
    if (first !== 'late') return first.v;
  } finally {
    clearTimeout(timer);
  }
  work.catch(() => undefined);
  throw new Error(`phase "${typeof name === 'string' ? name : name()}" still waiting after ${Date.now() - began} ms:\n  ${await queueSnapshot(store())}`);
}

const sourceUrls = (data: { metadata?: { sourceURL?: string } }[]) => data.map((d) => d.metadata?.sourceURL ?? '');

beforeAll(async () => {
  redis = await startRedis();
  site = await startSite({ pages: 30 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-crawl-redis-'));
  storeEnv = await testStoreEnv(dataDir);
});
afterEach(stopAll);
afterAll(async () => {
  await stopAll();
  await site.close();
  await redis.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('crawl jobs on Redis (BullMQ)', () => {
  it('two services share one crawl: the SDK crawl() completes, every page once, both did part of it', async () => {
    const a = await startInstance();
    const b = await startInstance();
    const job = await a.client.crawl(`${site.url}/`, { limit: 60, scrapeOptions: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const urls = sourceUrls(job.data);
    expect(new Set(urls).size).toBe(urls.length);
    for (let n = 1; n <= 30; n++) expect(urls).toContain(`${site.url}/pages/${n}.html`);
    expect(urls).toContain(`${site.url}/article.html`);
    expect(urls).toContain(`${site.url}/docs/paper.pdf`);
    expect(urls).not.toContain(`${site.url}/private/secret.html`);
    expect(job.completed).toBe(urls.length);
    // Each page was fetched once by the pair (robots.txt and sitemaps aside).
    const fetched = site.requests.filter((r) => r.startsWith('/pages/'));
    expect(fetched.length).toBe(new Set(fetched).size);
    // The other service reports the same job.
    const seen = await b.client.getCrawlStatus(job.id ?? '');
    expect(seen.status).toBe('completed');
    expect(seen.completed).toBe(job.completed);
    expect(a.pagesScraped()).toBeGreaterThan(0);
    expect(b.pagesScraped()).toBeGreaterThan(0);
    expect(a.pagesScraped() + b.pagesScraped()).toBe(job.completed);
  });

  it('a job survives stopping every service mid-crawl and finishes after a new start', async () => {
    const a = await startInstance();
    await startInstance();
    // 0.1 s between two requests to the host (across both services) keeps the job running.
    const { id } = await a.client.startCrawl(`${site.url}/`, { delay: 0.1, limit: 40, sitemap: 'skip' });
    const before = await waitFor(() => a.client.getCrawlStatus(id), (s) => s.completed >= 4);
    expect(before.status).toBe('scraping');
    await stopAll();

    const c = await startInstance();
    const mid = await c.client.getCrawlStatus(id);
    expect(mid.status).toBe('scraping');
    const job = await waitFor(() => c.client.getCrawlStatus(id), (s) => s.status !== 'scraping');
    expect(job.status).toBe('completed');
    const urls = sourceUrls(job.data);
    expect(new Set(urls).size).toBe(urls.length);
    for (let n = 1; n <= 30; n++) expect(urls).toContain(`${site.url}/pages/${n}.html`);
    expect(job.completed).toBe(urls.length);
    const errors = await c.client.getCrawlErrors(id);
    expect(errors.errors.filter((e) => e.error === 'aborted')).toEqual([]);
  });

  it('a seed ticket that fails for good is issued once more; failing again, its job fails with a message (before: it stayed scraping until a restart)', async () => {
    const a = await startInstance();
    const store = a.service.store;
    const add = store.addCrawlUrls.bind(store);
    let refusals = 0;
    let calls = 0;
    // The seed's store write fails `refusals` times (BullMQ tries a ticket 3 times, 1 s and 2 s apart).
    store.addCrawlUrls = (...args) => {
      calls++;
      if (refusals > 0) {
        refusals--;
        return Promise.reject(new Error('the store refused the write'));
      }
      return add(...args);
    };
    try {
      refusals = 3;
      const first = await a.client.startCrawl(`${site.url}/pages/1.html`, { limit: 1, sitemap: 'skip' });
      const done = await waitFor(() => a.client.getCrawlStatus(first.id), (s) => s.status !== 'scraping');
      expect(done.status).toBe('completed');
      expect(calls).toBe(4);

      refusals = 6;
      calls = 0;
      const second = await a.client.startCrawl(`${site.url}/pages/2.html`, { limit: 1, sitemap: 'skip' });
      const failed = await waitFor(() => a.client.getCrawlStatus(second.id), (s) => s.status !== 'scraping');
      expect(failed.status).toBe('failed');
      expect(calls).toBe(6);
      expect((await store.getCrawlJob(second.id))?.error).toBe('The job could not be started: seeding it failed on an unexpected error (logged), twice. Start it again.');
    } finally {
      store.addCrawlUrls = add;
    }
  });

  it('the per-host delay holds across services; a cancel on one service stops the work on the other', async () => {
    const a = await startInstance();
    const b = await startInstance();
    // When each page request reaches the site (robots.txt is fetched by each service, ungated).
    const arrivals: number[] = [];
    const push = site.requests.push.bind(site.requests);
    site.requests.push = (...paths: string[]) => {
      for (const p of paths) if (p !== '/robots.txt') arrivals.push(performance.now());
      return push(...paths);
    };
    const { id } = await a.client.startCrawl(`${site.url}/`, { delay: 0.1, limit: 40, sitemap: 'skip' });
    let cancelled = false;
    try {
      await waitFor(() => b.client.getCrawlStatus(id), (s) => s.completed >= 5);
      expect(a.pagesScraped() + b.pagesScraped()).toBeGreaterThanOrEqual(5);
      const gaps = arrivals.slice(1).map((t, i) => t - (arrivals[i] ?? 0));
      // 100 ms between two starts (Redis's clock). The site sees each start plus the time its request
      // took to arrive, which on a loaded machine varies by tens of ms (CI: 87 ms once); without the
      // delay the two services' six places send together, a gap of a few ms.
      expect(Math.min(...gaps)).toBeGreaterThan(60);
      expect(await b.client.cancelCrawl(id)).toBe(true);
      cancelled = true;
      // A page already sent may still arrive; after that, nothing more from either service.
      await new Promise((r) => setTimeout(r, 300));
      const count = site.requests.length;
      await new Promise((r) => setTimeout(r, 1000));
      expect(site.requests.length).toBe(count);
      expect((await a.client.getCrawlStatus(id)).status).toBe('cancelled');
      expect(b.service.server.listening).toBe(true);
    } finally {
      site.requests.push = push;
      // Left scraping, the crawl would be resumed by the next test's services on the same store and Redis.
      if (!cancelled) await b.client.cancelCrawl(id).catch(() => undefined);
    }
  });

  it('batch scrape on Redis: two services share one batch, every URL once, and it survives stopping both; its watcher streams it', async () => {
    // Each phase has a bound (together under the test's 60 s) and, past it, says where it waited.
    const a = await startInstance();
    const b = await startInstance();
    const storeOf = (i?: Instance) => () => i?.service.store;
    const urls = Array.from({ length: 30 }, (_, i) => `${site.url}/pages/${i + 1}.html?batch=1`);
    const job = await phase('two services scrape the batch of 30', 15_000, storeOf(a), a.client.batchScrape(urls, { pollInterval: 1, timeout: 60 }));
    expect(job.status).toBe('completed');
    expect(sourceUrls(job.data).sort()).toEqual([...urls].sort());
    expect(a.pagesScraped()).toBeGreaterThan(0);
    expect(b.pagesScraped()).toBeGreaterThan(0);
    expect(a.pagesScraped() + b.pagesScraped()).toBe(30);
    const fetched = site.requests.filter((r) => r.includes('?batch=1'));
    expect(fetched.length).toBe(30);

    const slow = Array.from({ length: 16 }, (_, i) => `${site.url}/slow?ms=100&n=${i}`);
    const { id } = await b.client.startBatchScrape(slow, { maxConcurrency: 2 });
    const mid = await phase('the slow batch reaches 3 pages', 10_000, storeOf(a), waitFor(() => a.client.getBatchScrapeStatus(id), (s) => s.completed >= 3));
    expect(mid.completed).toBeGreaterThanOrEqual(3);
    // Shutdown is bounded by its grace (2 s) and the crawl queue's close bound (10 s).
    await phase('both services stop', 14_000, storeOf(), stopAll());
    const c = await startInstance();
    const docs: unknown[] = [];
    const watcher = c.client.watcher(id, { kind: 'batch', timeout: 60 });
    watcher.on('document', (d: unknown) => docs.push(d));
    const finished = new Promise<{ status: string }>((resolve, reject) => {
      watcher.on('done', resolve);
      watcher.on('error', reject);
      void watcher.start();
    });
    const done = await phase(() => `a third service finishes the slow batch (its watcher: ${docs.length} documents so far)`, 15_000, storeOf(c), finished).catch((err: unknown) => {
      watcher.close();
      throw err;
    });
    expect(done.status).toBe('completed');
    expect(docs).toHaveLength(16);
    const end = await c.client.getBatchScrapeStatus(id);
    expect(end.completed).toBe(16);
    expect(sourceUrls(end.data).sort()).toEqual([...slow].sort());
  });

  it('an unreachable REDIS_URL fails the start with a message naming it, without the password', async () => {
    const port = await refusedPort();
    const config = configFor({ REDIS_URL: `redis://folio:s3cret-pass@127.0.0.1:${port}/0` });
    const started = startService(config, { logger: createLogger({ level: 'silent' }), runner: inProcessRunner() });
    const err = await started.then(
      () => new Error('the service started'),
      (e: unknown) => e as Error,
    );
    expect(err.message).toContain(`REDIS_URL=redis://***@127.0.0.1:${port}/0`);
    expect(err.message).toContain('Cannot reach Redis');
    expect(err.message).not.toContain('s3cret-pass');
    // A password without a user name is hidden too; a URL that is not redis(s):// is refused.
    const bare = await startService(configFor({ REDIS_URL: `redis://:0nly-pass@127.0.0.1:${port}` }), { logger: createLogger({ level: 'silent' }), runner: inProcessRunner() }).then(
      () => new Error('the service started'),
      (e: unknown) => e as Error,
    );
    expect(bare.message).toContain(`REDIS_URL=redis://***@127.0.0.1:${port}`);
    expect(bare.message).not.toContain('0nly-pass');
    expect(() => configFor({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
  });

  it('FOLIO_CRAWL_LOCK_SECONDS is 30 by default, 5 to 600, refused outside naming it', () => {
    expect(configFor().crawlLockMs).toBe(30_000);
    expect(configFor({ FOLIO_CRAWL_LOCK_SECONDS: '5' }).crawlLockMs).toBe(5_000);
    expect(() => configFor({ FOLIO_CRAWL_LOCK_SECONDS: '2' })).toThrow(/FOLIO_CRAWL_LOCK_SECONDS/);
    expect(() => configFor({ FOLIO_CRAWL_LOCK_SECONDS: '601' })).toThrow(/FOLIO_CRAWL_LOCK_SECONDS/);
  });
});
