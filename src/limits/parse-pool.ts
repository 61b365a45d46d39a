/**
 * The parse pool: parse() runs in child processes, so that the operating system can bound and
 * reclaim what a parse takes (DESIGN.md "Bad input", docs/parse-isolation.md):
 *
 * - memory: the pool reads each busy child's resident set (/proc/PID/status VmRSS, plus the
 *   programs it started: OCR's pdftoppm and tesseract) every `rssSampleMs` and kills the child
 *   (and those programs) past
 *   `workerMemoryMb`; the job is answered CORRUPT_FILE ("needs more than N MB"). The child watches
 *   the same figure itself on a thread of its own (memory-watchdog.ts), so that neither a long
 *   synchronous step in the child nor a busy server lets it pass the cap unseen. An OS limit was
 *   measured and rejected: RLIMIT_AS breaks V8's address-space reservations, RLIMIT_DATA counts
 *   committed-but-untouched pages and aborts the process from inside an allocation.
 * - time: a job past its `timeout` has its child killed (408 SCRAPE_TIMEOUT). A job is one
 *   single-threaded parse, so its CPU time never exceeds that wall-clock budget.
 * - reclaim: a child whose RSS is above `recycleMb` after a job is replaced, so the memory goes
 *   back to the system (a V8 heap never shrinks its RSS by much on its own).
 * - temp files: each child writes its temporary files (OCR) into its own folder, removed when the
 *   child ends, however it ends.
 *
 * Warm: every slot has a child that has loaded its readers before it takes work; a replacement is
 * started in the background as soon as one goes, so no request waits for a spawn unless every
 * child was replaced at once.
 *
 * Bounded: `size` parses run at once, at most `maxQueue` wait; beyond that a request is answered
 * 429 at once, with `Retry-After`. A request that waited for a slot carries
 * `metadata.concurrencyLimited` and `concurrencyQueueDurationMs`, as the spec's Limits section says.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../errors.ts';
import { readingDeadline } from '../parse/deadline.ts';
import type { Progress } from '../parse/document.ts';
import type { LlmSettings, LlmUsage, OcrSettings, ParseData, ParseInput, SourceLimits } from '../parse/index.ts';
import type { ParseOptions } from '../parse/options.ts';
import { WATCHDOG_MARK } from './memory-watchdog.ts';
import type { ParseJobMessage, WorkerReply } from './parse-messages.ts';

export interface ParsePoolOptions {
  /** Parses running at once (one child process each). */
  size: number;
  /** Parses waiting for a slot before new ones are refused with 429. */
  maxQueue: number;
  /** Memory cap of one parse process, in MB: its whole resident set (JS heap, buffers, native). */
  workerMemoryMb: number;
  /** A child whose RSS is above this many MB after a job is replaced by a fresh one. Default: half the cap. */
  recycleMb?: number;
  /** How often a busy child's RSS is read, in ms. Default 50. */
  rssSampleMs?: number;
  /** Called with the details of an unexpected failure (a bug, not the client's input). */
  onUnexpectedError?: (detail: string) => void;
  /** What a child's libraries print (SheetJS and pdf.js talk on the console), line by line. */
  onWorkerOutput?: (line: string) => void;
  /** PDF OCR settings (FOLIO_OCR_LANGUAGES), handed to every child. */
  ocr?: OcrSettings;
  /** Limits at the source (FOLIO_MAX_UNZIPPED_MB, …), handed to every worker. */
  limits?: Partial<SourceLimits>;
  /** The LLM provider (docs/llm.md): sent with each job over IPC (it holds the API key), never in argv or env. */
  llm?: LlmSettings;
  /**
   * The child's entry module. Default: the compiled parse-worker.js beside this module, or from
   * the TypeScript sources the tsx bootstrap. The tests' services pass the compiled build's.
   */
  workerPath?: string;
}

export interface ParseRunOptions {
  onProgress?: (progress: Progress) => void;
  /**
   * The client went away. A parse still waiting is dropped; one already running finishes
   * within its timeout (its child stays warm for the next request).
   */
  signal?: AbortSignal;
  /** Tokens each LLM call of the parse spent. */
  onLlmUsage?: (usage: LlmUsage) => void;
}

