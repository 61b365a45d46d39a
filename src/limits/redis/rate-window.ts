/**
 * The sliding window of `RateWindow` in Redis: one sorted set per key (`folio:rate:<scope>:{key}`,
 * a member per admitted request scored by Redis's time), checked and counted by one Lua script,
 * expiring with its window. A refused request is not counted; `Retry-After` is when the oldest
 * request that fills the window leaves it.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RATE_WINDOW_MS, type RateWindow } from '../teams/index.ts';
import { integers, RATE_HIT, RATE_UNDO, run } from './scripts.ts';
import { shared } from './unavailable.ts';

export function redisRateWindow(client: Redis, scope: string, options: { windowMs?: number } = {}): RateWindow {
  const windowMs = options.windowMs ?? RATE_WINDOW_MS;
  return {
    async hit(key, limit) {
      const redisKey = `folio:rate:${scope}:{${key}}`;
      const member = randomBytes(8).toString('base64url');
      const [admitted = 0, waitMs = windowMs] = integers(await shared(() => run(client, RATE_HIT, [redisKey], [windowMs, limit, member])));
      if (admitted !== 1) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      return {
        admitted: true,
        async undo() {
          await shared(() => run(client, RATE_UNDO, [redisKey], [member]));
        },
      };
    },
  };
}
