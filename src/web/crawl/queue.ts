/**
 * Where crawl jobs run. `CrawlQueue` is the seam: the embedded default below runs jobs in this
 * process; a BullMQ implementation (Redis) can slot in behind the same four methods, its workers
 * calling the same `runCrawlJob` against a shared store (not built in this round).
 */
export interface CrawlQueue {
  /** Schedules a job (new, or unfinished after a restart). Idempotent while the job runs. */
  enqueue(jobId: string): Promise<void>;
  /** Stops a running job's work (its status is the service's business). */
  cancel(jobId: string): Promise<void>;
  /** Job ids running now. */
  running(): string[];
  /** Stops taking work and waits for running jobs to stop; they resume at the next start. */
  close(): Promise<void>;
}

export type JobRunner = (jobId: string, signal: AbortSignal) => Promise<void>;

/** Raised into a job's signal when the process stops (the job stays `scraping`, to resume). */
export class ShutdownError extends Error {
  constructor() {
    super('the service is stopping');
    this.name = 'AbortError';
  }
}

export class CancelledError extends Error {
  constructor() {
    super('the crawl was cancelled');
    this.name = 'AbortError';
  }
}

export function createInProcessCrawlQueue(run: JobRunner, onError: (jobId: string, err: unknown) => void): CrawlQueue {
  const jobs = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Jobs enqueued again while running (a batch appended to): run once more after. */
  const again = new Set<string>();
  let closed = false;
  const queue: CrawlQueue = {
    async enqueue(jobId) {
      if (closed) return;
      if (jobs.has(jobId)) {
        again.add(jobId);
        return;
      }
      const controller = new AbortController();
      const done = (async () => {
        // Off the caller's stack: POST /v2/crawl answers before the first fetch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        try {
          await run(jobId, controller.signal);
        } catch (err) {
          if (!controller.signal.aborted) onError(jobId, err);
        } finally {
          jobs.delete(jobId);
          if (again.delete(jobId) && !controller.signal.aborted) void queue.enqueue(jobId);
        }
      })();
      jobs.set(jobId, { controller, done });
    },
    async cancel(jobId) {
      const job = jobs.get(jobId);
      if (!job) return;
      job.controller.abort(new CancelledError());
      await job.done;
    },
    running() {
      return [...jobs.keys()];
    },
    async close() {
      closed = true;
      const all = [...jobs.values()];
      for (const j of all) j.controller.abort(new ShutdownError());
      await Promise.allSettled(all.map((j) => j.done));
    },
  };
  return queue;
}