export interface ParsePool {
  run(input: ParseInput, options: ParseOptions, runOptions?: ParseRunOptions): Promise<ParseData>;
  /** Resolves when every child has loaded its readers (start-up waits for this). */
  ready(): Promise<void>;
  /** Parses running and waiting right now. */
  load(): { running: number; queued: number };
  /** The process ids of the live children (tests and benchmarks read their memory). */
  pids(): number[];
  /** For /ready and /metrics: children warm, work running and waiting, replacements and kills since start. */
  stats(): ParsePoolStats;
  close(): Promise<void>;
}

/** Why the pool killed a child: its job's timeout, its memory cap, or grown memory after a job (recycle). */
export type KillReason = 'timeout' | 'memory' | 'recycle';

export interface ParsePoolStats {
  size: number;
  /** Children that have loaded every reader. */
  ready: number;
  running: number;
  queued: number;
  /** Children started to replace one (killed, recycled or exited on its own). */
  restarts: number;
  kills: Record<KillReason, number>;
}

interface Job {
  id: number;
  message: ParseJobMessage;
  timeoutMs: number;
  enqueuedAt: number;
  /** True when no slot was free at submission: the spec's `concurrencyLimited`. */
  waited: boolean;
  startedAt?: number;
  timer?: NodeJS.Timeout;
  onProgress?: (progress: Progress) => void;
  onLlmUsage?: (usage: LlmUsage) => void;
  detachSignal?: () => void;
  resolve: (data: ParseData) => void;
  reject: (err: unknown) => void;
}

/** One child process and what belongs to it. */
interface Proc {
  child: ChildProcess;
  /** Its private temporary folder, removed when it exits. */
  tempDir: string;
  /** The last lines it printed on stderr: how a V8 heap abort is recognised. */
  stderrTail: string;
  exited: Promise<void>;
}

interface Slot {
  proc?: Proc;
  /** The child has loaded every reader and said so. */
  ready: boolean;
  /** A child was started for this slot before (the next one is a restart). */
  spawned?: boolean;
  job?: Job;
}

/** A child that dies this many times in a row before it is ready means the build is broken. */
const MAX_BOOT_FAILURES = 3;
const TEMP_PREFIX = 'folio-parse-';
/**
 * What a process that ran out of room prints before it ends: V8 or C++ allocation failures, a
 * JavaScript array or string past V8's size limit ("Fatal JavaScript invalid size error", a
 * fatal error, not an exception), and the child's own memory watch.
 */
const OUT_OF_MEMORY = new RegExp(`heap out of memory|Reached heap limit|std::bad_alloc|Allocation failed|invalid size error|${WATCHDOG_MARK}`);
/** How long an ended child's stderr may take to deliver its last lines (its pipe outlives the exit event). */
const STDERR_DRAIN_MS = 500;

/**
 * Compiled (`npm start` runs dist/), the child runs plain JavaScript. From the TypeScript sources
 * (tests, `tsx`), a bootstrap teaches the child TypeScript first.
 */
const defaultWorkerPath = fileURLToPath(
  import.meta.url.endsWith('.ts') ? new URL('./parse-worker-bootstrap.mjs', import.meta.url) : new URL('./parse-worker.js', import.meta.url),
);

export function timeoutError(timeoutMs: number, queuedMs = 0): ServiceError {
  const waited = queuedMs >= 1000 ? ` (${Math.round(queuedMs)} ms of it waiting in the queue for a free parser)` : '';
  return new ServiceError(
    'SCRAPE_TIMEOUT',
    `The parse did not finish within its timeout of ${timeoutMs} ms${waited} and was stopped. Raise \`timeout\` (at most 300000) or send a smaller file.`,
  );
}

/**
 * A job that never left the queue: the file was not at fault, the server was busy. 429 with
 * `Retry-After`, because what a client should do is try again later, not raise its timeout or
 * shrink its file (docs/parse-isolation.md).
 */
export function queueTimeoutError(timeoutMs: number, retryAfterSeconds: number): ServiceError {
  return new ServiceError(
    'RATE_LIMITED',
    `The parse waited in the queue for its whole timeout of ${timeoutMs} ms without a free parser: the server is busy. Retry in ${retryAfterSeconds} s.`,
    { retryAfterSeconds },
  );
}

