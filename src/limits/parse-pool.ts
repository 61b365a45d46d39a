/**
 * The parse pool: parse() runs in worker threads so that a parse past its `timeout` can be
 * stopped for real (the worker is terminated and replaced) and a hostile file that exhausts
 * memory takes down one worker, not the server (DESIGN.md "Bad input").
 *
 * Bounded: `size` parses run at once, at most `maxQueue` wait; beyond that a request is answered
 * 429 at once. A request that waited for a slot carries `metadata.concurrencyLimited` and
 * `concurrencyQueueDurationMs`, as the spec's Limits section says.
 */
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../errors.ts';
import { readingDeadline } from '../parse/deadline.ts';
import type { Progress } from '../parse/document.ts';
import type { OcrSettings, ParseData, ParseInput, SourceLimits } from '../parse/index.ts';
import type { ParseOptions } from '../parse/options.ts';
import type { ParseJobMessage, WorkerReply } from './parse-messages.ts';

export interface ParsePoolOptions {
  /** Parses running at once. */
  size: number;
  /** Parses waiting for a slot before new ones are refused with 429. */
  maxQueue: number;
  /** Heap limit of one worker, in MB. */
  workerMemoryMb: number;
  /** Called with the details of an unexpected failure (a bug, not the client's input). */
  onUnexpectedError?: (detail: string) => void;
  /** What a worker's libraries print (SheetJS and pdf.js talk on the console), line by line. */
  onWorkerOutput?: (line: string) => void;
  /** PDF OCR settings (FOLIO_OCR_LANGUAGES), handed to every worker. */
  ocr?: OcrSettings;
  /** Limits at the source (FOLIO_MAX_UNZIPPED_MB, …), handed to every worker. */
  limits?: Partial<SourceLimits>;
}

export interface ParseRunOptions {
  onProgress?: (progress: Progress) => void;
  /**
   * The client went away. A parse still waiting is dropped; one already running finishes
   * within its timeout, because replacing a worker costs seconds of start-up for everyone.
   */
  signal?: AbortSignal;
}

export interface ParsePool {
  run(input: ParseInput, options: ParseOptions, runOptions?: ParseRunOptions): Promise<ParseData>;
  /** Resolves when every worker has loaded its readers (start-up waits for this). */
  ready(): Promise<void>;
  /** Parses running and waiting right now. */
  load(): { running: number; queued: number };
  close(): Promise<void>;
}

interface Job {
  id: number;
  message: ParseJobMessage;
  enqueuedAt: number;
  /** True when no slot was free at submission: the spec's `concurrencyLimited`. */
  waited: boolean;
  startedAt?: number;
  timer?: NodeJS.Timeout;
  onProgress?: (progress: Progress) => void;
  detachSignal?: () => void;
  resolve: (data: ParseData) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker?: Worker;
  /** The worker has loaded every reader and said so. */
  ready: boolean;
  job?: Job;
}

/** A worker that dies this many times in a row before it is ready means the build is broken. */
const MAX_BOOT_FAILURES = 3;

/**
 * Compiled (`npm start` runs dist/), the worker is plain JavaScript. From the TypeScript sources
 * (tests, `tsx`), a bootstrap teaches the worker thread TypeScript first.
 */
const workerUrl = import.meta.url.endsWith('.ts')
  ? new URL('./parse-worker-bootstrap.mjs', import.meta.url)
  : new URL('./parse-worker.js', import.meta.url);

export function timeoutError(timeoutMs: number): ServiceError {
  return new ServiceError(
    'SCRAPE_TIMEOUT',
    `The parse did not finish within its timeout of ${timeoutMs} ms and was stopped. Raise \`timeout\` (at most 300000) or send a smaller file.`,
  );
}

