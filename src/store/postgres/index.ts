/**
 * The PostgreSQL store (`DATABASE_URL=postgres://…`, docs/scale-out.md): the whole `Store`
 * interface on one `pg` pool, for several folio instances sharing one database. Opening it
 * applies the missing migrations (migrations.ts); `folio migrate` does the same on its own.
 *
 * The entry file of src/store/postgres/: nothing outside this folder imports the others.
 */
import { postgresAgentJobStore } from './agent-jobs.ts';
import pg from 'pg';
import type { Store } from '../types.ts';
import { postgresAccountStore } from './accounts.ts';
import { postgresCreditLedgerStore, postgresTeamPlanStore } from './accounting.ts';
import { postgresCrawlJobStore } from './crawl-jobs.ts';
import { postgresKeylessUsageStore } from './keyless-usage.ts';
import { migratePostgres, postgresSchemaVersion, POSTGRES_MIGRATIONS } from './migrations.ts';
import { postgresOAuthClientStore, postgresOAuthStore, postgresOAuthTokenStore } from './oauth.ts';
import { postgresTeamKeyStore } from './teams-keys.ts';
import { postgresUploadRefStore } from './upload-refs.ts';

export { POSTGRES_MIGRATIONS };

/** int8 (COUNT, SUM, BIGINT columns) as a JavaScript number: every value the store keeps is far below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresStoreOptions {
  /** Connections of this instance's pool (default 10). */
  maxConnections?: number;
}

export interface PostgresStore extends Store {
  /** The pool, for tests and diagnostics. */
  readonly pool: pg.Pool;
  /** The highest migration applied. */
  schemaVersion(): Promise<number>;
}

function createPool(url: string, options: PostgresStoreOptions): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, types, application_name: 'folio' });
  // An idle connection the server drops (restart, failover) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** Applies the missing migrations and closes; the versions applied (`folio migrate`). */
export async function migratePostgresDatabase(url: string): Promise<{ applied: number[]; version: number }> {
  const pool = createPool(url, { maxConnections: 1 });
  try {
    const applied = await migratePostgres(pool);
    return { applied, version: await postgresSchemaVersion(pool) };
  } finally {
    await pool.end();
  }
}

/** Connects, brings the schema up to date and returns the store. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = createPool(url, options);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closed = false;
  return {
    pool,
    ...postgresTeamKeyStore(pool),
    ...postgresAccountStore(pool),
    ...postgresOAuthStore(pool),
    ...postgresOAuthClientStore(pool),
    ...postgresOAuthTokenStore(pool),
    ...postgresUploadRefStore(pool),
    ...postgresKeylessUsageStore(pool),
    ...postgresCrawlJobStore(pool),
    ...postgresTeamPlanStore(pool),
    ...postgresCreditLedgerStore(pool),
    ...postgresAgentJobStore(pool),
    schemaVersion: () => postgresSchemaVersion(pool),
    // /ready (docs/operations.md): one round trip through the pool, or the error saying why not.
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
