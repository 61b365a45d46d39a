/**
 * UploadStorage in PostgreSQL (FOLIO_BLOB_URL=postgres, the DATABASE_URL database): a `blobs`
 * row per object and its bytes as 1 MiB `bytea` rows in `blob_chunks` (migration 3 of
 * src/store/postgres/migrations.ts), deleted with their row (ON DELETE CASCADE).
 *
 * Why chunked bytea rather than large objects or one bytea value: chunks stream — a 50 MB
 * upload is written 1 MiB at a time as it arrives, the source paused meanwhile, without holding
 * a transaction open for as long as the client takes to send it; one bytea value would be the
 * whole file in one parameter (and twice that as hex on the way back). Large objects stream too,
 * but live apart from any row (pg_largeobject): every delete needs lo_unlink, a crash leaves
 * orphans only vacuumlo finds, the `pg` client has no API for them (lo_open/loread/lowrite
 * inside one transaction per upload), and their privileges and dumps are handled separately.
 *
 * A write inserts the row as incomplete, then the chunks, then marks it complete: a reader never
 * sees an incomplete object, and a failed write deletes its row (and chunks) before it rejects.
 */
import pg from 'pg';
import type { StoredObject, UploadStorage } from '../uploads/storage.ts';
import { checkKey, objectGone } from './keys.ts';
import { pumpLimited } from './pump.ts';

const CHUNK_BYTES = 1024 * 1024;

export function createPostgresStorage(pool: pg.Pool, namespace: string): UploadStorage {
  const remove = async (key: string) => {
    await pool.query('DELETE FROM blobs WHERE namespace = $1 AND key = $2', [namespace, key]);
  };
  return {
    async write(key, source, maxBytes) {
      checkKey(key);
      await pool.query('INSERT INTO blobs (namespace, key, complete, size, modified_at) VALUES ($1, $2, FALSE, 0, $3)', [namespace, key, new Date().toISOString()]);
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        const data = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        await pool.query('INSERT INTO blob_chunks (namespace, key, seq, data) VALUES ($1, $2, $3, $4)', [namespace, key, seq++, data]);
      };
      try {
        const size = await pumpLimited(source, maxBytes, async (chunk) => {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= CHUNK_BYTES) await flush();
        });
        await flush();
        const done = await pool.query('UPDATE blobs SET complete = TRUE, size = $3, modified_at = $4 WHERE namespace = $1 AND key = $2', [namespace, key, size, new Date().toISOString()]);
        if ((done.rowCount ?? 0) === 0) throw new Error('the blob was deleted while it was being written');
        return size;
      } catch (err) {
        await remove(key).catch(() => undefined);
        throw err;
      }
    },
    async read(key) {
      checkKey(key);
      const head = await pool.query<{ size: string | number }>('SELECT size FROM blobs WHERE namespace = $1 AND key = $2 AND complete', [namespace, key]);
      const size = head.rows[0] === undefined ? undefined : Number(head.rows[0].size);
      if (size === undefined) throw objectGone();
      const chunks = await pool.query<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE namespace = $1 AND key = $2 ORDER BY seq', [namespace, key]);
      const bytes = Buffer.concat(chunks.rows.map((r) => r.data));
      // Deleted between the two queries: as gone as if the first had not found it.
      if (bytes.length !== size) throw objectGone();
      return bytes;
    },
    async delete(key) {
      await remove(checkKey(key));
    },
    async list() {
      const result = await pool.query<{ key: string; modified_at: string }>('SELECT key, modified_at FROM blobs WHERE namespace = $1', [namespace]);
      return result.rows.map((r): StoredObject => ({ key: r.key, modifiedAt: new Date(r.modified_at) }));
    },
  };
}
