/**
 * Upload refs on PostgreSQL (store/upload-refs.ts). The per-owner cap is checked and the row
 * inserted under an advisory lock on the owner, so two instances cannot both pass the check;
 * every state change is one conditional UPDATE.
 */
import type { Pool } from 'pg';
import { toUploadRefRecord, UPLOAD_REF_COLUMNS, type UploadRefRow, type UploadRefStore } from '../upload-refs.ts';
import { changes, lockFor, row, rows, transaction } from './db.ts';

export function postgresUploadRefStore(pool: Pool): UploadRefStore {
  const one = async (text: string, values: unknown[]) => {
    const r = await row<UploadRefRow>(pool, text, values);
    return r ? toUploadRefRecord(r) : undefined;
  };
  return {
    async createUploadRef(ref, maxRefs) {
      return transaction(pool, async (client) => {
        await lockFor(client, `folio:upload_refs:${ref.owner}`);
        const held = await row<{ n: number; oldest: string | null }>(
          client,
          `SELECT COUNT(*) AS n, MIN(expires_at) AS oldest FROM upload_refs
           WHERE owner = $1 AND expires_at > $2 AND status IN ('pending', 'uploading', 'uploaded')`,
          [ref.owner, ref.createdAt],
        );
        if (held && held.n >= maxRefs && held.oldest !== null) return { created: false as const, oldestExpiresAt: held.oldest };
        await client.query(
          `INSERT INTO upload_refs (id, ref_hash, token_hash, sealed_ref, owner, filename, status, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8)`,
          [ref.id, ref.refHash, ref.tokenHash, ref.sealedRef, ref.owner, ref.filename, ref.createdAt, ref.expiresAt],
        );
        return { created: true as const };
      });
    },
    findUploadRefByTokenHash: (tokenHash) => one(`SELECT ${UPLOAD_REF_COLUMNS} FROM upload_refs WHERE token_hash = $1`, [tokenHash]),
    findUploadRefByRefHash: (refHash) => one(`SELECT ${UPLOAD_REF_COLUMNS} FROM upload_refs WHERE ref_hash = $1`, [refHash]),
    async claimUploadRefUpload(id, now) {
      return (await changes(pool, `UPDATE upload_refs SET status = 'uploading' WHERE id = $1 AND status = 'pending' AND expires_at > $2`, [id, now.toISOString()])) === 1;
    },
    async completeUploadRefUpload(id, upload) {
      return (
        (await changes(pool, `UPDATE upload_refs SET status = 'uploaded', size = $1, content_type = $2 WHERE id = $3 AND status = 'uploading'`, [
          upload.size,
          upload.contentType,
          id,
        ])) === 1
      );
    },
    async abandonUploadRefUpload(id) {
      await pool.query(`UPDATE upload_refs SET status = 'pending' WHERE id = $1 AND status = 'uploading'`, [id]);
    },
    takeUploadRef: (refHash, owner, now) =>
      one(
        `UPDATE upload_refs SET status = 'taken'
         WHERE ref_hash = $1 AND owner = $2 AND status = 'uploaded' AND expires_at > $3
         RETURNING ${UPLOAD_REF_COLUMNS}`,
        [refHash, owner, now.toISOString()],
      ),
    async listExpiredUploadRefs(now, limit) {
      return (await rows<UploadRefRow>(pool, `SELECT ${UPLOAD_REF_COLUMNS} FROM upload_refs WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2`, [now.toISOString(), limit])).map(
        toUploadRefRecord,
      );
    },
    async deleteUploadRef(id) {
      await pool.query('DELETE FROM upload_refs WHERE id = $1', [id]);
    },
    async uploadRefExists(id) {
      return (await rows(pool, 'SELECT 1 FROM upload_refs WHERE id = $1', [id])).length > 0;
    },
  };
}