/** More parses waiting for a process than the server's bound (FOLIO_MAX_QUEUED_PARSES). */
export function poolFullError(maxQueue: number, retryAfterSeconds: number): ServiceError {
  return new ServiceError('RATE_LIMITED', `Too many parses are waiting (${maxQueue}); retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
}

export function memoryError(capMb: number): ServiceError {
  return new ServiceError(
    'CORRUPT_FILE',
    `This file needs more than ${capMb} MB of memory to read, the limit for one document on this server, and its parse was stopped. It may be damaged or built to exhaust parsers; a server operator can raise FOLIO_PARSE_WORKER_MEMORY_MB.`,
  );
}

/** Resident set of a process in MB, or undefined where /proc cannot tell (not Linux, already gone). */
export function processRssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Resident set of a process and the programs it started (pdftoppm and tesseract for OCR decode
 * the same hostile image), in MB; undefined where /proc cannot tell.
 */
export function processTreeRssMb(pid: number, depth = 0): number | undefined {
  const own = processRssMb(pid);
  if (own === undefined || depth > 4) return own;
  return childPids(pid).reduce((sum, child) => sum + (processTreeRssMb(child, depth + 1) ?? 0), own);
}

/** The processes a process started (Linux /proc; none where it cannot tell). */
function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return []; // gone, or no children file (not Linux, an old kernel)
  }
}

/** Every process below `pid`, children before grandchildren. */
function descendantPids(pid: number, depth = 0): number[] {
  if (depth > 4) return [];
  return childPids(pid).flatMap((child) => [child, ...descendantPids(child, depth + 1)]);
}

export function createParsePool(opts: ParsePoolOptions): ParsePool {
  const slots: Slot[] = Array.from({ length: opts.size }, () => ({ ready: false }));
  const capMb = opts.workerMemoryMb;
  const recycleMb = opts.recycleMb ?? Math.floor(capMb / 2);
  const workerPath = opts.workerPath ?? defaultWorkerPath;
  const queue: Job[] = [];
  const live = new Set<Proc>();
  let nextId = 1;
  let closed = false;
  let bootFailures = 0;
  /** Recent parse time (moving average), for Retry-After estimates. */
  let averageRunMs = 1000;
  let restarts = 0;
  const kills: Record<KillReason, number> = { timeout: 0, memory: 0, recycle: 0 };
  let sampler: NodeJS.Timeout | undefined;
  const readyWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];

  function notifyIfAllReady(): void {
    if (slots.every((s) => s.ready)) for (const waiter of readyWaiters.splice(0)) waiter.resolve();
  }

  function retryAfterSeconds(): number {
    const waves = queue.length / opts.size + 1;
    return Math.min(60, Math.max(1, Math.ceil((averageRunMs * waves) / 1000)));
  }

  function spawn(slot: Slot): void {
    if (slot.spawned) restarts++;
    slot.spawned = true;
    const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
    const child = fork(workerPath, [JSON.stringify({ ocr: { ...opts.ocr, tempDir }, limits: opts.limits ?? {}, memoryMb: capMb })], {
      // The JS heap alone may not pass the cap either: a heap past it fails inside V8, not later.
      execArgv: [`--max-old-space-size=${capMb}`],
      serialization: 'advanced',
      // Captured rather than inherited: library chatter must not land in the server's log stream.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Same session and process group as the server (one scheduling unit, as the worker threads
      // were); the programs it starts are found through /proc when it is killed.
      detached: false,
    });
    const proc: Proc = {
      child,
      tempDir,
      stderrTail: '',
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    live.add(proc);
    child.unref();
    child.channel?.unref();
    for (const [stream, isErr] of [[child.stdout, false], [child.stderr, true]] as const) {
      if (!stream) continue;
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (isErr) proc.stderrTail = (proc.stderrTail + chunk).slice(-4096);
        for (const line of chunk.split('\n')) if (line.trim()) opts.onWorkerOutput?.(line);
      });
    }
    slot.proc = proc;
    slot.ready = false;
    child.on('message', (reply: WorkerReply) => {
      if (slot.proc !== proc) return;
      if (reply.type === 'ready') {
        slot.ready = true;
        bootFailures = 0;
        notifyIfAllReady();
        dispatch();
      } else {
        onReply(slot, reply);
      }
    });
    child.on('error', (err) => {
      if (slot.proc === proc) opts.onUnexpectedError?.(`parse process error: ${err.stack ?? err.message}`);
    });
    child.once('exit', (code, signal) => {
      live.delete(proc);
      fs.rmSync(tempDir, { recursive: true, force: true });
      // No job goes to it from now on.
      const wasReady = slot.proc === proc && slot.ready;
      if (slot.proc === proc) slot.ready = false;
      // Why it ended is read from its last words, which may still be in the pipe.
      const stderr = child.stderr;
      if (!stderr || stderr.readableEnded || stderr.destroyed) {
        onUnexpectedExit(slot, proc, wasReady, code, signal);
        return;
      }
      const decide = (): void => {
        clearTimeout(timer);
        stderr.off('close', decide);
        onUnexpectedExit(slot, proc, wasReady, code, signal);
      };
      const timer = setTimeout(decide, STDERR_DRAIN_MS);
      stderr.once('close', decide);
    });
  }

  /**
   * Kills a child and the programs it started (pdftoppm, tesseract) now. Its slot is detached
   * from it at once. The child first, so that it starts nothing more; then the others, by the
   * pids read just before (where /proc cannot list them, their pipes close with the child and
   * they end on their own: docs/pdf-ocr.md).
   */
  function kill(slot: Slot): void {
    const proc = slot.proc;
    slot.proc = undefined;
    slot.ready = false;
    if (!proc) return;
    const pid = proc.child.pid;
    const below = pid === undefined ? [] : descendantPids(pid);
    proc.child.kill('SIGKILL');
    for (const other of below) {
      try {
        process.kill(other, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  function finish(slot: Slot | undefined, job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    job.detachSignal?.();
    if (slot && slot.job === job) slot.job = undefined;
    if (job.startedAt !== undefined) averageRunMs = 0.8 * averageRunMs + 0.2 * (Date.now() - job.startedAt);
  }

  function onReply(slot: Slot, reply: Exclude<WorkerReply, { type: 'ready' }>): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if (reply.type === 'progress') {
      job.onProgress?.(reply.progress);
      return;
    }
    if (reply.type === 'llm-usage') {
      job.onLlmUsage?.(reply.usage);
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
      opts.onUnexpectedError?.(reply.detail ?? 'parse process failed without details');
      job.reject(new Error('parse failed unexpectedly'));
    }
    // A child that grew during this job gives its memory back by being replaced.
    const pid = slot.proc?.child.pid;
    const rss = pid === undefined ? undefined : processRssMb(pid);
    if (rss !== undefined && rss > recycleMb) replace(slot, 'recycle');
    dispatch();
  }

  /** A child that exits on its own (a crash, V8 out of heap) takes its job with it; the slot gets a fresh one. */
  function onUnexpectedExit(slot: Slot, proc: Proc, wasReady: boolean, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.proc !== proc) return;
    slot.proc = undefined;
    slot.ready = false;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const job = slot.job;
    if (job) {
      finish(slot, job);
      // SIGKILL that the pool did not send is the child's own memory watch or the kernel's OOM killer.
      if (OUT_OF_MEMORY.test(proc.stderrTail) || signal === 'SIGKILL') {
        kills.memory++;
        job.reject(memoryError(capMb));
      } else {
        opts.onUnexpectedError?.(`parse process exited (${how}) during a parse: ${proc.stderrTail.slice(-1000)}`);
        job.reject(new Error('parse process died'));
      }
    }
    if (!wasReady && !job) {
      bootFailures++;
      opts.onUnexpectedError?.(`parse process failed to start (${how}): ${proc.stderrTail.slice(-2000)}`);
      if (bootFailures >= MAX_BOOT_FAILURES) {
        // Respawning would loop: fail what waits, and try again only when new work comes.
        const cannotStart = new Error(
          proc.stderrTail.includes(WATCHDOG_MARK)
            ? `parse processes cannot start: loading the readers takes more than their memory cap of ${capMb} MB (FOLIO_PARSE_WORKER_MEMORY_MB); raise it`
            : `parse processes cannot start: they exit (${how}) while loading`,
        );
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

  /** Kills the slot's child and starts its replacement in the background. */
  function replace(slot: Slot, reason: KillReason): void {
    kills[reason]++;
    kill(slot);
    if (!closed) replenish();
  }

  /** Every slot without a child gets one, so start-up cost is paid before work arrives. */
  function replenish(): void {
    for (const slot of slots) if (!slot.proc && !closed) spawn(slot);
    dispatch();
  }

  /** Reads the RSS of every busy child; one past the cap is killed and its job answered. */
  function sample(): void {
    let busy = false;
    for (const slot of slots) {
      const job = slot.job;
      const pid = slot.proc?.child.pid;
      if (!job || pid === undefined) continue;
      busy = true;
      const rss = processTreeRssMb(pid);
      if (rss === undefined || rss <= capMb) continue;
      finish(slot, job);
      replace(slot, 'memory');
      job.reject(memoryError(capMb));
    }
    if (!busy && sampler) {
      clearInterval(sampler);
      sampler = undefined;
    }
  }

  function watchMemory(): void {
    if (sampler) return;
    sampler = setInterval(sample, opts.rssSampleMs ?? 50);
    sampler.unref();
  }

  /** The job's timeout: still queued, it is refused as busy; running, its child is killed. */
  function expire(job: Job): void {
    const queued = queue.indexOf(job);
    if (queued >= 0) {
      queue.splice(queued, 1);
      finish(undefined, job);
      job.reject(queueTimeoutError(job.timeoutMs, retryAfterSeconds()));
      return;
    }
    const slot = slots.find((s) => s.job === job);
    if (!slot) return;
    finish(slot, job);
    replace(slot, 'timeout');
    job.reject(timeoutError(job.timeoutMs, (job.startedAt ?? job.enqueuedAt) - job.enqueuedAt));
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (closed || queue.length === 0) return;
      if (!slot.proc) spawn(slot);
      if (slot.job || !slot.ready || !slot.proc) continue;
      const job = queue.shift() as Job;
      slot.job = job;
      job.startedAt = Date.now();
      const message = job.message;
      // The bytes are copied into the channel; the pool keeps no second copy while the child parses.
      job.message = { ...message, bytes: new Uint8Array(0) };
      slot.proc.child.send(message, (err) => {
        if (err && slot.job === job) opts.onUnexpectedError?.(`could not hand a job to a parse process: ${err.message}`);
      });
      watchMemory();
    }
  }

  replenish();

  return {
    run(input, options, runOptions = {}) {
      if (bootFailures >= MAX_BOOT_FAILURES) bootFailures = 0;
      if (closed) return Promise.reject(new ServiceError('UNKNOWN_ERROR', 'The server is shutting down.'));
      if (queue.length >= opts.maxQueue) {
        return Promise.reject(poolFullError(opts.maxQueue, retryAfterSeconds()));
      }
      runOptions.signal?.throwIfAborted();
      return new Promise<ParseData>((resolve, reject) => {
        // A private copy of exactly the file: a view into a larger buffer would send all of it.
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
            endsAt: 0,
            ...(opts.llm ? { llm: opts.llm } : {}),
          },
          timeoutMs: options.timeout,
          enqueuedAt: Date.now(),
          waited: !slots.some((s) => s.ready && s.job === undefined) || queue.length > 0,
          resolve,
          reject,
          ...(runOptions.onProgress ? { onProgress: runOptions.onProgress } : {}),
          ...(runOptions.onLlmUsage ? { onLlmUsage: runOptions.onLlmUsage } : {}),
        };
        job.message.id = job.id;
        job.message.deadline = readingDeadline(job.enqueuedAt, options.timeout);
        job.message.endsAt = job.enqueuedAt + options.timeout;
        job.timer = setTimeout(() => expire(job), options.timeout);
        const signal = runOptions.signal;
        if (signal) {
          const onAbort = () => {
            const queued = queue.indexOf(job);
            if (queued < 0) return;
            queue.splice(queued, 1);
            finish(undefined, job);
            job.reject(signal.reason);
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
    stats() {
      return {
        size: opts.size,
        ready: slots.filter((s) => s.ready).length,
        running: slots.filter((s) => s.job).length,
        queued: queue.length,
        restarts,
        kills: { ...kills },
      };
    },
    pids() {
      return [...live].flatMap((p) => (p.child.pid === undefined || p.child.exitCode !== null || p.child.signalCode !== null ? [] : [p.child.pid]));
    },
    async close() {
      closed = true;
      if (sampler) clearInterval(sampler);
      for (const waiter of readyWaiters.splice(0)) waiter.resolve();
      const shutdown = new ServiceError('UNKNOWN_ERROR', 'The server is shutting down.');
      for (const job of queue.splice(0)) {
        finish(undefined, job);
        job.reject(shutdown);
      }
      for (const slot of slots) {
        const job = slot.job;
        if (job) {
          finish(slot, job);
          job.reject(shutdown);
        }
        kill(slot);
      }
      // Children are unref'd so that an idle pool keeps nobody alive; here the event loop must
      // stay up until their exits are seen (an awaited close would otherwise never settle).
      for (const p of live) p.child.ref();
      await Promise.all([...live].map((p) => p.exited));
    },
  };
}
