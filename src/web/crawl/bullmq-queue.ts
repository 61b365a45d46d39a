/**
 * Crawl jobs on BullMQ queues over Redis (REDIS_URL): every folio process sharing the same store
 * (DATA_DIR) and Redis works on every crawl, page by page (docs/crawl.md, "Crawl jobs on Redis").
 *
 * The frontier stays in the store; BullMQ carries tickets:
 *   - `seed` (job id `seed-<crawlId>`): seeds a new job's frontier (start URL, sitemaps), or on a
 *     restart re-issues a ticket per queued URL; one page ticket per URL it added.
 *   - `page` ({crawlId}): takes one place among the job's maxConcurrency (Redis lease), claims the
 *     oldest queued URL (the store's transaction, so a URL goes to one ticket only), writes the URL
 *     into the ticket (the ticket is now its lease: a stalled ticket picked up elsewhere, or one put
 *     back at shutdown, goes on with the same URL), waits for the host's turn when a delay applies,
 *     scrapes it, and issues one ticket per new URL. A ticket finding no queued URL ends; whoever
 *     sees neither queued nor running URLs finishes the job (links are stored before their page is
 *     marked done, so this cannot happen while a page is still adding URLs).
 * A ticket that must wait (no place, host busy, process stopping) goes back as delayed.
 * Cancellation is the store's status, checked before every page, and a Redis message that aborts
 * the pages in flight on every process.
 */
import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import type { CrawlJobStore, CrawlUrlEntry, JobKind } from '../../store/crawl-jobs.ts';
import type { Fetcher } from '../fetch/types.ts';
import { RobotsCache } from '../robots.ts';
import type { JobEventSink } from '../webhooks/index.ts';
import { CancelledError, ShutdownError, type CrawlQueue } from './queue.ts';
import { deserializeCrawlRequest, type CrawlRequest } from './request.ts';
import { checkRedisReachable, openRedis, redactRedisUrl } from '../../redis/index.ts';
import { CrawlGates } from './redis-gates.ts';
import {
  crawlPage,
  crawlScopeRules,
  DISCOVERY_TIMEOUT_MS,
  finishDrainedCrawlJob,
  seedCrawlFrontier,
  type CrawlPageContext,
  type CrawlProgress,
  type PageScraper,
} from './runner.ts';

/** BullMQ key prefix and queue name: `folio:crawl-pages:*` in Redis. */
export const CRAWL_QUEUE_PREFIX = 'folio';
export const CRAWL_QUEUE_NAME = 'crawl-pages';
const CANCEL_CHANNEL = `${CRAWL_QUEUE_PREFIX}:crawl-cancel`;

/** A ticket without a place retries after this long (plus jitter). */
const RETRY_MS = 150;
/** How long close() waits for BullMQ before dropping the connections (Redis not answering). */
const CLOSE_BOUND_MS = 10_000;
/** How long a cancel waits for this process's pages in flight to stop. */
const CANCEL_SETTLE_MS = 5_000;
/** BullMQ's failedReason for a ticket failed by its stalled check (maxStalledCount, 1: the second stall). */
const STALLED_LIMIT = 'job stalled more than allowable limit';
/** Process-side job contexts (robots.txt cache, parsed request) kept at most. */
const MAX_CONTEXTS = 64;

interface TicketData {
  crawlId: string;
  /** Set once the ticket has claimed its URL. */
  url?: string;
  depth?: number;
  /** A seed ticket issued again because the first failed for good: if this one fails too, the job fails. */
  again?: boolean;
}

export interface BullmqCrawlQueueDeps {
  redisUrl: string;
  store: CrawlJobStore;
  fetcher: Fetcher;
  scrapePage: PageScraper;
  /** config.crawlConcurrency: pages at once in this process, and the cap of a job's maxConcurrency. */
  concurrency: number;
  /**
   * A ticket's lock (renewed every half of it while its page runs) and the stalled-check
   * interval: a process that dies mid-page leaves its tickets to another after one to two of
   * these (BullMQ's default, 30 s, when unset).
   */
  lockMs?: number;
  resultTtlMs: number;
  onProgress?: (progress: CrawlProgress) => void;
  /** A page this process scraped (for the debug log: which worker did what). */
  onPage?: (detail: { crawlId: string; worker: string }) => void;
  onError: (detail: { jobId?: string; err: unknown }, message: string) => void;
  /** Job events (webhooks), from the process that stored the page or finished the job. */
  events?: JobEventSink;
}

export interface BullmqCrawlQueue extends CrawlQueue {
  /** This process's worker name (the BullMQ worker and its Redis connections carry it). */
  readonly worker: string;
}

interface JobContext {
  kind: JobKind;
  request: CrawlRequest;
  page: CrawlPageContext;
  concurrency: number;
  /** Aborts the job's robots.txt fetches and pages in this process (cancel, shutdown). */
  controller: AbortController;
  inFlight: number;
}

