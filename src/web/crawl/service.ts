/**
 * The crawl and batch scrape operations every door calls (HTTP routes, MCP tools): start,
 * startBatch, status (paged), cancel, errors, active. A batch is a job of kind `batch` on the
 * same machinery; each operation names the kind it expects, and a job of the other kind answers
 * as unknown. Jobs are owner-bound: another owner's job id answers as if it did not exist.
 * Finished jobs' results are kept for `resultTtlMs` (24 h by default) and then deleted by a
 * sweep that runs at start and every few minutes.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { ServiceError } from '../../errors.ts';
import type { ParseData } from '../../parse/index.ts';
import type { CrawlJobRecord, CrawlJobStore, CrawlStatus, JobKind } from '../../store/crawl-jobs.ts';
import type { JobEventSink } from '../webhooks/index.ts';
import { parseBatchRequest } from './batch-request.ts';
import type { CrawlQueue } from './queue.ts';
import { crawlRequestWarning, parseCrawlRequest, serializeCrawlRequest } from './request.ts';
import type { CrawlProgress } from './runner.ts';

export const CRAWL_RESULT_TTL_MS = 24 * 60 * 60 * 1000;
export const CRAWL_PAGE_DEFAULT = 100;
export const CRAWL_PAGE_MAX = 1000;
/** A status page holds about this much JSON at most (Firecrawl pages at 10 MB). */
export const CRAWL_PAGE_MAX_BYTES = 10 * 1024 * 1024;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface CrawlStatusPage {
  status: CrawlStatus;
  total: number;
  completed: number;
  creditsUsed: number;
  expiresAt: string;
  /** The skip of the next page of `data`, when there is one. */
  nextSkip?: number;
  data: ParseData[];
  /** Why a failed job failed. */
  error?: string;
}

export interface CrawlErrors {
  errors: { id: string; url: string; error: string; timestamp: string }[];
  robotsBlocked: string[];
}

export interface ActiveCrawl {
  id: string;
  url: string;
  options: Record<string, unknown>;
}

export interface BatchStarted {
  id: string;
  /** With `ignoreInvalidURLs`: the entries skipped as not valid URLs. */
  invalidURLs: string[];
}

export interface CrawlService {
  /** `warning` names the fields of the body folio does not know (ignored). */
  start(owner: string, body: unknown): Promise<{ id: string; warning?: string }>;
  /**
   * Starts a batch scrape (or, with `appendToId`, adds its URLs to that batch of the owner). The
   * same `idempotencyKey` from the same owner answers the job it first created.
   */
  startBatch(owner: string, body: unknown, idempotencyKey?: string): Promise<BatchStarted>;
  status(owner: string, id: string, page?: { skip?: number; limit?: number }, kind?: JobKind): Promise<CrawlStatusPage>;
  cancel(owner: string, id: string, kind?: JobKind): Promise<CrawlStatus>;
  errors(owner: string, id: string, kind?: JobKind): Promise<CrawlErrors>;
  active(owner: string): Promise<ActiveCrawl[]>;
  /** Progress of a job as pages finish; returns the unsubscribe function. */
  onProgress(id: string, listener: (progress: CrawlProgress) => void): () => void;
  /** Jobs left `scraping` by a previous process go back on the queue. */
  resumeUnfinished(): Promise<number>;
  /** Deletes expired jobs now; returns how many. */
  sweepExpired(): Promise<number>;
  close(): Promise<void>;
}

export interface CrawlServiceDeps {
  store: CrawlJobStore;
  queue: CrawlQueue;
  /** The runner reports progress here (runner deps.onProgress → hub.emit). */
  progress: CrawlProgressHub;
  resultTtlMs?: number;
  onSweepError?: (err: unknown) => void;
  /** Job events (webhooks): `started` is sent from here. */
  events?: JobEventSink;
  /** Pages may use the browser (`actions`, `screenshot` in scrapeOptions): the scrapePage of startCrawling gives it to them. */
  browserPages?: boolean;
}

export class CrawlProgressHub {
  readonly #emitter = new EventEmitter();
  constructor() {
    this.#emitter.setMaxListeners(0);
  }
  emit(progress: CrawlProgress): void {
    this.#emitter.emit(progress.jobId, progress);
  }
  subscribe(id: string, listener: (progress: CrawlProgress) => void): () => void {
    this.#emitter.on(id, listener);
    return () => this.#emitter.off(id, listener);
  }
}