export function createParsePool(opts: ParsePoolOptions): ParsePool {
  const slots: Slot[] = Array.from({ length: opts.size }, () => ({ ready: false }));
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  let bootFailures = 0;
  const readyWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];

  function notifyIfAllReady(): void {
    if (slots.every((s) => s.ready)) for (const waiter of readyWaiters.splice(0)) waiter.resolve();
  }

  function spawn(slot: Slot): Worker {
    const worker = new Worker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: opts.workerMemoryMb },
      workerData: { ocr: opts.ocr ?? {}, limits: opts.limits ?? {} },
      // Captured rather than inherited: library chatter must not land in the server's log stream.
      stdout: true,
      stderr: true,
    });
    worker.unref();
    for (const stream of [worker.stdout, worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim()) opts.onWorkerOutput?.(line);
      });
    }
    slot.ready = false;
    worker.on('message', (reply: WorkerReply & { detail?: string }) => {
      if (reply.type === 'ready') {
        slot.ready = true;
        bootFailures = 0;
        notifyIfAllReady();
        dispatch();
      } else {
        onReply(slot, reply);
      }
    });
    worker.on('error', (err: Error & { code?: string }) => onWorkerDeath(slot, worker, err));
    worker.on('exit', () => onWorkerDeath(slot, worker));
    slot.worker = worker;
    return worker;
  }

  function finish(slot: Slot | undefined, job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    job.detachSignal?.();
    if (slot && slot.job === job) slot.job = undefined;
  }

  function onReply(slot: Slot, reply: Exclude<WorkerReply, { type: 'ready' }> & { detail?: string }): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if (reply.type === 'progress') {
      job.onProgress?.(reply.progress);
      return;
    }
    finish(slot, job);
    if (reply.type === 'done') {
      const data = reply.data;
      if (job.waited) {
        data.metadata.concurrencyLimited = true;
        data.metadata.concurrencyQueueDurationMs = (job.startedAt ?? job.enqueuedAt) - job.enqueuedAt;
      }
      job.resolve(data);
    } else if (reply.error) {
      job.reject(new ServiceError(reply.error.code, reply.error.message));
    } else {
      opts.onUnexpectedError?.(reply.detail ?? 'parse worker failed without details');
      job.reject(new Error('parse failed unexpectedly'));
    }
    dispatch();
  }

  /** A worker that dies takes its job with it; the slot gets a fresh worker on next use. */
  function onWorkerDeath(slot: Slot, worker: Worker, err?: Error & { code?: string }): void {
    if (slot.worker !== worker) return;
    const wasReady = slot.ready;
    slot.worker = undefined;
    slot.ready = false;
    const job = slot.job;
    if (job) {
      finish(slot, job);
      if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        job.reject(
          new ServiceError(
            'CORRUPT_FILE',
            'The file could not be parsed within the memory limit for one document; it may be damaged or built to exhaust parsers.',
          ),
        );
      } else {
        opts.onUnexpectedError?.(err ? (err.stack ?? err.message) : 'parse worker exited');
        job.reject(new Error('parse worker died'));
      }
    }
    if (!wasReady && !job) {
      bootFailures++;
      opts.onUnexpectedError?.(`parse worker failed to start: ${err ? (err.stack ?? err.message) : 'it exited'}`);
      if (bootFailures >= MAX_BOOT_FAILURES) {
        // Respawning would loop: fail what waits, and try again only when new work comes.
        const cannotStart = new Error(`parse workers cannot start: ${err?.message ?? 'they exit while loading'}`);
        for (const waiting of queue.splice(0)) {
          finish(undefined, waiting);
          waiting.reject(cannotStart);
        }
        for (const waiter of readyWaiters.splice(0)) waiter.reject(cannotStart);
        return;
      }
    }
    if (!closed) replenish();
  }

  /** Every slot without a worker gets one, so boot cost is paid before work arrives. */
  function replenish(): void {
    for (const slot of slots) if (!slot.worker && !closed) spawn(slot);
    dispatch();
  }

  /** Stops the job wherever it is: still queued, or running (its worker is terminated). */
  function cancel(job: Job, reason: unknown): void {
    const queued = queue.indexOf(job);
    if (queued >= 0) {
      queue.splice(queued, 1);
      finish(undefined, job);
      job.reject(reason);
      return;
    }
    const slot = slots.find((s) => s.job === job);
    if (!slot) return;
    finish(slot, job);
    const worker = slot.worker;
    slot.worker = undefined;
    slot.ready = false;
    void worker?.terminate();
    job.reject(reason);
    replenish();
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (closed || queue.length === 0) return;
      if (!slot.worker) spawn(slot);
      if (slot.job || !slot.ready || !slot.worker) continue;
      const job = queue.shift() as Job;
      slot.job = job;
      job.startedAt = Date.now();
      const worker = slot.worker;
      const { bytes } = job.message;
      worker.postMessage(job.message, [bytes.buffer as ArrayBuffer]);
    }
  }

  replenish();

  return {
    run(input, options, runOptions = {}) {
      if (bootFailures >= MAX_BOOT_FAILURES) bootFailures = 0;
      if (closed) return Promise.reject(new ServiceError('UNKNOWN_ERROR', 'The server is shutting down.'));
      if (queue.length >= opts.maxQueue) {
        return Promise.reject(
          new ServiceError('RATE_LIMITED', `Too many parses are waiting (${opts.maxQueue}); retry in a few seconds.`),
        );
      }
      runOptions.signal?.throwIfAborted();
      return new Promise<ParseData>((resolve, reject) => {
        // A private copy whose buffer is transferred to the worker, not cloned.
        const bytes = new Uint8Array(input.bytes.byteLength);
        bytes.set(input.bytes);
        const job: Job = {
          id: nextId++,
          message: {
            id: 0,
            bytes,
            filename: input.filename,
            ...(input.contentType ? { contentType: input.contentType } : {}),
            ...(input.sourceURL ? { sourceURL: input.sourceURL } : {}),
            ...(input.url ? { url: input.url } : {}),
            ...(input.statusCode !== undefined ? { statusCode: input.statusCode } : {}),
            options,
            deadline: 0,
          },
          enqueuedAt: Date.now(),
          waited: !slots.some((s) => s.ready && s.job === undefined) || queue.length > 0,
          resolve,
          reject,
          ...(runOptions.onProgress ? { onProgress: runOptions.onProgress } : {}),
        };
        job.message.id = job.id;
        job.message.deadline = readingDeadline(job.enqueuedAt, options.timeout);
        job.timer = setTimeout(() => cancel(job, timeoutError(options.timeout)), options.timeout);
        const signal = runOptions.signal;
        if (signal) {
          const onAbort = () => {
            if (queue.includes(job)) cancel(job, signal.reason);
          };
          signal.addEventListener('abort', onAbort, { once: true });
          job.detachSignal = () => signal.removeEventListener('abort', onAbort);
        }
        queue.push(job);
        dispatch();
      });
    },
    ready() {
      if (slots.every((s) => s.ready)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => readyWaiters.push({ resolve, reject }));
    },
    load() {
      return { running: slots.filter((s) => s.job).length, queued: queue.length };
    },
    async close() {
      closed = true;
      for (const waiter of readyWaiters.splice(0)) waiter.resolve();
      const shutdown = new ServiceError('UNKNOWN_ERROR', 'The server is shutting down.');
      for (const job of queue.splice(0)) {
        finish(undefined, job);
        job.reject(shutdown);
      }
      await Promise.all(
        slots.map(async (slot) => {
          const worker = slot.worker;
          slot.worker = undefined;
          slot.ready = false;
          if (slot.job) {
            const job = slot.job;
            finish(slot, job);
            job.reject(shutdown);
          }
          await worker?.terminate();
        }),
      );
    },
  };
}
