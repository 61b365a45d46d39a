/**
 * Crawling wired from its parts: the store, the Fetcher, a page scraper (scrape()), the
 * server-wide page bound, the in-process queue and the service. `serve` calls this once.
 */
import type { CrawlJobStore } from '../../store/crawl-jobs.ts';
import type { Fetcher } from '../fetch/types.ts';
import { createBullmqCrawlQueue } from './bullmq-queue.ts';
import { createInProcessCrawlQueue, type CrawlQueue } from './queue.ts';
import { runCrawlJob, type PageScraper } from './runner.ts';
import { CRAWL_RESULT_TTL_MS, CrawlProgressHub, createCrawlService, type CrawlService } from './service.ts';
import { Slots } from './slots.ts';
import type { JobEventSink } from '../webhooks/index.ts';
import { zeroRetentionCrawlStore } from './zdr-results.ts';

export type { CrawlService, CrawlStatusPage, CrawlErrors, ActiveCrawl, BatchStarted } from './service.ts';
export type { PageScraper, CrawlProgress } from './runner.ts';

export interface CrawlingDeps {
  store: CrawlJobStore;
  fetcher: Fetcher;
  scrapePage: PageScraper;
  /** config.crawlConcurrency. */
  concurrency: number;
  /** Pages may ask for the browser (`actions`, `screenshot` in scrapeOptions): scrapePage renders them. */
  browserPages?: boolean;
  resultTtlMs?: number;
  /** config.redisUrl: crawl work on BullMQ queues shared by every process on this Redis. */
  redisUrl?: string;
  /** config.crawlLockMs: the Redis queue's ticket lock and stalled-check interval. */
  lockMs?: number;
  /** A page this process scraped on the Redis queue (for the debug log). */
  onPage?: (detail: { crawlId: string; worker: string }) => void;
  /** Unexpected failures (bugs), for the log; never the page bodies. */
  onError: (detail: { jobId?: string; err: unknown }, message: string) => void;
  /** Job events: the webhook dispatcher. */
  events?: JobEventSink;
}

/** Builds the crawl service and resumes the jobs a previous process left unfinished. */
export async function startCrawling(deps: CrawlingDeps): Promise<CrawlService> {
  // Pages of zeroDataRetention jobs stay in memory; the store gets placeholders (docs/zdr.md).
  const store = zeroRetentionCrawlStore(deps.store);
  const progress = new CrawlProgressHub();
  const slots = new Slots(deps.concurrency);
  const resultTtlMs = deps.resultTtlMs ?? CRAWL_RESULT_TTL_MS;
  const queue: CrawlQueue = deps.redisUrl
    ? await createBullmqCrawlQueue({
        redisUrl: deps.redisUrl,
        store,
        fetcher: deps.fetcher,
        scrapePage: deps.scrapePage,
        concurrency: deps.concurrency,
        ...(deps.lockMs !== undefined ? { lockMs: deps.lockMs } : {}),
        resultTtlMs,
        onProgress: (p) => progress.emit(p),
        ...(deps.onPage ? { onPage: deps.onPage } : {}),
        ...(deps.events ? { events: deps.events } : {}),
        onError: deps.onError,
      })
    : createInProcessCrawlQueue(
    (jobId, signal) =>
      runCrawlJob(
        jobId,
        {
          store,
          fetcher: deps.fetcher,
          scrapePage: deps.scrapePage,
          slots,
          maxConcurrency: deps.concurrency,
          resultTtlMs,
          onProgress: (p) => progress.emit(p),
          onError: (id, err) => deps.onError({ jobId: id, err }, 'crawl page failed unexpectedly'),
          ...(deps.events ? { events: deps.events } : {}),
        },
        signal,
      ),
    (jobId, err) => {
      deps.onError({ jobId, err }, 'crawl job failed unexpectedly');
      // A job whose runner broke must not poll as `scraping` forever.
      const error = 'The job stopped on an unexpected error; it has been logged.';
      store
        .finishCrawlJob(jobId, 'failed', error, new Date(Date.now() + resultTtlMs))
        .then((moved) => {
          if (moved) deps.events?.finished(jobId, 'failed', error);
        })
        .catch(() => undefined);
    },
  );
  const service = createCrawlService({
    store,
    queue,
    progress,
    resultTtlMs,
    onSweepError: (err) => deps.onError({ err }, 'crawl expiry sweep failed'),
    ...(deps.events ? { events: deps.events } : {}),
    ...(deps.browserPages ? { browserPages: true } : {}),
  });
  await service.sweepExpired();
  await service.resumeUnfinished();
  return service;
}
