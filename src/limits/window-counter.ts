/**
 * Fixed-window counters: a count per key that starts at the key's first event and is forgotten
 * `windowMs` later. The OAuth sign-in attempt limit (auth/sign-in-attempts.ts) and the client
 * registration limit (src/http/routes/oauth-register.ts) count with one. In memory (one process)
 * by default; with REDIS_URL the instances share a Redis one (src/limits/redis).
 */

export interface WindowCount {
  /** Events counted in the key's current window. */
  count: number;
  /** Milliseconds until the window ends (0 when there is none). */
  resetInMs: number;
}

export interface WindowCounter {
  /** Counts one event of `key`, starting a window of `windowMs` when none is open. */
  add(key: string, windowMs: number): Promise<WindowCount>;
  /** The key's current count, without counting. */
  peek(key: string): Promise<WindowCount>;
  /** Forgets the key's window. */
  clear(key: string): Promise<void>;
}

/** Keys kept before windows that ended are swept. */
const SWEEP_ABOVE = 10_000;

export function memoryWindowCounter(options: { now?: () => number } = {}): WindowCounter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; endsAt: number }>();
  const live = (key: string, t: number) => {
    const w = windows.get(key);
    if (w && w.endsAt <= t) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  return {
    async add(key, windowMs) {
      const t = now();
      if (windows.size > SWEEP_ABOVE) for (const k of [...windows.keys()]) live(k, t);
      let w = live(key, t);
      if (!w) {
        w = { count: 0, endsAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, resetInMs: w.endsAt - t };
    },
    async peek(key) {
      const t = now();
      const w = live(key, t);
      return w ? { count: w.count, resetInMs: w.endsAt - t } : { count: 0, resetInMs: 0 };
    },
    async clear(key) {
      windows.delete(key);
    },
  };
}
