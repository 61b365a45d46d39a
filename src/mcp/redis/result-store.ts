/**
 * The MCP continuation store (`parse{resultId, offset}`) in Redis, so that a resultId minted on
 * one instance is read on any other (docs/scale-out.md "MCP state in Redis"). The same contract as
 * the in-memory ParseResultStore (tools/parse-results.ts):
 *
 * - owner-bound: an entry holds the SHA-256 of its owner (`Caller.owner`); another owner's get
 *   finds nothing, exactly like an unknown id;
 * - expiring: each entry is a Redis string with `PX ttlMs`, so Redis itself removes it;
 * - size-bounded: one budget (characters, as in memory) for all instances together. A put first
 *   drops expired index rows, then the oldest entries (in the order they were put, a sequence
 *   number: expiries tie within a millisecond) until the new one fits, atomically in one Lua
 *   script; a result over the whole budget is not kept.
 *
 * Keys (prefix `folio:mcp:`): `result:{resultId}` (JSON: owner digest, markdown, data, expiry),
 * `results:index` (sorted set resultId → expiry ms), `results:chars` (hash resultId → size),
 * `results:used` (the sum of sizes), `results:order` (sorted set resultId → put sequence) and
 * `results:sequence` (its counter). The script touches entry keys it derives from the index, so
 * it needs one Redis (a primary, with replicas if wanted), not Redis Cluster — as BullMQ does.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ServiceError } from '../../errors.ts';
import { DEFAULT_RESULT_BUDGET_CHARS, DEFAULT_RESULT_TTL_MS, newResultId, type KeptResult, type ParseResults } from '../../../tools/parse-results.ts';

export const RESULT_KEY_PREFIX = 'folio:mcp:result:';
export const RESULTS_INDEX_KEY = 'folio:mcp:results:index';
export const RESULTS_CHARS_KEY = 'folio:mcp:results:chars';
export const RESULTS_USED_KEY = 'folio:mcp:results:used';
/** Sorted set resultId → put sequence: the eviction order (expiries tie within a millisecond). */
export const RESULTS_ORDER_KEY = 'folio:mcp:results:order';
export const RESULTS_SEQUENCE_KEY = 'folio:mcp:results:sequence';
/** How long a tool call waits for Redis before it goes on without it. */
export const REDIS_ANSWER_MS = 3_000;

/** KEYS: index, chars, used, entry, order, sequence. ARGV: now, expiresAt, chars, budget, id, payload, ttlMs, entry prefix. */
const PUT_SCRIPT = `
local function drop(id)
  local size = tonumber(redis.call('HGET', KEYS[2], id) or '0')
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[5], id)
  redis.call('DEL', ARGV[8] .. id)
  if size > 0 then redis.call('DECRBY', KEYS[3], size) end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do drop(id) end
local chars = tonumber(ARGV[3])
local budget = tonumber(ARGV[4])
local used = tonumber(redis.call('GET', KEYS[3]) or '0')
while used + chars > budget do
  local oldest = redis.call('ZRANGE', KEYS[5], 0, 0)
  if #oldest == 0 then break end
  drop(oldest[1])
  used = tonumber(redis.call('GET', KEYS[3]) or '0')
end
if used < 0 then redis.call('SET', KEYS[3], 0) end
redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[7])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[5], redis.call('INCR', KEYS[6]), ARGV[5])
redis.call('HSET', KEYS[2], ARGV[5], chars)
redis.call('INCRBY', KEYS[3], chars)
return 1
`;

interface StoredResult {
  /** SHA-256 of the owner, hex. */
  o: string;
  m: string;
  d: Record<string, unknown>;
  /** Expiry, ms since the epoch. */
  e: number;
}

export interface RedisParseResultsOptions {
  redis: Redis;
  ttlMs?: number;
  budgetChars?: number;
  now?: () => number;
  /** Told when Redis did not answer (the caller goes on without the result store). */
  onError?: (err: unknown, operation: 'put' | 'get') => void;
}

function ownerDigest(owner: string): string {
  return createHash('sha256').update(owner).digest('hex');
}

/** The command's answer, or a rejection once Redis has not answered for REDIS_ANSWER_MS. */
function answered<T>(command: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_ANSWER_MS / 1000} s`)), REDIS_ANSWER_MS);
  });
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}

export function createRedisParseResults(options: RedisParseResultsOptions): ParseResults {
  const { redis } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_RESULT_TTL_MS;
  const budget = options.budgetChars ?? DEFAULT_RESULT_BUDGET_CHARS;
  const now = options.now ?? Date.now;

  return {
    ttlMs,
    sharedAcrossInstances: true,

    async put(owner, markdown, data) {
      const chars = markdown.length + JSON.stringify(data).length;
      if (chars > budget) return undefined;
      const resultId = newResultId();
      const at = now();
      const expiresAt = at + ttlMs;
      const stored: StoredResult = { o: ownerDigest(owner), m: markdown, d: data, e: expiresAt };
      try {
        await answered(
          redis.eval(PUT_SCRIPT, 6, RESULTS_INDEX_KEY, RESULTS_CHARS_KEY, RESULTS_USED_KEY, RESULT_KEY_PREFIX + resultId, RESULTS_ORDER_KEY, RESULTS_SEQUENCE_KEY, at, expiresAt, chars, budget, resultId, JSON.stringify(stored), ttlMs, RESULT_KEY_PREFIX),
        );
      } catch (err) {
        options.onError?.(err, 'put');
        throw new ServiceError('UNKNOWN_ERROR', 'The result store (Redis) did not answer, so this result was not kept for continuation.');
      }
      return { resultId, expiresAt: new Date(expiresAt) };
    },

    async get(owner, resultId) {
      let raw: string | null;
      try {
        raw = await answered(redis.get(RESULT_KEY_PREFIX + resultId));
      } catch (err) {
        options.onError?.(err, 'get');
        throw new ServiceError('UNKNOWN_ERROR', `The result store (Redis) of this server did not answer, so '${resultId.slice(0, 128)}' cannot be read now. Call \`parse\` again with the file and an \`offset\`, or try again shortly.`);
      }
      if (raw === null) return undefined;
      let stored: StoredResult;
      try {
        stored = JSON.parse(raw) as StoredResult;
      } catch {
        return undefined;
      }
      if (stored.o !== ownerDigest(owner) || stored.e <= now()) return undefined;
      const kept: KeptResult = { markdown: stored.m, data: stored.d, expiresAt: new Date(stored.e) };
      return kept;
    },
  };
}
