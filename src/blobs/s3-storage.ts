/**
 * UploadStorage in an S3 bucket (FOLIO_BLOB_URL=s3://bucket/prefix): one object per upload or
 * capture at `{prefix}{namespace}/{key}`, shared by every instance that names the same bucket.
 *
 * A write reads the upload (at most `maxBytes`, 50 MB) into memory while hashing it, then sends
 * one PutObject whose payload SHA-256 is signed: S3 needs the length before the body (a
 * streamed PUT of unknown length would be a multipart upload, 5 MB parts), and nothing is
 * stored until the upload is complete, so a failed or oversized upload leaves no object behind.
 * Reads and deletes are one request each; `list` pages through ListObjectsV2 for the sweeps.
 */
import crypto from 'node:crypto';
import type { StoredObject, UploadStorage } from '../uploads/storage.ts';
import { pumpLimited } from './pump.ts';
import type { S3Client } from './s3/client.ts';
import { checkKey, KEY_PATTERN, objectGone } from './keys.ts';

export function createS3Storage(client: S3Client, prefix: string, namespace: string): UploadStorage {
  const base = `${prefix}${namespace}/`;
  const objectKey = (key: string) => `${base}${checkKey(key)}`;
  return {
    async write(key, source, maxBytes) {
      const name = objectKey(key);
      const chunks: Buffer[] = [];
      const hash = crypto.createHash('sha256');
      const size = await pumpLimited(source, maxBytes, (chunk) => {
        chunks.push(chunk);
        hash.update(chunk);
        return Promise.resolve();
      });
      await client.putObject(name, Buffer.concat(chunks, size), hash.digest('hex'), 'application/octet-stream');
      return size;
    },
    async read(key) {
      const bytes = await client.getObject(objectKey(key));
      if (bytes === undefined) throw objectGone();
      return bytes;
    },
    async delete(key) {
      await client.deleteObject(objectKey(key));
    },
    async list() {
      const objects: StoredObject[] = [];
      for (const object of await client.listObjects(base)) {
        const key = object.key.slice(base.length);
        if (KEY_PATTERN.test(key)) objects.push({ key, modifiedAt: object.lastModified });
      }
      return objects;
    },
  };
}

