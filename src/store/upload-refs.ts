/**
 * Upload refs at rest (issue 5 §5, docs/uploads.md): one row per upload ticket. The store never
 * holds the uploadRef or the upload URL's token in clear: only their SHA-256 hashes, plus the
 * ref sealed under a key derived from the token (so the PUT, which presents the token, can name
 * the ref in its answer, and nothing at rest can).
 *
 * Every state change is one conditional UPDATE, so that two requests racing for the same ref
 * (two PUTs, two parses) cannot both win.
 */
import type Database from 'better-sqlite3';

/**
 * pending: ticket issued, nothing uploaded · uploading: a PUT is streaming · uploaded: the bytes
 * are stored · taken: a parse has spent the ref (its bytes are deleted right after).
 */
export type UploadRefStatus = 'pending' | 'uploading' | 'uploaded' | 'taken';

export interface UploadRefRecord {
  /** Random id; also the key of the bytes in UploadStorage. */
  id: string;
  refHash: string;
  tokenHash: string;
  sealedRef: string;
  owner: string;
  filename: string;
  contentType: string | null;
  size: number | null;
  status: UploadRefStatus;
  /** ISO 8601. */
  createdAt: string;
  expiresAt: string;
}

export type NewUploadRef = Omit<UploadRefRecord, 'contentType' | 'size' | 'status'>;

export type CreateUploadRefResult = { created: true } | { created: false; oldestExpiresAt: string };

export interface UploadRefStore {
  /**
   * Inserts the row unless its owner already holds `maxRefs` unexpired pending, uploading or
   * uploaded refs (checked and inserted in one transaction).
   */
  createUploadRef(ref: NewUploadRef, maxRefs: number): Promise<CreateUploadRefResult>;
  findUploadRefByTokenHash(tokenHash: string): Promise<UploadRefRecord | undefined>;
  findUploadRefByRefHash(refHash: string): Promise<UploadRefRecord | undefined>;
  /** pending → uploading, when unexpired at `now`; false when another request won or it expired. */
  claimUploadRefUpload(id: string, now: Date): Promise<boolean>;
  /** uploading → uploaded with the stored size; false when the row is gone (swept) or not uploading. */
  completeUploadRefUpload(id: string, upload: { size: number; contentType: string | null }): Promise<boolean>;
  /** uploading → pending after a failed PUT, so the URL can be used again until it expires. */
  abandonUploadRefUpload(id: string): Promise<void>;
  /** uploaded → taken for this owner, when unexpired at `now`; the row as it was taken, or undefined. */
  takeUploadRef(refHash: string, owner: string, now: Date): Promise<UploadRefRecord | undefined>;
  /** Rows whose expiry is at or before `now`, oldest first. */
  listExpiredUploadRefs(now: Date, limit: number): Promise<UploadRefRecord[]>;
  deleteUploadRef(id: string): Promise<void>;
  uploadRefExists(id: string): Promise<boolean>;
}

export interface UploadRefRow {
  id: string;
  ref_hash: string;
  token_hash: string;
  sealed_ref: string;
  owner: string;
  filename: string;
  content_type: string | null;
  size: number | null;
  status: UploadRefStatus;
  created_at: string;
  expires_at: string;
}

