/**
 * The readiness probes on their own (src/ops): a Redis that answers, then one that is gone, over
 * real TCP; a probe that hangs is cut at the bound; a driver's message (which may hold an address
 * or a password) never reaches the report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadiness, createRedisPing, NotReadyError, type RedisPing } from '../../src/ops/index.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';

describe('readiness', () => {
  let redis: TestRedis;
  let ping: RedisPing;
  beforeAll(async () => {
    redis = await startRedis();
    ping = createRedisPing(redis.url);
  });
  afterAll(async () => {
    await ping?.close();
    await redis?.stop();
  });

  it('is ready while Redis answers PING, and says so without the URL once it is gone', async () => {
    const readiness = createReadiness({ redis: () => ping.ping() });
    expect(await readiness.check()).toEqual({ ready: true, checks: { redis: 'ok' } });
    await redis.stop();
    const report = await readiness.check();
    expect(report).toEqual({ ready: false, checks: { redis: 'Redis did not answer PING' } });
    expect(JSON.stringify(report)).not.toContain(String(redis.port));
  });

  it('cuts a probe that does not answer within its bound, and hides foreign error messages', async () => {
    const readiness = createReadiness(
      {
        hangs: () => new Promise<void>(() => undefined),
        leaks: () => {
          throw new Error('connect ECONNREFUSED postgres://admin:hunter2@10.0.0.5:5432');
        },
        ours: () => {
          throw new NotReadyError('1 of 2 parse processes warm');
        },
        fine: () => undefined,
      },
      200,
    );
    const started = Date.now();
    const report = await readiness.check();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(report).toEqual({
      ready: false,
      checks: { hangs: 'no answer within 200 ms', leaks: 'unreachable', ours: '1 of 2 parse processes warm', fine: 'ok' },
    });
  });
});
