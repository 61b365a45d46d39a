/**
 * The readiness probe of Redis (REDIS_URL): one connection of its own, opened on the first probe,
 * that PINGs without queueing while disconnected (an unreachable Redis answers at once, not after
 * the probe's timeout). The URL may hold a password: it never reaches a message.
 */
import { Redis } from 'ioredis';
import { NotReadyError } from './readiness.ts';

export interface RedisPing {
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createRedisPing(url: string): RedisPing {
  let client: Redis | undefined;
  return {
    async ping() {
      if (!client) {
        client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
        // Connection errors are retried by ioredis in the background; the probe reports them.
        client.on('error', () => undefined);
      }
      const c = client;
      try {
        if (c.status !== 'ready') {
          await new Promise<void>((resolve, reject) => {
            const onReady = () => {
              c.off('error', onError);
              resolve();
            };
            const onError = (err: Error) => {
              c.off('ready', onReady);
              reject(err);
            };
            c.once('ready', onReady);
            c.once('error', onError);
          });
        }
        const answer = await c.ping();
        if (answer !== 'PONG') throw new NotReadyError('Redis answered PING unexpectedly');
      } catch (err) {
        if (err instanceof NotReadyError) throw err;
        throw new NotReadyError('Redis did not answer PING');
      }
    },
    async close() {
      const c = client;
      client = undefined;
      if (!c) return;
      try {
        await c.quit();
      } catch {
        c.disconnect();
      }
    },
  };
}
