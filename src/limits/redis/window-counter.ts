/**
 * Fixed-window counters in Redis (`folio:count:{hash}`: INCR, expiring with the window), for the
 * OAuth sign-in attempt and client registration limits. Keys are hashed: no client address or
 * email reaches Redis.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { WindowCounter } from '../window-counter.ts';
import { COUNT_ADD, COUNT_PEEK, integers, run } from './scripts.ts';
import { shared } from './unavailable.ts';

const redisKey = (key: string) => `folio:count:{${createHash('sha256').update(key).digest('base64url').slice(0, 32)}}`;

export function redisWindowCounter(client: Redis): WindowCounter {
  return {
    async add(key, windowMs) {
      const [count = 0, resetInMs = 0] = integers(await shared(() => run(client, COUNT_ADD, [redisKey(key)], [windowMs])));
      return { count, resetInMs };
    },
    async peek(key) {
      const [count = 0, resetInMs = 0] = integers(await shared(() => run(client, COUNT_PEEK, [redisKey(key)], [])));
      return { count, resetInMs };
    },
    async clear(key) {
      await shared(() => client.del(redisKey(key)));
    },
  };
}