const ticketOptions = { removeOnComplete: true, removeOnFail: 1000, attempts: 3, backoff: { type: 'exponential', delay: 1000 } };
/** The seed ticket's id is the job's: it must not linger once done, or a restart could not re-add it. */
const seedOptions = { ...ticketOptions, removeOnFail: true };

/** Connects (failing clearly when Redis does not answer) and starts this process's worker. */
export async function createBullmqCrawlQueue(deps: BullmqCrawlQueueDeps): Promise<BullmqCrawlQueue> {
  await checkRedisReachable(deps.redisUrl);
  // Loaded here, with REDIS_URL only: a service on the in-process queue does without its ~0.4 s import.
  const { DelayedError, Job, Queue, Worker } = await import('bullmq');
  const worker = `folio-${process.pid}-${randomUUID().slice(0, 8)}`;
  const where = redactRedisUrl(deps.redisUrl);
  const onRedisError = (err: Error) => deps.onError({ err: new Error(`${err.message} (REDIS_URL=${where}; retrying)`) }, 'crawl queue: Redis connection error');
  const connection = openRedis(deps.redisUrl, `${worker}-queue`, onRedisError);
  const subscriber = openRedis(deps.redisUrl, `${worker}-events`, onRedisError);
  const gates = new CrawlGates(connection, CRAWL_QUEUE_PREFIX);
  const queue = new Queue<TicketData>(CRAWL_QUEUE_NAME, { connection, prefix: CRAWL_QUEUE_PREFIX });
  queue.on('error', onRedisError);
  const contexts = new Map<string, JobContext>();
  let closing = false;

  const dropContext = (crawlId: string, reason: Error) => {
    const ctx = contexts.get(crawlId);
    if (!ctx) return;
    contexts.delete(crawlId);
    ctx.controller.abort(reason);
  };

  /** The job's context in this process, or undefined when the job is no longer scraping. */
  const contextFor = async (crawlId: string): Promise<JobContext | undefined> => {
    const record = await deps.store.getCrawlJob(crawlId);
    if (!record || record.status !== 'scraping') {
      dropContext(crawlId, new CancelledError());
      return undefined;
    }
    let ctx = contexts.get(crawlId);
    if (ctx) return ctx;
    const request = deserializeCrawlRequest(record.options);
    const controller = new AbortController();
    const robots = new RobotsCache(deps.fetcher, { timeoutMs: DISCOVERY_TIMEOUT_MS, signal: controller.signal });
    ctx = {
      kind: record.kind,
      request,
      controller,
      inFlight: 0,
      concurrency: Math.max(1, Math.min(request.maxConcurrency ?? deps.concurrency, deps.concurrency)),
      page: {
        store: deps.store,
        scrapePage: deps.scrapePage,
        robots,
        jobId: crawlId,
        request,
        rules: crawlScopeRules(request),
        kind: record.kind,
        owner: record.owner,
        ...(deps.events ? { events: deps.events } : {}),
        onError: (id, err) => deps.onError({ jobId: id, err }, 'crawl page failed unexpectedly'),
      },
    };
    if (contexts.size >= MAX_CONTEXTS) {
      const idle = [...contexts].find(([, c]) => c.inFlight === 0);
      if (idle) dropContext(idle[0], new ShutdownError());
    }
    contexts.set(crawlId, ctx);
    return ctx;
  };

  const issueTickets = async (crawlId: string, n: number) => {
    if (n <= 0) return;
    await queue.addBulk(Array.from({ length: n }, () => ({ name: 'page', data: { crawlId }, opts: ticketOptions })));
  };

  const report = async (crawlId: string) => {
    if (!deps.onProgress) return;
    const c = await deps.store.crawlCounts(crawlId);
    deps.onProgress({ jobId: crawlId, completed: c.done, total: c.queued + c.running + c.done + c.failed });
  };

  /** Finishes the job when its frontier is drained (finishCrawlJob only moves a scraping job). */
  const settle = async (crawlId: string) => {
    const c = await deps.store.crawlCounts(crawlId);
    if (c.queued + c.running > 0) return;
    const record = await deps.store.getCrawlJob(crawlId);
    await finishDrainedCrawlJob(deps.store, crawlId, deps.resultTtlMs, record?.kind ?? 'crawl', deps.events);
    dropContext(crawlId, new CancelledError());
    await report(crawlId);
  };

  /** Puts the ticket back (with its URL, if claimed) to run again in `ms`. */
  const later = async (job: Job<TicketData>, token: string | undefined, ms: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + Math.max(0, Math.round(ms)), token);
    throw new DelayedError();
  };

  /** Runs `fn` with a signal that aborts on cancel or shutdown; a shutdown puts the ticket back. */
  const guarded = async <T>(ctx: JobContext, job: Job<TicketData>, token: string | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> => {
    if (closing) return later(job, token, 0);
    ctx.inFlight += 1;
    try {
      return await fn(ctx.controller.signal);
    } catch (err) {
      if (!ctx.controller.signal.aborted) throw err;
      if (ctx.controller.signal.reason instanceof ShutdownError) return later(job, token, 0);
      return undefined;
    } finally {
      ctx.inFlight -= 1;
    }
  };

  const seed = async (job: Job<TicketData>, token: string | undefined) => {
    const { crawlId } = job.data;
    const ctx = await contextFor(crawlId);
    if (!ctx) return;
    const c = await deps.store.crawlCounts(crawlId);
    if (c.queued + c.running + c.done + c.failed + c.blocked === 0) {
      const added = await guarded(ctx, job, token, (signal) => seedCrawlFrontier(deps.store, deps.fetcher, ctx.page.robots, crawlId, ctx.request, signal));
      await issueTickets(crawlId, added?.length ?? 0);
    } else {
      // A restart: a ticket per queued URL, in case one was lost between the store and Redis
      // (spare tickets find nothing to claim and end). Running URLs are held by their tickets.
      await issueTickets(crawlId, c.queued);
    }
    await report(crawlId);
    await settle(crawlId);
  };

  const page = async (job: Job<TicketData>, token: string | undefined) => {
    const { crawlId } = job.data;
    const ctx = await contextFor(crawlId);
    if (!ctx) return;
    const holder = job.id ?? randomUUID();
    if (!(await gates.takeSlot(crawlId, holder, ctx.concurrency))) return later(job, token, RETRY_MS + Math.random() * RETRY_MS);
    let host: string | undefined;
    try {
      let entry: CrawlUrlEntry | undefined = job.data.url !== undefined ? { url: job.data.url, depth: job.data.depth ?? 0 } : undefined;
      if (!entry) {
        [entry] = await deps.store.claimCrawlUrls(crawlId, 1);
        if (!entry) return settle(crawlId);
        await job.updateData({ crawlId, url: entry.url, depth: entry.depth });
      }
      const target = entry;
      const rules = ctx.kind === 'batch' ? undefined : await ctx.page.robots.rulesFor(target.url).catch(() => undefined);
      const delayMs = (ctx.request.delay ?? rules?.crawlDelaySeconds() ?? 0) * 1000;
      if (delayMs > 0) {
        const h = new URL(target.url).host;
        const wait = await gates.enterHost(crawlId, h, holder, delayMs);
        if (wait !== 0) return later(job, token, wait > 0 ? wait : Math.min(delayMs, RETRY_MS));
        host = h;
      }
      const added = await guarded(ctx, job, token, (signal) => crawlPage(ctx.page, target, signal));
      if (added === undefined) return;
      deps.onPage?.({ crawlId, worker });
      await issueTickets(crawlId, added.length);
      await report(crawlId);
      await settle(crawlId);
    } finally {
      // The place is given back even when leaving the host fails: kept, it would hold one of the
      // job's maxConcurrency places on every process for its lease (10 min).
      try {
        if (host !== undefined) await gates.leaveHost(crawlId, host, holder);
      } finally {
        await gates.releaseSlot(crawlId, holder);
      }
    }
  };

  const bull = new Worker<TicketData>(
    CRAWL_QUEUE_NAME,
    async (job, token) => {
      if (closing) return later(job, token, 0);
      return job.name === 'seed' ? seed(job, token) : page(job, token);
    },
    {
      connection,
      prefix: CRAWL_QUEUE_PREFIX,
      concurrency: deps.concurrency,
      name: worker,
      ...(deps.lockMs !== undefined ? { lockDuration: deps.lockMs, stalledInterval: deps.lockMs } : {}),
    },
  );
  bull.on('error', onRedisError);
  bull.on('failed', (job, err) => {
    // A ticket with attempts left is retried by BullMQ. One failed for good has `finishedOn`: its
    // attempts used up, or failed by a stalled check (its worker stopped without handing it back
    // twice: BullMQ fails it whatever its attempts, and its URL stayed `running`, the job unended).
    if (!job || (job.finishedOn === undefined && job.attemptsMade < (job.opts.attempts ?? 1))) return;
    deps.onError({ jobId: job.data.crawlId, err }, 'crawl ticket failed unexpectedly');
    const stalled = err.message === STALLED_LIMIT;
    // A seed ticket that gave up: issued once more (it is removed on failure, so its id is free),
    // then the job fails — left alone, the job stayed `scraping` with no ticket until a restart.
    if (job.name === 'seed') {
      const { crawlId } = job.data;
      const ended = job.data.again
        ? (async () => {
            const why = stalled ? 'the processes seeding it stopped without handing it back' : 'seeding it failed on an unexpected error (logged)';
            const error = `The job could not be started: ${why}, twice. Start it again.`;
            if (await deps.store.finishCrawlJob(crawlId, 'failed', error, new Date(Date.now() + deps.resultTtlMs))) deps.events?.finished(crawlId, 'failed', error);
            dropContext(crawlId, new CancelledError());
          })()
        : queue.add('seed', { crawlId, again: true }, { ...seedOptions, jobId: `seed-${crawlId}` }).then(() => undefined);
      ended.catch((e: unknown) => deps.onError({ jobId: crawlId, err: e }, 'crawl seed failure not recorded'));
      return;
    }
    // A page ticket that gave up: its URL is failed, so the job can still end.
    if (job.data.url !== undefined) {
      const reason = stalled ? 'the page could not be scraped: the process scraping it stopped twice without handing it back' : 'the page could not be scraped (unexpected error)';
      deps.store
        .failCrawlUrl(job.data.crawlId, job.data.url, reason)
        .then(() => settle(job.data.crawlId))
        .catch((e: unknown) => deps.onError({ jobId: job.data.crawlId, err: e }, 'crawl ticket failure not recorded'));
    }
  });

  /**
   * Puts back the tickets BullMQ moved to active for this worker that no processor will run. A
   * ticket finishing as close() begins asks Redis for the next one with its completion (asked
   * before the close, answered after); BullMQ 5.47's closing worker never hands that one to the
   * processor, and it would stay active, locked, until its lock expires (30 s) and a stalled
   * check, run every 30 s by whichever process, sees it twice: up to a minute with its URL
   * `running`, or its job unseeded (test/web/crawl-redis-close.test.ts; the likely cause of a CI
   * timeout, a batch restarted after stopping both services). Run once the worker is closed:
   * every lock still holding this worker's token is such a ticket (BullMQ tokens are `<id>:<n>`).
   */
  const giveBackFetched = async (): Promise<void> => {
    const mine = `${bull.id}:`;
    for (const id of await connection.lrange(queue.toKey('active'), 0, -1)) {
      const token = await connection.get(`${queue.toKey(id)}:lock`);
      if (!token?.startsWith(mine)) continue;
      const job = await Job.fromId<TicketData>(queue, id);
      // Refused when the lock changed hands meanwhile (a stalled check gave it to another worker).
      await job?.moveToWait(token).catch(() => undefined);
    }
  };

  await subscriber.subscribe(CANCEL_CHANNEL);
  subscriber.on('message', (channel: string, crawlId: string) => {
    if (channel === CANCEL_CHANNEL) dropContext(crawlId, new CancelledError());
  });
  await bull.waitUntilReady();

  return {
    worker,
    async enqueue(crawlId) {
      if (closing) return;
      await queue.add('seed', { crawlId }, { ...seedOptions, jobId: `seed-${crawlId}` });
    },
    async cancel(crawlId) {
      // This process's pages in flight stop before the answer, as on the in-process queue (a page
      // finishing meanwhile stored its result after the cancel: found by the crawl tests on
      // Redis); every other process aborts its pages on the message.
      const ctx = contexts.get(crawlId);
      dropContext(crawlId, new CancelledError());
      await connection.publish(CANCEL_CHANNEL, crawlId);
      const until = Date.now() + CANCEL_SETTLE_MS;
      while (ctx && ctx.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    },
    running() {
      return [...contexts].filter(([, c]) => c.inFlight > 0).map(([id]) => id);
    },
    async close() {
      if (closing) return;
      closing = true;
      const stopped = bull.close();
      for (const id of [...contexts.keys()]) dropContext(id, new ShutdownError());
      const graceful = (async () => {
        await stopped;
        await giveBackFetched().catch((err: unknown) => deps.onError({ err }, 'crawl queue: tickets fetched during close not given back (they return once their lock expires)'));
        await queue.close();
        await subscriber.quit().catch(() => undefined);
        await connection.quit().catch(() => undefined);
      })();
      // With Redis away, BullMQ's close waits for commands that wait for Redis (forever): past the
      // bound the connections are dropped, and the tickets in flight come back to another worker
      // when their Redis locks expire.
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), CLOSE_BOUND_MS);
      });
      const outcome = await Promise.race([graceful.then(() => 'closed' as const), bounded]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        deps.onError({ err: new Error(`the crawl queue did not close within ${CLOSE_BOUND_MS / 1000} s (Redis not answering)`) }, 'crawl queue closed without Redis');
        graceful.catch(() => undefined);
        void bull.close(true).catch(() => undefined);
        subscriber.disconnect();
        connection.disconnect();
        void queue.disconnect().catch(() => undefined);
      }
    },
  };
}
