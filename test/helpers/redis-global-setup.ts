/**
 * globalSetup of the vitest project `postgres+redis` (vitest.config.ts): one redis-server for the
 * run with many databases, each test service taking a number of its own (test/helpers/test-store.ts),
 * stopped and removed at the end.
 */
import type { TestProject } from 'vitest/node';
import { startRedis } from './redis.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    redisServerUrl: string;
    redisDatabases: number;
  }
}

/** Databases of the run's redis-server: one per test service of the run (about 40 bytes each when empty). */
const REDIS_DATABASES = 20_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startRedis({ databases: REDIS_DATABASES });
  project.provide('redisServerUrl', server.url);
  project.provide('redisDatabases', REDIS_DATABASES);
  return () => server.stop();
}