export function toUploadRefRecord(row: UploadRefRow): UploadRefRecord {
  return {
    id: row.id,
    refHash: row.ref_hash,
    tokenHash: row.token_hash,
    sealedRef: row.sealed_ref,
    owner: row.owner,
    filename: row.filename,
    contentType: row.content_type,
    size: row.size,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export const UPLOAD_REF_COLUMNS = 'id, ref_hash, token_hash, sealed_ref, owner, filename, content_type, size, status, created_at, expires_at';

/** Migration 2 (src/store/migrations.ts). */
export const UPLOAD_REFS_SQL = `
  CREATE TABLE upload_refs (
    id            TEXT PRIMARY KEY,
    ref_hash      TEXT NOT NULL UNIQUE,
    token_hash    TEXT NOT NULL UNIQUE,
    sealed_ref    TEXT NOT NULL,
    owner         TEXT NOT NULL,
    filename      TEXT NOT NULL,
    content_type  TEXT,
    size          INTEGER,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'uploading', 'uploaded', 'taken')),
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL
  );
  CREATE INDEX upload_refs_owner ON upload_refs(owner, expires_at);
  CREATE INDEX upload_refs_expires ON upload_refs(expires_at);
`;

/** The SQLite implementation, on the store's handle. Times are ISO 8601 UTC strings, which sort as they compare. */
export function sqliteUploadRefStore(db: Database.Database): UploadRefStore {
  const q = {
    outstanding: db.prepare<[string, string], { n: number; oldest: string | null }>(
      `SELECT COUNT(*) AS n, MIN(expires_at) AS oldest FROM upload_refs
       WHERE owner = ? AND expires_at > ? AND status IN ('pending', 'uploading', 'uploaded')`,
    ),
    insert: db.prepare(
      `INSERT INTO upload_refs (id, ref_hash, token_hash, sealed_ref, owner, filename, status, created_at, expires_at)
       VALUES (@id, @refHash, @tokenHash, @sealedRef, @owner, @filename, 'pending', @createdAt, @expiresAt)`,
    ),
    byToken: db.prepare<[string], UploadRefRow>(`SELECT ${UPLOAD_REF_COLUMNS} FROM upload_refs WHERE token_hash = ?`),
    byRef: db.prepare<[string], UploadRefRow>(`SELECT ${UPLOAD_REF_COLUMNS} FROM upload_refs WHERE ref_hash = ?`),
    claim: db.prepare(`UPDATE upload_refs SET status = 'uploading' WHERE id = ? AND status = 'pending' AND expires_at > ?`),
    complete: db.prepare(`UPDATE upload_refs SET status = 'uploaded', size = ?, content_type = ? WHERE id = ? AND status = 'uploading'`),
    abandon: db.prepare(`UPDATE upload_refs SET status = 'pending' WHERE id = ? AND status = 'uploading'`),
    take: db.prepare<[string, string, string], UploadRefRow>(
      `UPDATE upload_refs SET status = 'taken'
       WHERE ref_hash = ? AND owner = ? AND status = 'uploaded' AND expires_at > ?
       RETURNING ${UPLOAD_REF_COLUMNS}`,
    ),
    expired: db.prepare<[string, number], UploadRefRow>(`SELECT ${UPLOAD_REF_COLUMNS} FROM upload_refs WHERE expires_at <= ? ORDER BY expires_at LIMIT ?`),
    remove: db.prepare('DELETE FROM upload_refs WHERE id = ?'),
    exists: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM upload_refs WHERE id = ?'),
  };

  const createWithinCap = db.transaction((ref: NewUploadRef, maxRefs: number): CreateUploadRefResult => {
    const held = q.outstanding.get(ref.owner, ref.createdAt);
    if (held && held.n >= maxRefs && held.oldest !== null) return { created: false, oldestExpiresAt: held.oldest };
    q.insert.run(ref);
    return { created: true };
  });

  return {
    async createUploadRef(ref, maxRefs) {
      return createWithinCap.immediate(ref, maxRefs);
    },
    async findUploadRefByTokenHash(tokenHash) {
      const row = q.byToken.get(tokenHash);
      return row ? toUploadRefRecord(row) : undefined;
    },
    async findUploadRefByRefHash(refHash) {
      const row = q.byRef.get(refHash);
      return row ? toUploadRefRecord(row) : undefined;
    },
    async claimUploadRefUpload(id, now) {
      return q.claim.run(id, now.toISOString()).changes === 1;
    },
    async completeUploadRefUpload(id, upload) {
      return q.complete.run(upload.size, upload.contentType, id).changes === 1;
    },
    async abandonUploadRefUpload(id) {
      q.abandon.run(id);
    },
    async takeUploadRef(refHash, owner, now) {
      const row = q.take.get(refHash, owner, now.toISOString());
      return row ? toUploadRefRecord(row) : undefined;
    },
    async listExpiredUploadRefs(now, limit) {
      return q.expired.all(now.toISOString(), limit).map(toUploadRefRecord);
    },
    async deleteUploadRef(id) {
      q.remove.run(id);
    },
    async uploadRefExists(id) {
      return q.exists.get(id) !== undefined;
    },
  };
}
