/**
 * Graceful shutdown's state (docs/operations.md): once draining, the instance is not ready and
 * takes no new work; `idle()` resolves when the requests it had in flight have finished.
 */

export interface Drain {
  readonly draining: boolean;
  /** Requests being answered now (the probes and metrics scrapes excluded). */
  readonly inFlight: number;
  /** Seconds a refused client is told to wait: another instance takes it, or this one restarted. */
  readonly retryAfterSeconds: number;
  /** Marks a request started; call the returned function once it is answered or its client gone. */
  enter(): () => void;
  /** Stops taking work. Idempotent. */
  start(): void;
  /** Resolves when nothing is in flight (at once when nothing is). */
  idle(): Promise<void>;
}

export function createDrain(retryAfterSeconds = 5): Drain {
  let draining = false;
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const wake = () => {
    if (inFlight > 0) return;
    for (const w of waiters.splice(0)) w();
  };
  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight;
    },
    retryAfterSeconds,
    enter() {
      inFlight++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        inFlight--;
        wake();
      };
    },
    start() {
      draining = true;
    },
    idle() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
      });
    },
  };
}
