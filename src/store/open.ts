/**
 * The store a process uses: PostgreSQL when DATABASE_URL is set (several instances share it,
 * docs/scale-out.md), else the embedded SQLite file in DATA_DIR.
 */
import type { Config } from '../config.ts';
import { migratePostgresDatabase, openPostgresStore } from './postgres/index.ts';
import { openSqliteStore, schemaVersion } from './sqlite.ts';
import type { Store } from './types.ts';

export type StoreEngine = 'sqlite' | 'postgres';

export function storeEngine(config: Pick<Config, 'databaseUrl'>): StoreEngine {
  return config.databaseUrl ? 'postgres' : 'sqlite';
}

/** Where a database URL points, without its credentials: for messages. */
export function databaseHost(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

export async function openStore(config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'>): Promise<Store> {
  if (!config.databaseUrl) return openSqliteStore(config.dataDir);
  try {
    return await openPostgresStore(config.databaseUrl, { maxConnections: config.databasePoolSize });
  } catch (err) {
    // pg's messages name the failure, never the password; the URL is reduced to host, port and database.
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`could not open the PostgreSQL store at DATABASE_URL (${databaseHost(config.databaseUrl)}): ${detail}`, { cause: err });
  }
}

/** `folio migrate`: brings the configured store's schema up to date; the versions applied and the version reached. */
export async function migrateStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<{ engine: StoreEngine; applied: number[]; version: number }> {
  if (config.databaseUrl) return { engine: 'postgres', ...(await migratePostgresDatabase(config.databaseUrl)) };
  // Opening the SQLite file applies its migrations.
  const store = openSqliteStore(config.dataDir);
  const result = { engine: 'sqlite' as const, applied: [...store.migrationsApplied], version: schemaVersion(store.db) };
  await store.close();
  return result;
}
