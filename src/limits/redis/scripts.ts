/**
 * The Lua scripts of the shared limits: each runs atomically in Redis, on Redis's clock (`TIME`),
 * so that instances whose clocks differ still agree on one window. `run` sends a script by its
 * SHA-1 and loads it on the first NOSCRIPT answer.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Redis's time in ms; scripts that read TIME and then write replicate their effects (Redis ≥ 5). */
const NOW = `
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/**
 * Sliding window. KEYS[1] the window (sorted set: member per admitted request, scored by its time);
 * ARGV window ms, limit, member. → {1, 0} admitted, or {0, ms until one more fits} (not counted).
 */
export const RATE_HIT = `${NOW}
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if limit <= 0 then return {0, window} end
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
`;

/** Takes an admitted request back out of its window. KEYS[1] the window; ARGV member. */
export const RATE_UNDO = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

/** Fixed window: KEYS[1] the counter; ARGV window ms. → {count, ms until the window ends}. */
export const COUNT_ADD = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

/** KEYS[1] the counter. → {count, ms until the window ends} ({0, 0} without one). */
export const COUNT_PEEK = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(n), ttl}
`;

/** Drops the expired leases and waiters of a team (KEYS 1 places, 2 waiting, 3 waiting-expiry). */
const SWEEP = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, id in ipairs(dead) do
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
end
`;

/**
 * A team's places: a semaphore with a FIFO of waiters shared by the instances.
 * KEYS 1 places (lease id → expiry), 2 waiting (ticket → arrival number), 3 waiting-expiry
 * (ticket → expiry), 4 arrival counter. ARGV ticket, limit, max waiting (-1: no bound), lease ttl
 * ms, waiter ttl ms. A ticket not yet waiting starts at once when nobody waits and a place is
 * free, is refused when the team's queue is full, else joins the queue's end. A waiting ticket
 * starts when it is among the first (limit − running) of the queue, else its wait is renewed.
 * → {1 started | 0 waiting | -1 refused, running, waiting}
 */
export const PLACE_ACQUIRE = `${NOW}${SWEEP}
local ticket = ARGV[1]
local limit = tonumber(ARGV[2])
local maxWaiting = tonumber(ARGV[3])
local leaseTtl = tonumber(ARGV[4])
local waiterTtl = tonumber(ARGV[5])
local keep = math.max(leaseTtl, waiterTtl) * 2
local running = redis.call('ZCARD', KEYS[1])
local rank = redis.call('ZRANK', KEYS[2], ticket)
if not rank then
  local waiting = redis.call('ZCARD', KEYS[2])
  if waiting > 0 or running >= limit then
    if maxWaiting >= 0 and waiting >= maxWaiting then return {-1, running, waiting} end
    redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), ticket)
    rank = waiting
  end
end
if rank and rank >= limit - running then
  redis.call('ZADD', KEYS[3], now + waiterTtl, ticket)
  for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], keep) end
  return {0, running, redis.call('ZCARD', KEYS[2])}
end
redis.call('ZREM', KEYS[2], ticket)
redis.call('ZREM', KEYS[3], ticket)
redis.call('ZADD', KEYS[1], now + leaseTtl, ticket)
redis.call('PEXPIRE', KEYS[1], keep)
return {1, running + 1, redis.call('ZCARD', KEYS[2])}
`;

/** Extends a held lease. KEYS[1] places; ARGV lease id, ttl ms. → 1, or 0 when it had expired. */
export const PLACE_RENEW = `${NOW}
return redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1])
`;

/**
 * Gives a place back, or takes a waiting ticket out of the queue, and tells every instance.
 * KEYS 1 places, 2 waiting, 3 waiting-expiry, 4 last success; ARGV ticket, succeeded (1/0),
 * channel, team, last-success ttl ms.
 */
export const PLACE_RELEASE = `${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if ARGV[2] == '1' then redis.call('SET', KEYS[4], now, 'PX', ARGV[5]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

/** KEYS 1 places, 2 waiting, 3 waiting-expiry, 4 last success. → {running, waiting, last success ms or -1} */
export const PLACE_STATS = `${NOW}${SWEEP}
local last = redis.call('GET', KEYS[4])
return {redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2]), last and tonumber(last) or -1}
`;

const shas = new Map<string, string>();

/** Runs `script` with `keys` and `args`: by SHA-1, loading the script when Redis does not know it. */
export async function run(client: Redis, script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  try {
    return await client.evalsha(sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return client.eval(script, keys.length, ...keys, ...args);
  }
}

/** The integers of a script's array answer. */
export function integers(answer: unknown): number[] {
  return Array.isArray(answer) ? answer.map((v) => Number(v)) : [];
}
