/**
 * Team limits (issue 15 items 2 and 3; docs/limits.md): what one team may ask of the server, the
 * same for every door (HTTP, MCP with a key or an OAuth token, tokens the CLI issued).
 *
 * - `admit(teamId)`: the plan's requests per minute, a sliding window keyed by team → 429
 *   RATE_LIMITED with `Retry-After`.
 * - `job(teamId, …)`: a place among the team's `maxConcurrent` running jobs, taken in a fair
 *   queue (round-robin across teams, FIFO within one, each team's queue bounded → 429 with
 *   `Retry-After`). The wait counts against the job's `timeout` (past it: 408 SCRAPE_TIMEOUT
 *   saying it waited). A job started inside another of the same team (a scrape's parse, a
 *   search's result scrapes) runs on its place: no second place, no deadlock at maxConcurrent 1.
 * - `runner(inner)`: the parse runner in front of the pool. A parse with a team takes its team's
 *   place (unless its caller holds one) and then a parse-pool place in a second fair queue, so
 *   that the pool's next free process goes to the next team in turn, not to the longest queue.
 *   A parse that waited carries `metadata.concurrencyLimited` and `concurrencyQueueDurationMs`.
 * - `place(teamId, …)`: a place held by something long-lived (an open browser session) until it
 *   ends; taken at once or refused (429), never queued.
 *
 * The rate window and the team places are in memory by default; with REDIS_URL serve hands in
 * the Redis ones (src/limits/redis: shared by every instance). The parse pool's queue stays here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PlanSource } from '../../accounts/plan.ts';
import { ServiceError } from '../../errors.ts';
import type { ParseData } from '../../parse/index.ts';
import { poolFullError, queueTimeoutError, timeoutError } from '../parse-pool.ts';
import type { ParseRunner } from '../runner.ts';
import { FairQueue, type Lease, type TeamQueue } from './fair-queue.ts';
import { memoryRateWindow, type RateWindow } from './rate-window.ts';

export { FairQueue, type AcquireOptions, type Lease, type TeamQueue, type TeamQueueStats } from './fair-queue.ts';
export { memoryRateWindow, RATE_WINDOW_MS, type RateDecision, type RateWindow } from './rate-window.ts';

export interface TeamLimitsOptions {
  plans: PlanSource;
  /** Parse processes (config.maxConcurrentParses): the places of the pool's fair queue. */
  parseSlots: number;
  /** Jobs one team may have waiting (FOLIO_MAX_QUEUED_PER_TEAM). */
  maxQueuedPerTeam: number;
  /** Parses waiting for a parse process, all teams together (FOLIO_MAX_QUEUED_PARSES: the pool's bound). */
  maxQueuedParses: number;
  /** Default: in memory, this process. */
  rate?: RateWindow;
  /** The teams' places (maxConcurrent). Default: in memory, this process; with REDIS_URL, shared. */
  jobs?: TeamQueue;
  now?: () => number;
}

/** The Firecrawl SDK's `getQueueStatus` answer (without `success`). */
export interface TeamQueueStatus {
  jobsInQueue: number;
  activeJobsInQueue: number;
  waitingJobsInQueue: number;
  maxConcurrency: number;
  mostRecentSuccess: string | null;
}

export interface JobOptions {
  /** The job's whole `timeout`, in ms: the wait counts against it. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** What the job is, for the messages ("parse", "scrape"…). */
  what?: string;
  /**
   * Crawl and batch pages: never refused (their crawl's own concurrency bounds how many wait),
   * and their `timeout` starts when they do, not when they began to wait.
   */
  background?: boolean;
}

/** A team place held by the running code (and everything it calls). */
export interface HeldJob {
  teamId: string;
  waited: boolean;
  waitedMs: number;
}

export interface TeamLimits {
  admit(teamId: string): Promise<void>;
  /** Runs `fn` on a place of the team; `fn` gets the time left of the job's timeout. */
  job<T>(teamId: string, options: JobOptions, fn: (remainingMs: number, held: HeldJob) => Promise<T>): Promise<T>;
  /** The team place the calling code runs on, if any. */
  held(teamId?: string): HeldJob | undefined;
  runner(inner: ParseRunner): ParseRunner;
  /**
   * A crawl or batch page of the job owned by `owner` (`team:<id>`): it waits its turn among the
   * team's jobs (never refused, its timeout starting when it does).
   */
  crawlPage<T>(owner: string | undefined, timeoutMs: number, signal: AbortSignal | undefined, fn: (remainingMs: number, teamId?: string) => Promise<T>): Promise<T>;
  queueStatus(teamId: string): Promise<TeamQueueStatus>;
  concurrency(teamId: string): Promise<{ concurrency: number; maxConcurrency: number }>;
  /**
   * A place among the team's running jobs held until `release()` by something long-lived (a
   * browser session): taken now or refused with `refusal(maxConcurrent, running)`, never queued.
   */
  place(teamId: string, refusal: (maxConcurrent: number, running: number) => ServiceError): Promise<Lease>;
}

