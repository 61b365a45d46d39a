/**
 * A counting semaphore: the server-wide bound on crawl pages fetched and parsed at once
 * (config.crawlConcurrency), shared by every job, so that many jobs cannot multiply the load.
 * Waiters are served first come, first served; an aborted waiter leaves the line.
 */
interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class Slots {
  #free: number;
  readonly #waiters: Waiter[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free -= 1;
      return this.#releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, ...(signal ? { signal } : {}) };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.#waiters.indexOf(waiter);
          if (i !== -1) this.#waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#waiters.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) {
        if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
        next.resolve();
      } else {
        this.#free += 1;
      }
    };
  }
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Per-host politeness within a job: with a delay, one request at a time per host and at least
 * `delayMs` between the start of two; without one, no more than `maxPerHost` at once.
 */
export class HostGate {
  readonly #maxPerHost: number;
  readonly #hosts = new Map<string, { nextAt: number; slots: Slots }>();

  constructor(maxPerHost: number) {
    this.#maxPerHost = maxPerHost;
  }

  /** Waits for the host's turn; returns the release function. */
  async enter(host: string, delayMs: number, signal?: AbortSignal): Promise<() => void> {
    let entry = this.#hosts.get(host);
    if (!entry) {
      entry = { nextAt: 0, slots: new Slots(delayMs > 0 ? 1 : this.#maxPerHost) };
      this.#hosts.set(host, entry);
    }
    const release = await entry.slots.acquire(signal);
    try {
      const wait = entry.nextAt - Date.now();
      await sleep(wait, signal);
      entry.nextAt = Date.now() + delayMs;
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }
}
