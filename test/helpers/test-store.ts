/**
 * The store a test service runs on, by vitest project (vitest.config.ts, docs/scale-out.md):
 * `sqlite` (the default: nothing to add, the SQLite file of DATA_DIR) or `postgres+redis`
 * (FOLIO_TEST_STORE=postgres+redis): a new database on the run's PostgreSQL cluster and a Redis
 * database number of its own on the run's redis-server, so no two test services share state.
 *
 * `testStoreEnv(dataDir)` is memoised per DATA_DIR: a test that restarts a service on the same
 * DATA_DIR (the state survives a restart) gets the same PostgreSQL database and Redis database.
 */
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { sharedTestDatabase } from './postgres.ts';

export type TestStore = 'sqlite' | 'postgres+redis';

export const TEST_STORE: TestStore = process.env.FOLIO_TEST_STORE === 'postgres+redis' ? 'postgres+redis' : 'sqlite';

/** Redis key of the counter that hands out database numbers (in database 0, which no service uses). */
const DB_COUNTER = 'folio-test:next-database';

const byDataDir = new Map<string, Promise<Record<string, string>>>();

/** A Redis URL on the run's redis-server with a database number no other test service has. */
export async function sharedTestRedis(serverUrl: string, databases: number): Promise<string> {
  const client = new Redis(serverUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const n = await client.incr(DB_COUNTER);
    if (n >= databases) throw new Error(`the test redis-server has ${databases} databases and all are taken: raise REDIS_DATABASES in test/helpers/redis-global-setup.ts`);
    const url = new URL(serverUrl);
    url.pathname = `/${n}`;
    return url.toString();
  } finally {
    client.disconnect();
  }
}

/** DATABASE_URL and REDIS_URL of the service on DATA_DIR `dataDir` in the `postgres+redis` project; `{}` on SQLite. */
export function testStoreEnv(dataDir: string): Promise<Record<string, string>> {
  if (TEST_STORE === 'sqlite') return Promise.resolve({});
  let env = byDataDir.get(dataDir);
  if (env === undefined) {
    env = (async () => ({
      DATABASE_URL: await sharedTestDatabase(inject('postgresAdminUrl')),
      REDIS_URL: await sharedTestRedis(inject('redisServerUrl'), inject('redisDatabases')),
    }))();
    byDataDir.set(dataDir, env);
  }
  return env;
}

/** Every key and value of the Redis database at `url`, as text (what it keeps): for tests that a secret or a ZDR document is not kept there. */
export async function redisText(url: string): Promise<string> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const type = await client.type(key);
        const value =
          type === 'string' ? [await client.get(key)]
          : type === 'hash' ? Object.entries(await client.hgetall(key)).flat()
          : type === 'list' ? await client.lrange(key, 0, -1)
          : type === 'set' ? await client.smembers(key)
          : type === 'zset' ? await client.zrange(key, 0, -1)
          : type === 'stream' ? (await client.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields])
          : [];
        parts.push(`${key}:\n${value.join('\n')}`);
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}
