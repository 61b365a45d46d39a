/**
 * The teams' places (plan `maxConcurrent`) shared by every instance on one Redis: per team a
 * semaphore of leases (`folio:team:{id}:places`, lease id → expiry) and a FIFO of waiting jobs
 * (`…:waiting`, `…:waiting-expiry`, `…:arrivals`), each step one Lua script (scripts.ts).
 *
 * - A lease expires `leaseTtlMs` after its last renewal; the instance renews it every third of
 *   that while the job runs. A killed instance stops renewing: its places come back within the TTL.
 * - A waiting job renews its ticket each time it looks (every `pollMs`); a killed instance's
 *   tickets leave the queue within `waiterTtlMs`.
 * - A freed place is published on `folio:limits:freed` (the team id): every instance's waiters
 *   of that team look again at once; the poll covers leases that expired instead.
 * - The queue bound (FOLIO_MAX_QUEUED_PER_TEAM) counts the team's waiting jobs of all instances.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AcquireOptions, Lease, TeamQueue, TeamQueueStats } from '../teams/index.ts';
import { integers, PLACE_ACQUIRE, PLACE_RELEASE, PLACE_RENEW, PLACE_STATS, run } from './scripts.ts';
import { limitsUnavailable, shared } from './unavailable.ts';

export const FREED_CHANNEL = 'folio:limits:freed';
/** How long the team's last success is remembered. */
const LAST_SUCCESS_TTL_MS = 7 * 86_400_000;

export interface RedisTeamQueueOptions {
  /** A lease not renewed for this long is free again. */
  leaseTtlMs: number;
  /** How often a waiting job looks again without a message (expired leases). Default 1 s. */
  pollMs?: number;
  /** Errors of background calls (renewals, releases): the lease expires on its own. */
  onError(err: unknown, message: string): void;
}

interface Waiter {
  wake(): void;
}

function keys(team: string) {
  const base = `folio:team:{${team}}`;
  return { places: `${base}:places`, waiting: `${base}:waiting`, waitingExpiry: `${base}:waiting-expiry`, arrivals: `${base}:arrivals`, lastSuccess: `${base}:last-success` };
}

export class RedisTeamQueue implements TeamQueue {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly pollMs: number;
  private readonly waiterTtlMs: number;
  /** Moving average of how long a job holds its place (this instance), for Retry-After. */
  private averageHoldMs = 1000;
  private readonly renewals = new Set<NodeJS.Timeout>();

  constructor(
    private readonly client: Redis,
    private readonly options: RedisTeamQueueOptions,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.waiterTtlMs = Math.max(5_000, this.pollMs * 5);
  }

  /** A message on FREED_CHANNEL: the team's waiters here look again. */
  freed(team: string): void {
    for (const waiter of this.waiters.get(team) ?? []) waiter.wake();
  }

