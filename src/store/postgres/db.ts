/**
 * The PostgreSQL connection helpers of the store: one `pg` pool per store, transactions that
 * roll back on any error, and advisory locks for the few checks-then-writes that two folio
 * instances could race for.
 */
import type { Pool, PoolClient } from 'pg';

/** A pool or a client inside a transaction: what the store's queries run on. */
export type Queryable = Pool | PoolClient;

/** The rows of a query, typed as the caller's row shape (the SQL names the columns). */
export async function rows<R>(db: Queryable, text: string, values: unknown[] = []): Promise<R[]> {
  const result = await db.query(text, values);
  return result.rows as R[];
}

export async function row<R>(db: Queryable, text: string, values: unknown[] = []): Promise<R | undefined> {
  return (await rows<R>(db, text, values))[0];
}

/** The number of rows an INSERT/UPDATE/DELETE touched. */
export async function changes(db: Queryable, text: string, values: unknown[] = []): Promise<number> {
  return (await db.query(text, values)).rowCount ?? 0;
}

/** Runs `work` in one READ COMMITTED transaction on one connection of the pool. */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Serialises, until the transaction ends, every transaction that takes the same lock: the
 * PostgreSQL counterpart of SQLite's `BEGIN IMMEDIATE` for one named resource.
 */
export async function lockFor(client: PoolClient, name: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
