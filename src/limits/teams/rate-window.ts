/**
 * The per-team request rate (issue 15 "Rate limit per team"): a sliding window of one minute —
 * a request is admitted when fewer than `limit` requests of the same key were admitted in the
 * 60 seconds before it. A refused request does not count.
 *
 * `RateWindow` is the seam: the in-memory window below serves one process; with REDIS_URL the
 * instances share a Redis one (src/limits/redis: a sorted set per key, one Lua script).
 */

export const RATE_WINDOW_MS = 60_000;

export type RateDecision =
  /** `undo()` takes the counted request back out of the window (a later check refused it). */
  | { admitted: true; undo(): Promise<void> }
  | { admitted: false; retryAfterSeconds: number };

export interface RateWindow {
  /** Counts one request of `key` if fewer than `limit` were counted in the last minute. */
  hit(key: string, limit: number): Promise<RateDecision>;
}

export function memoryRateWindow(options: { now?: () => number } = {}): RateWindow {
  const now = options.now ?? Date.now;
  /** Admission times of each key within the last minute, oldest first (at most `limit` of them). */
  const recent = new Map<string, number[]>();
  let lastSweep = 0;

  const sweep = (t: number) => {
    if (t - lastSweep < RATE_WINDOW_MS) return;
    lastSweep = t;
    for (const [key, times] of recent) if ((times[times.length - 1] ?? 0) <= t - RATE_WINDOW_MS) recent.delete(key);
  };

  return {
    async hit(key, limit) {
      const t = now();
      sweep(t);
      const windowStart = t - RATE_WINDOW_MS;
      const times = recent.get(key) ?? [];
      let expired = 0;
      while (expired < times.length && (times[expired] as number) <= windowStart) expired++;
      if (expired > 0) times.splice(0, expired);
      if (times.length >= limit) {
        // The oldest admission in the window leaves it first: then one more fits.
        const oldest = times[times.length - limit] ?? t;
        recent.set(key, times);
        return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - t) / 1000)) };
      }
      times.push(t);
      recent.set(key, times);
      return {
        admitted: true,
        async undo() {
          const index = times.lastIndexOf(t);
          if (index >= 0) times.splice(index, 1);
        },
      };
    },
  };
}