  async acquire(team: string, options: AcquireOptions): Promise<Lease> {
    options.signal?.throwIfAborted();
    const ticket = randomBytes(12).toString('base64url');
    const k = keys(team);
    const maxWaiting = Number.isFinite(options.maxQueued) ? options.maxQueued : -1;
    // A team without a limit still has its running jobs counted (queue status).
    const limit = Number.isFinite(options.limit) ? options.limit : 1e9;
    const attempt = async () =>
      integers(await run(this.client, PLACE_ACQUIRE, [k.places, k.waiting, k.waitingExpiry, k.arrivals], [ticket, limit, maxWaiting, this.options.leaseTtlMs, this.waiterTtlMs]));
    const enqueuedAt = Date.now();
    const [state = 0, , waiting = 0] = await shared(attempt);
    if (state === 1) return this.lease(team, ticket, enqueuedAt, false);
    if (state === -1) throw options.refuse(this.retryAfterSeconds(options.limit, waiting));

    return new Promise<Lease>((resolve, reject) => {
      let done = false;
      let looking = false;
      let again = false;
      const waiters = this.waiters.get(team) ?? new Set<Waiter>();
      this.waiters.set(team, waiters);
      const finish = () => {
        done = true;
        clearInterval(poll);
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        waiters.delete(waiter);
        if (waiters.size === 0 && this.waiters.get(team) === waiters) this.waiters.delete(team);
      };
      /** Leaves the queue (a timeout, the client gone, Redis away): the ticket is taken out. */
      const leave = (reason: unknown) => {
        if (done) return;
        finish();
        this.giveBack(team, ticket, false);
        reject(reason);
      };
      const look = async () => {
        if (done) return;
        if (looking) {
          again = true;
          return;
        }
        looking = true;
        try {
          do {
            again = false;
            const [now = 0] = await attempt();
            if (now === 1) {
              if (done) {
                // Dropped while the answer was on its way: the place goes straight back.
                this.giveBack(team, ticket, false);
                return;
              }
              finish();
              resolve(this.lease(team, ticket, enqueuedAt, true));
              return;
            }
          } while (again && !done);
        } catch (err) {
          leave(limitsUnavailable(err));
        } finally {
          looking = false;
        }
      };
      const waiter: Waiter = { wake: () => void look() };
      waiters.add(waiter);
      const poll = setInterval(() => void look(), this.pollMs);
      let timer: NodeJS.Timeout | undefined;
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => leave(options.expire(Date.now() - enqueuedAt)), Math.max(0, options.timeoutMs - (Date.now() - enqueuedAt)));
      }
      const onAbort = () => leave(options.signal?.reason);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // A place may have been freed between the first look and the subscription of this waiter.
      void look();
    });
  }

  async stats(team: string): Promise<TeamQueueStats> {
    const k = keys(team);
    const [running = 0, waiting = 0, last = -1] = integers(await shared(() => run(this.client, PLACE_STATS, [k.places, k.waiting, k.waitingExpiry, k.lastSuccess], [])));
    return { running, waiting, mostRecentSuccess: last >= 0 ? new Date(last) : null };
  }

  /** Stops renewing (shutdown: in-flight work has finished by then). */
  close(): void {
    for (const timer of this.renewals) clearInterval(timer);
    this.renewals.clear();
  }

  private lease(team: string, ticket: string, enqueuedAt: number, waited: boolean): Lease {
    const startedAt = Date.now();
    const k = keys(team);
    const renewal = setInterval(() => {
      run(this.client, PLACE_RENEW, [k.places], [ticket, this.options.leaseTtlMs]).then(
        (kept) => {
          if (Number(kept) === 0) this.options.onError(new Error(`a running job's place of team ${team} had expired (not renewed within ${this.options.leaseTtlMs} ms)`), 'team place lost');
        },
        (err: unknown) => this.options.onError(err, 'could not renew a team place in Redis'),
      );
    }, Math.max(100, Math.floor(this.options.leaseTtlMs / 3)));
    renewal.unref();
    this.renewals.add(renewal);
    let released = false;
    return {
      waited,
      waitedMs: waited ? startedAt - enqueuedAt : 0,
      release: (succeeded = false) => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        this.renewals.delete(renewal);
        this.averageHoldMs = 0.8 * this.averageHoldMs + 0.2 * (Date.now() - startedAt);
        this.giveBack(team, ticket, succeeded);
      },
    };
  }

  private giveBack(team: string, ticket: string, succeeded: boolean): void {
    const k = keys(team);
    run(this.client, PLACE_RELEASE, [k.places, k.waiting, k.waitingExpiry, k.lastSuccess], [ticket, succeeded ? 1 : 0, FREED_CHANNEL, team, LAST_SUCCESS_TTL_MS]).catch((err: unknown) =>
      this.options.onError(err, 'could not give a team place back to Redis (it frees itself when its lease expires)'),
    );
  }

  /** When a place is likely free for a new job: the team's queue in waves of its limit. */
  private retryAfterSeconds(limit: number, waiting: number): number {
    const waves = waiting / Math.max(1, limit) + 1;
    return Math.min(60, Math.max(1, Math.ceil((this.averageHoldMs * waves) / 1000)));
  }
}