/** The owner string of a team's resources (crawl jobs, upload refs). */
const TEAM_OWNER = 'team:';

function humanSeconds(seconds: number): string {
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

export function rateLimitedError(limit: number, retryAfterSeconds: number): ServiceError {
  const when = new Date(Date.now() + retryAfterSeconds * 1000).toISOString();
  return new ServiceError(
    'RATE_LIMITED',
    `Rate limit reached: this team's plan allows ${limit} requests per minute (all doors together). Retry in ${humanSeconds(retryAfterSeconds)} (after ${when}), or ask the operator to raise it (\`folio teams set <team> --rate-per-minute N\`).`,
    { retryAfterSeconds },
  );
}

export function teamQueueFullError(maxQueued: number, maxConcurrent: number, retryAfterSeconds: number): ServiceError {
  return new ServiceError(
    'RATE_LIMITED',
    `This team already has ${maxQueued} jobs waiting behind its ${maxConcurrent} running ones (its concurrency limit). Retry in ${humanSeconds(retryAfterSeconds)}, or send fewer requests at once.`,
    { retryAfterSeconds },
  );
}

export function queueWaitTimeoutError(what: string, timeoutMs: number, waitedMs: number): ServiceError {
  return new ServiceError(
    'SCRAPE_TIMEOUT',
    `The ${what} waited ${Math.round(waitedMs)} ms in the queue (this team's concurrency limit was reached) and never started within its timeout of ${timeoutMs} ms. Raise \`timeout\` (at most 300000) or send fewer requests at once.`,
  );
}

/** Adds a wait to the spec's concurrency metadata of a result (a pool wait may already be there). */
export function markWaited(data: ParseData, waitedMs: number): void {
  const before = data.metadata.concurrencyLimited === true ? Number(data.metadata.concurrencyQueueDurationMs ?? 0) : 0;
  data.metadata.concurrencyLimited = true;
  data.metadata.concurrencyQueueDurationMs = Math.round(before + waitedMs);
}

export function createTeamLimits(options: TeamLimitsOptions): TeamLimits {
  const now = options.now ?? Date.now;
  const rate = options.rate ?? memoryRateWindow({ now });
  /** Every job of a team: its plan's maxConcurrent, no global bound. */
  const jobs: TeamQueue = options.jobs ?? new FairQueue(Number.POSITIVE_INFINITY, { now });
  /** Parses handed to the pool: the pool's places, taken in turn by team. */
  const pool = new FairQueue(Math.max(1, options.parseSlots), { now, maxWaiting: options.maxQueuedParses });
  const context = new AsyncLocalStorage<HeldJob>();

  const held = (teamId?: string): HeldJob | undefined => {
    const current = context.getStore();
    return current && (teamId === undefined || current.teamId === teamId) ? current : undefined;
  };

  const job = async <T>(teamId: string, jobOptions: JobOptions, fn: (remainingMs: number, held: HeldJob) => Promise<T>): Promise<T> => {
    const outer = held(teamId);
    if (outer) return fn(jobOptions.timeoutMs, outer);
    const plan = await options.plans.planFor(teamId);
    const what = jobOptions.what ?? 'request';
    const lease = await jobs.acquire(teamId, {
      limit: plan.maxConcurrent,
      maxQueued: jobOptions.background ? Number.POSITIVE_INFINITY : options.maxQueuedPerTeam,
      ...(jobOptions.background ? {} : { timeoutMs: jobOptions.timeoutMs }),
      ...(jobOptions.signal ? { signal: jobOptions.signal } : {}),
      refuse: (seconds) => teamQueueFullError(options.maxQueuedPerTeam, plan.maxConcurrent, seconds),
      expire: (waitedMs) => queueWaitTimeoutError(what, jobOptions.timeoutMs, waitedMs),
    });
    const mine: HeldJob = { teamId, waited: lease.waited, waitedMs: lease.waitedMs };
    let succeeded = false;
    try {
      const remainingMs = jobOptions.background ? jobOptions.timeoutMs : jobOptions.timeoutMs - lease.waitedMs;
      if (remainingMs <= 0) throw queueWaitTimeoutError(what, jobOptions.timeoutMs, lease.waitedMs);
      const result = await context.run(mine, () => fn(remainingMs, mine));
      succeeded = true;
      return result;
    } finally {
      lease.release(succeeded);
    }
  };

  const runner = (inner: ParseRunner): ParseRunner =>
    async (input, parseOptions, run = {}) => {
      const teamId = run.teamId ?? held()?.teamId;
      if (teamId === undefined) return inner(input, parseOptions, run);
      const timeoutMs = parseOptions.timeout;
      return job(teamId, { timeoutMs, ...(run.signal ? { signal: run.signal } : {}), what: 'parse' }, async (remainingMs, place) => {
        // The team place's wait (this parse's own, or that of the scrape or search it belongs to).
        const ownWaitMs = place.waitedMs;
        const started = now();
        const slot = await pool.acquire(teamId, {
          limit: Number.POSITIVE_INFINITY,
          maxQueued: Number.POSITIVE_INFINITY,
          timeoutMs: remainingMs,
          ...(run.signal ? { signal: run.signal } : {}),
          // The pool's own answers (docs/parse-isolation.md): the server is busy, come back later.
          refuse: (seconds) => poolFullError(options.maxQueuedParses, seconds),
          expire: () => queueTimeoutError(timeoutMs, Math.max(1, Math.min(60, Math.ceil(timeoutMs / 1000)))),
        });
        const waitedMs = ownWaitMs + slot.waitedMs;
        let data: ParseData;
        let ok = false;
        try {
          // A parse that waited has what is left of its timeout; one that did not keeps its options as
          // the client sent them (the queue's bookkeeping takes well under a millisecond).
          const waited = place.waited || slot.waited;
          data = await inner(input, waited ? { ...parseOptions, timeout: Math.max(1, remainingMs - (now() - started)) } : parseOptions, run);
          ok = true;
        } catch (err) {
          // The timeout the client set, with the time it spent waiting, not the remainder.
          if (waitedMs > 0 && err instanceof ServiceError && err.code === 'SCRAPE_TIMEOUT') throw timeoutError(timeoutMs, waitedMs);
          throw err;
        } finally {
          slot.release(ok);
        }
        if (place.waited || slot.waited) markWaited(data, waitedMs);
        return data;
      });
    };

  return {
    async admit(teamId) {
      const plan = await options.plans.planFor(teamId);
      if (plan.ratePerMinute === null) return;
      const decision = await rate.hit(teamId, plan.ratePerMinute);
      if (!decision.admitted) throw rateLimitedError(plan.ratePerMinute, decision.retryAfterSeconds);
    },
    job,
    held,
    runner,
    crawlPage(owner, timeoutMs, signal, fn) {
      if (!owner?.startsWith(TEAM_OWNER)) return fn(timeoutMs);
      const teamId = owner.slice(TEAM_OWNER.length);
      return job(teamId, { timeoutMs, ...(signal ? { signal } : {}), what: 'crawl page', background: true }, (remainingMs) => fn(remainingMs, teamId));
    },
    async queueStatus(teamId) {
      const plan = await options.plans.planFor(teamId);
      const stats = await jobs.stats(teamId);
      return {
        jobsInQueue: stats.running + stats.waiting,
        activeJobsInQueue: stats.running,
        waitingJobsInQueue: stats.waiting,
        maxConcurrency: plan.maxConcurrent,
        mostRecentSuccess: stats.mostRecentSuccess?.toISOString() ?? null,
      };
    },
    async concurrency(teamId) {
      const plan = await options.plans.planFor(teamId);
      return { concurrency: (await jobs.stats(teamId)).running, maxConcurrency: plan.maxConcurrent };
    },
    async place(teamId, refusal) {
      const plan = await options.plans.planFor(teamId);
      // The count the refusal names, read first: the Redis queue's stats are asynchronous.
      const { running } = await jobs.stats(teamId);
      return jobs.acquire(teamId, {
        limit: plan.maxConcurrent,
        maxQueued: 0,
        refuse: () => refusal(plan.maxConcurrent, running),
        expire: () => refusal(plan.maxConcurrent, running),
      });
    },
  };
}
