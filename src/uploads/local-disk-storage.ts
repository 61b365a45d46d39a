/**
 * UploadStorage on the local disk: one file per upload under `DATA_DIR/uploads`, readable only
 * by this user. A write goes to `<key>.part` and is renamed to `<key>` once complete, so a
 * reader never sees half a file; a write that fails (over the limit, client gone) removes its
 * part file before it rejects.
 *
 * Only one instance can use it: several instances behind a load balancer use a shared store
 * (src/blobs: S3 or PostgreSQL, FOLIO_BLOB_URL), because the PUT and the parse may land on
 * different instances.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ServiceError } from '../errors.ts';
import { uploadTooLarge } from './errors.ts';
import { IncompleteUploadError, type StoredObject, type UploadStorage } from './storage.ts';

const PART_SUFFIX = '.part';
/** Keys are ids the service generates: anything else (a path, a dot) is a bug, never a file name. */
const KEY_PATTERN = /^[a-f0-9]{32}$/;


function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error('invalid upload storage key');
  return key;
}

export function createLocalDiskStorage(dir: string): UploadStorage {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const objectPath = (key: string) => path.join(dir, checkKey(key));
  const partPath = (key: string) => `${objectPath(key)}${PART_SUFFIX}`;

  const write = (key: string, source: Readable, maxBytes: number): Promise<number> => {
    const part = partPath(key);
    const final = objectPath(key);
    const out = fs.createWriteStream(part, { flags: 'wx', mode: 0o600 });
    return new Promise<number>((resolve, reject) => {
      let size = 0;
      let settled = false;
      let sourceEnded = false;

      const detach = () => {
        source.off('data', onData);
        source.off('end', onEnd);
        source.off('error', onSourceError);
        source.off('close', onSourceClose);
        out.off('error', fail);
      };

      async function fail(err: unknown): Promise<void> {
        if (settled) return;
        settled = true;
        detach();
        // Stop reading: whatever the source still has stays unread (the HTTP door closes it).
        source.pause();
        // Late errors of either stream must not go unhandled.
        source.on('error', () => undefined);
        out.on('error', () => undefined);
        if (!out.closed) {
          const closed = once(out, 'close').catch(() => undefined);
          out.destroy();
          await closed;
        }
        await fs.promises.rm(part, { force: true }).catch(() => undefined);
        reject(err);
      }

      function onData(chunk: Buffer): void {
        if (settled) return;
        size += chunk.length;
        if (size > maxBytes) {
          void fail(uploadTooLarge(maxBytes));
          return;
        }
        if (!out.write(chunk)) {
          source.pause();
          out.once('drain', () => {
            if (!settled) source.resume();
          });
        }
      }

      function onEnd(): void {
        sourceEnded = true;
        if (settled) return;
        out.end();
        out.once('close', () => {
          if (settled) return;
          fs.promises.rename(part, final).then(
            () => {
              settled = true;
              detach();
              resolve(size);
            },
            (err: unknown) => void fail(err),
          );
        });
      }

      function onSourceError(err: unknown): void {
        void fail(new IncompleteUploadError(err));
      }

      function onSourceClose(): void {
        if (!sourceEnded) void fail(new IncompleteUploadError());
      }

      source.on('data', onData);
      source.on('end', onEnd);
      source.on('error', onSourceError);
      source.on('close', onSourceClose);
      out.on('error', fail);
      source.resume();
    });
  };

  return {
    write,
    async read(key) {
      try {
        return await fs.promises.readFile(objectPath(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new ServiceError('NOT_FOUND', 'The uploaded file is no longer stored. Request a new upload and upload the file again.');
        }
        throw err;
      }
    },
    async delete(key) {
      await Promise.all([fs.promises.rm(objectPath(key), { force: true }), fs.promises.rm(partPath(key), { force: true })]);
    },
    async list() {
      const names = await fs.promises.readdir(dir);
      const objects: StoredObject[] = [];
      for (const name of names) {
        const key = name.endsWith(PART_SUFFIX) ? name.slice(0, -PART_SUFFIX.length) : name;
        if (!KEY_PATTERN.test(key)) continue;
        try {
          const stat = await fs.promises.stat(path.join(dir, name));
          objects.push({ key, modifiedAt: stat.mtime });
        } catch {
          // Removed meanwhile.
        }
      }
      return objects;
    },
  };
}
