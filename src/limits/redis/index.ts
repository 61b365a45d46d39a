/**
 * The limits several folio instances share (REDIS_URL; docs/scale-out.md "Redis: shared limits"):
 * the team rate windows, the teams' places (maxConcurrent) with their waiting queues, the keyless
 * per-minute window, and the OAuth sign-in attempt and client registration counters. Behind the
 * same interfaces as their in-memory versions (`RateWindow`, `TeamQueue`, `WindowCounter`).
 *
 * Two connections: one whose commands fail at once while Redis is away (a request is then
 * answered 503 LIMITS_UNAVAILABLE, never let through unchecked), and one subscribed to the
 * freed-place messages. The parse pool's places stay per process (they are this machine's CPU).
 */
import type { Redis } from 'ioredis';
import { checkRedisReachable, openRedis, openRedisFailFast, redactRedisUrl } from '../../redis/index.ts';
import type { RateWindow, TeamQueue } from '../teams/index.ts';
import type { WindowCounter } from '../window-counter.ts';
import { redisRateWindow } from './rate-window.ts';
import { FREED_CHANNEL, RedisTeamQueue } from './team-places.ts';
import { redisWindowCounter } from './window-counter.ts';

export { limitsUnavailable } from './unavailable.ts';
export { redisRateWindow } from './rate-window.ts';
export { FREED_CHANNEL, RedisTeamQueue } from './team-places.ts';
export { redisWindowCounter } from './window-counter.ts';

export interface SharedLimits {
  /** Requests per minute of teams. */
  teamRate: RateWindow;
  /** Tool calls per minute of keyless clients. */
  keylessRate: RateWindow;
  /** The teams' places. */
  teamPlaces: TeamQueue;
  /** Sign-in attempts and client registrations. */
  counter: WindowCounter;
  close(): Promise<void>;
}

export interface SharedLimitsOptions {
  /** A lease of a team place not renewed for this long is free again (FOLIO_LIMITS_LEASE_TTL_SECONDS). */
  leaseTtlMs: number;
  /** How often a waiting job looks again without a message. Default 1 s. */
  pollMs?: number;
  onError(err: unknown, message: string): void;
}

/** Closes a connection: politely when Redis answers, at once when it does not (a stop never waits for Redis). */
async function quit(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
    clearTimeout(timer);
  }
  client.disconnect();
}

/** Connects to Redis (failing the start, REDIS_URL redacted, when it does not answer) and builds the shared limits. */
export async function openSharedLimits(url: string, options: SharedLimitsOptions): Promise<SharedLimits> {
  // A refused connection fails the start at once (the connection below would retry for 5 s).
  await checkRedisReachable(url);
  const where = redactRedisUrl(url);
  const onRedisError = (err: Error) => options.onError(new Error(`${err.message} (REDIS_URL=${where}; retrying)`), 'shared limits: Redis connection error');
  const client = await openRedisFailFast(url, 'folio-limits', onRedisError);
  const subscriber = openRedis(url, 'folio-limits-events', onRedisError);
  const places = new RedisTeamQueue(client, { leaseTtlMs: options.leaseTtlMs, ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}), onError: options.onError });
  subscriber.on('message', (channel: string, team: string) => {
    if (channel === FREED_CHANNEL) places.freed(team);
  });
  try {
    await subscriber.subscribe(FREED_CHANNEL);
  } catch (err) {
    await quit(subscriber);
    await quit(client);
    throw err;
  }
  return {
    teamRate: redisRateWindow(client, 'team'),
    keylessRate: redisRateWindow(client, 'keyless'),
    teamPlaces: places,
    counter: redisWindowCounter(client),
    async close() {
      places.close();
      await quit(subscriber);
      await quit(client);
    },
  };
}
