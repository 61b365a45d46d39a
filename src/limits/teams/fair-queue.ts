/**
 * A fair queue (issue 15 "Concurrency per team"): jobs of many teams share `capacity` running
 * places; each team runs at most its own limit at once; what cannot start waits in its team's
 * FIFO, and a freed place goes to the next team in round-robin order that may start one. A team
 * that floods the queue therefore delays only itself: another team's job starts at the next free
 * place, whatever the flood's length.
 *
 * In memory and per process, behind the `TeamQueue` interface (`acquire`/`release`, `stats`); with
 * REDIS_URL the teams' places are a Redis semaphore shared by the instances (src/limits/redis).
 */

/** A running place, held until `release()`. */
export interface Lease {
  /** Whether the job had to wait (the spec's `concurrencyLimited`). */
  readonly waited: boolean;
  /** Time spent waiting, in ms (0 when it started at once). */
  readonly waitedMs: number;
  /** Gives the place back (idempotent); `succeeded` feeds the team's `mostRecentSuccess`. */
  release(succeeded?: boolean): void;
}

export interface AcquireOptions {
  /** Jobs this team may run at once (its plan's maxConcurrent); Infinity for none. */
  limit: number;
  /** Jobs this team may have waiting; over it `refuse(retryAfterSeconds)` is thrown at once. */
  maxQueued: number;
  /** Longest wait, in ms; past it the job leaves the queue and `expire(waitedMs)` is thrown. */
  timeoutMs?: number;
  /** Aborting it takes a waiting job out of the queue (the client went away). */
  signal?: AbortSignal;
  refuse(retryAfterSeconds: number): Error;
  expire(waitedMs: number): Error;
}

export interface TeamQueueStats {
  running: number;
  waiting: number;
  /** When a job of the team last ended well; null when none has since the start. */
  mostRecentSuccess: Date | null;
}

/** Places per team, taken and given back: the in-memory `FairQueue`, or the Redis one of several instances. */
export interface TeamQueue {
  acquire(team: string, options: AcquireOptions): Promise<Lease>;
  stats(team: string): TeamQueueStats | Promise<TeamQueueStats>;
}

interface Ticket {
  team: string;
  enqueuedAt: number;
  resolve(lease: Lease): void;
  reject(err: unknown): void;
  cleanup(): void;
}

interface TeamState {
  running: number;
  limit: number;
  waiting: Ticket[];
}

export class FairQueue implements TeamQueue {
  private readonly teams = new Map<string, TeamState>();
  /** Teams with waiting jobs, in serving order: the head is served first, a served team goes last. */
  private ring: string[] = [];
  private running = 0;
  /** Moving average of how long a job holds its place, for Retry-After. */
  private averageHoldMs = 1000;
  private readonly lastSuccess = new Map<string, Date>();
  private readonly now: () => number;

  /** Jobs waiting, all teams together, before `refuse` (Infinity: only the team bounds). */
  private readonly maxWaiting: number;

  constructor(
    private readonly capacity: number,
    options: { now?: () => number; maxWaiting?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxWaiting = options.maxWaiting ?? Number.POSITIVE_INFINITY;
  }

  acquire(team: string, options: AcquireOptions): Promise<Lease> {
    options.signal?.throwIfAborted();
    const state = this.state(team);
    state.limit = options.limit;
    if (state.waiting.length === 0 && state.running < state.limit && this.running < this.capacity) {
      return Promise.resolve(this.start(state, team, this.now(), false));
    }
    if (state.waiting.length >= options.maxQueued || this.load().waiting >= this.maxWaiting) {
      this.forgetIfIdle(team);
      return Promise.reject(options.refuse(this.retryAfterSeconds(state)));
    }
    return new Promise<Lease>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => this.drop(ticket, options.signal?.reason);
      const ticket: Ticket = {
        team,
        enqueuedAt: this.now(),
        resolve,
        reject,
        cleanup: () => {
          if (timer) clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        },
      };
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => this.drop(ticket, options.expire(this.now() - ticket.enqueuedAt)), Math.max(0, options.timeoutMs));
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(ticket);
      if (!this.ring.includes(team)) this.ring.push(team);
      // A team below its limit with places free starts at once even behind its own waiting jobs.
      this.dispatch();
    });
  }

  stats(team: string): TeamQueueStats {
    const state = this.teams.get(team);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0, mostRecentSuccess: this.lastSuccess.get(team) ?? null };
  }

  /** Jobs running and waiting, all teams together. */
  load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const state of this.teams.values()) waiting += state.waiting.length;
    return { running: this.running, waiting };
  }

  private state(team: string): TeamState {
    let state = this.teams.get(team);
    if (!state) {
      state = { running: 0, limit: 1, waiting: [] };
      this.teams.set(team, state);
    }
    return state;
  }

  private start(state: TeamState, team: string, enqueuedAt: number, waited: boolean): Lease {
    state.running++;
    this.running++;
    const startedAt = this.now();
    let released = false;
    return {
      waited,
      waitedMs: waited ? startedAt - enqueuedAt : 0,
      release: (succeeded = false) => {
        if (released) return;
        released = true;
        state.running--;
        this.running--;
        const end = this.now();
        this.averageHoldMs = 0.8 * this.averageHoldMs + 0.2 * (end - startedAt);
        if (succeeded) this.lastSuccess.set(team, new Date(end));
        this.forgetIfIdle(team);
        this.dispatch();
      },
    };
  }

  /** Starts waiting jobs while places are free: round-robin over teams, FIFO within one. */
  private dispatch(): void {
    while (this.running < this.capacity && this.ring.length > 0) {
      const index = this.ring.findIndex((team) => {
        const state = this.teams.get(team);
        return state !== undefined && state.waiting.length > 0 && state.running < state.limit;
      });
      if (index < 0) return;
      const team = this.ring[index] as string;
      const state = this.teams.get(team) as TeamState;
      const ticket = state.waiting.shift() as Ticket;
      this.ring.splice(index, 1);
      if (state.waiting.length > 0) this.ring.push(team);
      ticket.cleanup();
      ticket.resolve(this.start(state, team, ticket.enqueuedAt, true));
    }
  }

  private drop(ticket: Ticket, reason: unknown): void {
    const state = this.teams.get(ticket.team);
    const index = state?.waiting.indexOf(ticket) ?? -1;
    if (!state || index < 0) return;
    state.waiting.splice(index, 1);
    if (state.waiting.length === 0) this.ring = this.ring.filter((t) => t !== ticket.team);
    ticket.cleanup();
    ticket.reject(reason);
    this.forgetIfIdle(ticket.team);
  }

  private forgetIfIdle(team: string): void {
    const state = this.teams.get(team);
    if (state && state.running === 0 && state.waiting.length === 0) this.teams.delete(team);
  }

  /** When a place of this team is likely to be free for a new job: its queue in waves of its limit. */
  private retryAfterSeconds(state: TeamState): number {
    const limit = Number.isFinite(state.limit) ? Math.max(1, state.limit) : Math.max(1, this.capacity);
    const waves = state.waiting.length / limit + 1;
    return Math.min(60, Math.max(1, Math.ceil((this.averageHoldMs * waves) / 1000)));
  }
}
