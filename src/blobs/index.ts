/**
 * The blob store (docs/uploads.md "Where the bytes are kept"): where uploaded files (uploadRefs)
 * and browser captures (screenshots, PDFs) wait, behind the one UploadStorage interface
 * (src/uploads/storage.ts), in two namespaces — `uploads` and `captures`:
 *
 *   FOLIO_BLOB_URL unset          DATA_DIR/uploads and DATA_DIR/captures (one instance)
 *   FOLIO_BLOB_URL=s3://b/prefix  objects `prefix/uploads/<key>`, `prefix/captures/<key>` (s3/)
 *   FOLIO_BLOB_URL=postgres       rows of `blobs`/`blob_chunks` in the DATABASE_URL database
 *
 * Expiry is the same on every backend: the upload-ref sweep (src/uploads/service.ts) and the
 * capture sweep (src/browser/captures.ts) list and delete through the interface, on every
 * instance (deletes are idempotent).
 *
 * The entry file of src/blobs/: nothing outside this folder imports the others.
 */
import path from 'node:path';
import pg from 'pg';
import type { BlobSettings } from '../config.ts';
import { createLocalDiskStorage } from '../uploads/local-disk-storage.ts';
import type { UploadStorage } from '../uploads/storage.ts';
import { createPostgresStorage } from './postgres-storage.ts';
import { createS3Client, type S3Client } from './s3/client.ts';
import { createS3Storage } from './s3-storage.ts';

export { createS3Client, S3RequestError, type S3Client, type S3Location, type S3ObjectInfo } from './s3/client.ts';
export { signRequest, type S3Credentials } from './s3/sigv4.ts';

export type BlobNamespace = 'uploads' | 'captures';

export interface BlobStore {
  /** `local`, `s3` or `postgres`. */
  readonly kind: BlobSettings['kind'];
  /** Where, for a log line: never a credential. */
  readonly description: string;
  readonly uploads: UploadStorage;
  readonly captures: UploadStorage;
  /** /ready: one round trip to the shared store (nothing for the local disk). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface BlobStoreOptions {
  dataDir: string;
  /** Connections of the PostgreSQL backend's own pool (default 4). */
  maxConnections?: number;
}

/** Large S3 writes are spooled beside the multipart spool (DATA_DIR/tmp, swept of stale `upload-*` files at start). */
const spoolDirOf = (options: BlobStoreOptions) => path.join(options.dataDir, 'tmp');

function s3Store(settings: Extract<BlobSettings, { kind: 's3' }>, options: BlobStoreOptions): BlobStore {
  const client: S3Client = createS3Client({
    endpoint: new URL(settings.endpoint),
    bucket: settings.bucket,
    region: settings.region,
    pathStyle: settings.pathStyle,
    credentials: settings.credentials,
  });
  return {
    kind: 's3',
    description: `s3://${settings.bucket}/${settings.prefix} at ${new URL(settings.endpoint).origin}`,
    uploads: createS3Storage(client, settings.prefix, 'uploads', spoolDirOf(options)),
    captures: createS3Storage(client, settings.prefix, 'captures', spoolDirOf(options)),
    async ping() {
      await client.listObjects(settings.prefix, 1);
    },
    close: () => Promise.resolve(),
  };
}

function postgresStore(settings: Extract<BlobSettings, { kind: 'postgres' }>, options: BlobStoreOptions): BlobStore {
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: options.maxConnections ?? 4, application_name: 'folio-blobs' });
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const url = new URL(settings.databaseUrl);
  let closed = false;
  return {
    kind: 'postgres',
    description: `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`,
    uploads: createPostgresStorage(pool, 'uploads'),
    captures: createPostgresStorage(pool, 'captures'),
    async ping() {
      await pool.query('SELECT 1 FROM blobs LIMIT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * The blob store the settings name. PostgreSQL's tables come with the store's migrations (open
 * the store first); S3's bucket must exist.
 */
export function openBlobStore(settings: BlobSettings, options: BlobStoreOptions): BlobStore {
  if (settings.kind === 's3') return s3Store(settings, options);
  if (settings.kind === 'postgres') return postgresStore(settings, options);
  return {
    kind: 'local',
    description: `${options.dataDir} (this instance only)`,
    uploads: createLocalDiskStorage(path.join(options.dataDir, 'uploads')),
    captures: createLocalDiskStorage(path.join(options.dataDir, 'captures')),
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
