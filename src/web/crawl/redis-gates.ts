/**
 * The limits of one crawl job shared by every folio process on the same Redis (docs/crawl.md,
 * "Crawl jobs on Redis"):
 *   - in-flight pages: a sorted set of leases (member = the BullMQ job id, score = lease end),
 *     at most the job's maxConcurrency; an expired lease (a crashed process) frees itself;
 *   - per-host politeness when a delay applies: one request at a time per host (a lock holding the
 *     BullMQ job id) and at least `delay` between the starts of two (the next allowed time).
 * Each check is one Lua script, so two processes never both take the last place. Times come from
 * Redis (TIME), the one clock every process shares.
 */
import type { Redis } from 'ioredis';

/** A lease outlives any page (scrape timeout ≤ 300 s) and frees itself after a crash. */
const LEASE_MS = 10 * 60 * 1000;

const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

// KEYS[1] slots zset; ARGV: member, max, leaseMs → 1 taken, 0 full.
const TAKE_SLOT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
  return 1
end
return 0`;

// KEYS[1] host lock, KEYS[2] host next-start time; ARGV: holder, delayMs, leaseMs
// → 0 entered, -1 another request to the host is running, N > 0 ms to wait.
const ENTER_HOST = `${NOW}
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return -1 end
local nextAt = tonumber(redis.call('GET', KEYS[2]) or '0')
if now < nextAt then return nextAt - now end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[3]))
redis.call('SET', KEYS[2], now + tonumber(ARGV[2]), 'PX', tonumber(ARGV[2]) + 60000)
return 0`;

// KEYS[1] host lock; ARGV: holder.
const LEAVE_HOST = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class CrawlGates {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  #key(crawlId: string, ...parts: string[]): string {
    return [this.#prefix, 'crawl', crawlId, ...parts].join(':');
  }

  /** Takes one of the job's `max` in-flight places for `holder` (idempotent for the same holder). */
  async takeSlot(crawlId: string, holder: string, max: number): Promise<boolean> {
    return (await this.#redis.eval(TAKE_SLOT, 1, this.#key(crawlId, 'slots'), holder, max, LEASE_MS)) === 1;
  }

  async releaseSlot(crawlId: string, holder: string): Promise<void> {
    await this.#redis.zrem(this.#key(crawlId, 'slots'), holder);
  }

  /** 0: the host is `holder`'s until leaveHost; -1: busy; N > 0: its next start is in N ms. */
  async enterHost(crawlId: string, host: string, holder: string, delayMs: number): Promise<number> {
    const keys = [this.#key(crawlId, 'host', host, 'lock'), this.#key(crawlId, 'host', host, 'next')];
    return Number(await this.#redis.eval(ENTER_HOST, 2, ...keys, holder, Math.ceil(delayMs), LEASE_MS));
  }

  async leaveHost(crawlId: string, host: string, holder: string): Promise<void> {
    await this.#redis.eval(LEAVE_HOST, 1, this.#key(crawlId, 'host', host, 'lock'), holder);
  }
}
