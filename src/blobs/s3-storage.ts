/**
 * UploadStorage in an S3 bucket (FOLIO_BLOB_URL=s3://bucket/prefix): one object per upload or
 * capture at `{prefix}{namespace}/{key}`, shared by every instance that names the same bucket.
 *
 * A write reads the upload (at most `maxBytes`, 50 MB) while hashing it, then sends one PutObject
 * whose payload SHA-256 is signed: S3 needs the length before the body (a streamed PUT of
 * unknown length would be a multipart upload, 5 MB parts), and nothing is stored until the
 * upload is complete, so a failed or oversized upload leaves no object behind. Up to 1 MiB waits
 * in memory; a larger upload is spooled to a file of this user's in `spoolDir` (DATA_DIR/tmp,
 * `upload-s3-*`, removed once sent or failed; the start's sweep of stale spool files removes
 * what a crash left), so memory stays bounded whatever the number of uploads in flight.
 * Reads and deletes are one request each; `list` pages through ListObjectsV2 for the sweeps.
 */
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { StoredObject, UploadStorage } from '../uploads/storage.ts';
import { pumpLimited } from './pump.ts';
import type { S3Client } from './s3/client.ts';
import { checkKey, KEY_PATTERN, objectGone } from './keys.ts';

/** What an upload may hold in memory before it is spooled to a file. */
const MEMORY_BYTES = 1024 * 1024;

interface Spool {
  file: string;
  out: fs.WriteStream;
}

async function append(out: fs.WriteStream, chunk: Buffer): Promise<void> {
  // once() rejects when the stream emits 'error' meanwhile.
  if (!out.write(chunk)) await once(out, 'drain');
}

export function createS3Storage(client: S3Client, prefix: string, namespace: string, spoolDir: string): UploadStorage {
  const base = `${prefix}${namespace}/`;
  const objectKey = (key: string) => `${base}${checkKey(key)}`;
  const openSpool = (): Spool => {
    fs.mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
    const file = path.join(spoolDir, `upload-s3-${crypto.randomBytes(12).toString('hex')}`);
    const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    out.on('error', () => undefined);
    return { file, out };
  };
  return {
    async write(key, source, maxBytes) {
      const name = objectKey(key);
      const hash = crypto.createHash('sha256');
      const memory: Buffer[] = [];
      let inMemory = 0;
      let spool: Spool | undefined;
      try {
        const size = await pumpLimited(source, maxBytes, async (chunk) => {
          hash.update(chunk);
          if (spool === undefined && inMemory + chunk.length <= MEMORY_BYTES) {
            memory.push(chunk);
            inMemory += chunk.length;
            return;
          }
          if (spool === undefined) {
            spool = openSpool();
            for (const held of memory.splice(0)) await append(spool.out, held);
          }
          await append(spool.out, chunk);
        });
        const digest = hash.digest('hex');
        const spooled = spool as Spool | undefined;
        if (spooled === undefined) {
          await client.putObject(name, Buffer.concat(memory, size), digest, 'application/octet-stream');
        } else {
          spooled.out.end();
          await once(spooled.out, 'close');
          await client.putObject(name, { open: () => fs.createReadStream(spooled.file), length: size }, digest, 'application/octet-stream');
        }
        return size;
      } finally {
        const spooled = spool as Spool | undefined;
        if (spooled !== undefined) {
          spooled.out.destroy();
          await fs.promises.rm(spooled.file, { force: true });
        }
      }
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

