/**
 * globalSetup of the vitest project `postgres+redis` (vitest.config.ts): one throw-away cluster for the
 * run, its admin URL handed to the tests (`inject('postgresAdminUrl')`), stopped and removed at the end.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
