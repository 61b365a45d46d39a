/**
 * Upload spool: the temp files of one request under `DATA_DIR/tmp`, randomly named, and removed
 * when the request ends, whichever way it ends (success, error, client abort).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';

export const SPOOL_FILE_PREFIX = 'upload-';
/** Spool files older than this at start-up are leftovers of a crashed process. */
const STALE_AFTER_MS = 60 * 60 * 1000;

/** Creates the spool directory and removes stale leftovers in it. */
export function prepareSpoolDir(dataDir: string): string {
  const dir = path.join(dataDir, 'tmp');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const cutoff = Date.now() - STALE_AFTER_MS;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(SPOOL_FILE_PREFIX)) continue;
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
    } catch {
      // Another process removed it first.
    }
  }
  return dir;
}

export class UploadSpool {
  private readonly files: { path: string; stream: fs.WriteStream }[] = [];

  constructor(private readonly dir: string) {}

  /** A new, exclusively created file, readable only by this user. */
  create(): { path: string; stream: fs.WriteStream } {
    const file = path.join(this.dir, `${SPOOL_FILE_PREFIX}${randomBytes(16).toString('hex')}`);
    const stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    // Errors surface through the pipeline that writes to it; this keeps a late one from crashing.
    stream.on('error', () => {});
    const entry = { path: file, stream };
    this.files.push(entry);
    return entry;
  }

  /** Closes and removes every file of this spool. Never throws. */
  async dispose(): Promise<void> {
    await Promise.all(
      this.files.splice(0).map(async ({ path: file, stream }) => {
        // The file must be closed (and, if still opening, created) before it is unlinked;
        // otherwise a late open() would recreate it after the removal.
        if (!stream.closed) {
          const closed = once(stream, 'close').catch(() => undefined);
          stream.destroy();
          await closed;
        }
        await fs.promises.rm(file, { force: true }).catch(() => undefined);
      }),
    );
  }
}
