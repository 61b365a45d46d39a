/**
 * Screenshots and PDFs of the browser (the `screenshot` format, the `screenshot` and `pdf`
 * actions), kept through the upload storage interface (src/uploads/storage.ts) and served at a
 * capability URL that expires: interface-v2 "screenshot … expires after 24 hours and can then no
 * longer be downloaded".
 *
 *   URL    {publicUrl}/v2/captures/{token}.{png|jpeg|pdf}
 *   token  {expiry, base-36 seconds}-{24 random bytes, base64url}
 *   key    the first 32 hex digits of SHA-256(token): the storage never sees the token, and a
 *          token whose expiry was edited names no object.
 *
 * An expired URL answers 404 and its object is deleted; a sweep deletes what nobody asked for
 * after its lifetime (the object's write time + the TTL), so nothing outlives a restart either.
 * With `zeroDataRetention` nothing is stored: the capture is returned inline as a data: URL.
 */
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { isServiceError } from '../errors.ts';
import type { UploadStorage } from '../uploads/storage.ts';

export type CaptureKind = 'png' | 'jpeg' | 'pdf';

const CONTENT_TYPES: Record<CaptureKind, string> = { png: 'image/png', jpeg: 'image/jpeg', pdf: 'application/pdf' };
/** The largest capture kept (a full-page screenshot of a very long page). */
const MAX_CAPTURE_BYTES = 50 * 1024 * 1024;
const NAME = /^([0-9a-z]{1,12})-([A-Za-z0-9_-]{32})\.(png|jpeg|pdf)$/;
const SWEEP_INTERVAL_MS = 10 * 60_000;

export interface CaptureStoreOptions {
  storage: UploadStorage;
  /** The base URL clients reach this server at. */
  publicUrl: string;
  ttlSeconds: number;
  now?: () => Date;
}

export interface Capture {
  bytes: Buffer;
  contentType: string;
}

export interface CaptureStore {
  /** Keeps the bytes; resolves with the capability URL. */
  save(bytes: Buffer, kind: CaptureKind): Promise<string>;
  /** The capture named by the URL's last segment; undefined when unknown or expired (then deleted). */
  open(name: string): Promise<Capture | undefined>;
  /** Deletes every object older than the TTL; resolves with how many. */
  sweep(): Promise<number>;
  startSweeping(onError?: (err: unknown) => void): void;
  close(): Promise<void>;
}

/** A capture inline, for zeroDataRetention. */
export function dataUrl(bytes: Buffer, kind: CaptureKind): string {
  return `data:${CONTENT_TYPES[kind]};base64,${bytes.toString('base64')}`;
}

function keyOf(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex').slice(0, 32);
}

export function createCaptureStore(options: CaptureStoreOptions): CaptureStore {
  const now = options.now ?? (() => new Date());
  const base = options.publicUrl.replace(/\/+$/, '');
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const sweep = async (): Promise<number> => {
    const cutoff = now().getTime() - options.ttlSeconds * 1000;
    let deleted = 0;
    for (const object of await options.storage.list()) {
      if (object.modifiedAt.getTime() <= cutoff) {
        await options.storage.delete(object.key);
        deleted++;
      }
    }
    return deleted;
  };

  return {
    async save(bytes, kind) {
      const expiry = Math.ceil(now().getTime() / 1000) + options.ttlSeconds;
      const token = `${expiry.toString(36)}-${crypto.randomBytes(24).toString('base64url')}`;
      await options.storage.write(keyOf(token), Readable.from([bytes]), MAX_CAPTURE_BYTES);
      return `${base}/v2/captures/${token}.${kind}`;
    },
    async open(name) {
      const m = NAME.exec(name);
      if (!m) return undefined;
      const token = `${m[1] ?? ''}-${m[2] ?? ''}`;
      const kind = m[3] as CaptureKind;
      const key = keyOf(token);
      if (parseInt(m[1] ?? '0', 36) * 1000 <= now().getTime()) {
        await options.storage.delete(key);
        return undefined;
      }
      try {
        return { bytes: await options.storage.read(key), contentType: CONTENT_TYPES[kind] };
      } catch (err) {
        // Gone (swept, or never there) is a 404; a store that cannot answer is the server's error.
        if (isServiceError(err) && err.code === 'NOT_FOUND') return undefined;
        throw err;
      }
    },
    sweep,
    startSweeping(onError) {
      if (timer) return;
      const run = () => {
        running = sweep();
        running.catch((err: unknown) => onError?.(err));
      };
      timer = setInterval(run, SWEEP_INTERVAL_MS);
      timer.unref();
      run();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