function notFound(kind: JobKind = 'crawl'): ServiceError {
  return kind === 'batch'
    ? new ServiceError('NOT_FOUND', 'No batch scrape job with this id for your team. Results are kept 24 hours after a batch finishes.')
    : new ServiceError('NOT_FOUND', 'No crawl job with this id for your team. Results are kept 24 hours after a crawl finishes.');
}

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createCrawlService(deps: CrawlServiceDeps): CrawlService {
  const ttl = deps.resultTtlMs ?? CRAWL_RESULT_TTL_MS;

  const owned = async (owner: string, id: string, kind: JobKind = 'crawl'): Promise<CrawlJobRecord> => {
    if (!ID_PATTERN.test(id)) throw notFound(kind);
    const job = await deps.store.getCrawlJob(id);
    if (!job || job.owner !== owner || job.kind !== kind) throw notFound(kind);
    if (job.status !== 'scraping' && Date.parse(job.expiresAt) < Date.now()) throw notFound(kind);
    return job;
  };

  const sweepExpired = () => deps.store.deleteExpiredCrawlJobs(new Date());
  const sweeper = setInterval(() => {
    sweepExpired().catch((err: unknown) => deps.onSweepError?.(err));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  return {
    async start(owner, body) {
      const request = parseCrawlRequest(body, deps.browserPages === true);
      const id = randomUUID();
      await deps.store.createCrawlJob({
        id,
        owner,
        url: request.url,
        options: serializeCrawlRequest(request),
        // Pushed to finish + TTL when the job ends.
        expiresAt: new Date(Date.now() + ttl),
      });
      deps.events?.started(id);
      await deps.queue.enqueue(id);
      const warning = crawlRequestWarning(body);
      return warning ? { id, warning } : { id };
    },

    async startBatch(owner, body, idempotencyKey) {
      const request = parseBatchRequest(body, deps.browserPages === true);
      const entries = request.urls.map((url) => ({ url, depth: 0 }));
      if (request.appendToId) {
        const job = await owned(owner, request.appendToId, 'batch');
        if (job.status === 'cancelled') throw new ServiceError('BAD_REQUEST', `Batch ${job.id} was cancelled: start a new batch instead of appending to it.`);
        const added = await deps.store.appendCrawlUrls(job.id, entries, new Date(Date.now() + ttl));
        if (added.length > 0) await deps.queue.enqueue(job.id);
        return { id: job.id, invalidURLs: request.invalidURLs };
      }
      const id = randomUUID();
      const job = await deps.store.createCrawlJob(
        {
          id,
          kind: 'batch',
          owner,
          url: request.job.url,
          options: serializeCrawlRequest(request.job),
          expiresAt: new Date(Date.now() + ttl),
          ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
        },
        entries,
      );
      if (job.id === id) {
        deps.events?.started(id);
        await deps.queue.enqueue(id);
      }
      return { id: job.id, invalidURLs: request.invalidURLs };
    },

    async status(owner, id, page = {}, kind = 'crawl') {
      const job = await owned(owner, id, kind);
      const counts = await deps.store.crawlCounts(id);
      const skip = Math.max(0, Math.floor(page.skip ?? 0));
      const limit = Math.min(CRAWL_PAGE_MAX, Math.max(1, Math.floor(page.limit ?? CRAWL_PAGE_DEFAULT)));
      const results = await deps.store.crawlResults(id, skip, limit, CRAWL_PAGE_MAX_BYTES);
      return {
        status: job.status,
        total: counts.queued + counts.running + counts.done + counts.failed,
        completed: counts.done,
        creditsUsed: counts.done,
        expiresAt: job.expiresAt,
        ...(results.nextSkip !== undefined ? { nextSkip: results.nextSkip } : {}),
        data: results.items.map((text) => JSON.parse(text) as ParseData),
        ...(job.error ? { error: job.error } : {}),
      };
    },

    async cancel(owner, id, kind = 'crawl') {
      const job = await owned(owner, id, kind);
      if (job.status !== 'scraping') return job.status;
      await deps.store.finishCrawlJob(id, 'cancelled', null, new Date(Date.now() + ttl));
      await deps.queue.cancel(id);
      return 'cancelled';
    },

    async errors(owner, id, kind = 'crawl') {
      await owned(owner, id, kind);
      return { errors: await deps.store.crawlErrors(id), robotsBlocked: await deps.store.robotsBlockedUrls(id) };
    },

    async active(owner) {
      const jobs = await deps.store.listCrawlJobs({ owner, status: 'scraping', kind: 'crawl' });
      return jobs.map((j) => {
        // The webhook's headers may hold the receiver's credentials: not listed back.
        const { webhook: _w, ...options } = JSON.parse(j.options) as Record<string, unknown>;
        return { id: j.id, url: j.url, options };
      });
    },

    onProgress(id, listener) {
      return deps.progress.subscribe(id, listener);
    },

    async resumeUnfinished() {
      const jobs = await deps.store.listCrawlJobs({ status: 'scraping' });
      for (const j of jobs) await deps.queue.enqueue(j.id);
      return jobs.length;
    },

    sweepExpired,

    async close() {
      clearInterval(sweeper);
      await deps.queue.close();
    },
  };
}
