/**
 * Redis connections (REDIS_URL): crawl and batch queues, and the shared state of several
 * instances. The start checks once that Redis answers and fails with a message naming REDIS_URL
 * (its password redacted); later connection losses are reported to `onError` and retried by
 * ioredis, with commands waiting meanwhile.
 */
import { Redis } from 'ioredis';

/** How long the start waits for Redis to answer before failing. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long a command of a fail-fast connection may take before it fails. */
const COMMAND_TIMEOUT_MS = 2_000;

/** REDIS_URL fit for a log line or an error: `redis://user:pass@host` → `redis://***@host`. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** Fails unless Redis at `url` answers PING; the probe connection does not retry. */
export async function checkRedisReachable(url: string): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The failure is reported by connect()/ping() below; the event would otherwise print a warning.
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    const reason = err instanceof Error ? err.message.replaceAll(url, redactRedisUrl(url)) : 'no answer';
    throw new Error(`Cannot reach Redis at REDIS_URL=${redactRedisUrl(url)} (${reason}). Start Redis or fix REDIS_URL; unset it to run on one instance (crawl jobs in-process, limits in memory).`);
  } finally {
    probe.disconnect();
  }
}

/** Connection errors go to `onError` one per few seconds while Redis is away, not one per retry. */
function reportErrors(client: Redis, onError: (err: Error) => void): void {
  let lastLogged = 0;
  client.on('error', (err: Error) => {
    if (Date.now() - lastLogged < 5_000) return;
    lastLogged = Date.now();
    onError(err);
  });
}

/**
 * A connection for BullMQ and the crawl gates: reconnects forever (with backoff up to 5 s),
 * commands wait for it (`maxRetriesPerRequest: null`, as BullMQ workers require).
 */
export function openRedis(url: string, name: string, onError: (err: Error) => void): Redis {
  const client = new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  });
  reportErrors(client, onError);
  return client;
}

/**
 * A connection whose commands fail at once while Redis is away (no offline queue, one retry),
 * for state a request must check now or answer that it cannot; it reconnects in the background
 * (backoff up to 2 s). Resolves once the connection is ready, or fails after 5 s naming REDIS_URL.
 */
export async function openRedisFailFast(url: string, name: string, onError: (err: Error) => void): Promise<Redis> {
  const client = new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A Redis that accepts but does not answer (paused, overloaded) fails the command too.
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  });
  reportErrors(client, onError);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer within 5 s')), CONNECT_TIMEOUT_MS);
      client.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (err) {
    client.disconnect();
    const reason = err instanceof Error ? err.message : 'no answer';
    throw new Error(`Cannot reach Redis at REDIS_URL=${redactRedisUrl(url)} (${reason}). Start Redis or fix REDIS_URL; unset it to run on one instance (crawl jobs in-process, limits in memory).`);
  }
  return client;
}
