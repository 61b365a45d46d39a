/**
 * Where uploaded bytes wait between the PUT and the parse that takes them. Behind an interface
 * (issue 5 §5): local disk in the embedded default (`local-disk-storage.ts`); the stores shared by
 * several instances (an S3 bucket, PostgreSQL: src/blobs, FOLIO_BLOB_URL) implement the same
 * contract. Browser captures use it too, under a namespace of their own.
 *
 * Keys are opaque, random ids chosen by the upload-ref service: never the uploadRef or the
 * upload URL's capability token, so a listing of the storage reveals neither.
 */
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  /** When the object was last written. */
  modifiedAt: Date;
}

export interface UploadStorage {
  /**
   * Streams `source` into a new object under `key`, at most `maxBytes` bytes. Resolves with the
   * size written. Rejects with ServiceError FILE_TOO_LARGE when the stream goes past `maxBytes`
   * (the source is left unread from there), and with the stream's error when it fails or is
   * aborted; in every failure no object (not even a partial one) is left under `key`.
   */
  write(key: string, source: Readable, maxBytes: number): Promise<number>;
  /** The whole object; rejects with a NOT_FOUND ServiceError when there is none. */
  read(key: string): Promise<Buffer>;
  /** Removes the object; idempotent. */
  delete(key: string): Promise<void>;
  /** Every object, including partial ones of interrupted writes (for the sweep of orphans). */
  list(): Promise<StoredObject[]>;
}

/** The source ended (closed or failed) before all of it arrived. */
export class IncompleteUploadError extends Error {
  constructor(cause?: unknown) {
    super('the upload stream ended before it was complete', cause === undefined ? undefined : { cause });
    this.name = 'IncompleteUploadError';
  }
}
