/**
 * The upload command → uploadRef round trip (issue 5 §5; interface-v2 "Hosted tool-server
 * addresses": the remote tool server "first returns a temporary upload command, then parses the
 * returned uploadRef"). One ticket = one row (src/store/upload-refs.ts) + at most one stored file
 * (UploadStorage):
 *
 *   create(owner, {filename})  → ticket: uploadRef + uploadUrl `{publicUrl}/v2/uploads/{token}`
 *   receive(token, stream)     → the PUT: pending → uploading → uploaded (single use)
 *   take(owner, uploadRef)     → the parse: uploaded → taken (single use), bytes in memory
 *   release()                  → the bytes are deleted (right after the parse)
 *   sweep()                    → expired rows and their bytes are deleted
 *
 * Refs expire `ttlSeconds` after the ticket (default 600: config.uploadTtlSeconds), are bound to
 * their owner, and an owner holds at most `maxRefs` unexpired, unparsed ones.
 */
import type { Readable } from 'node:stream';
import { isServiceError, ServiceError } from '../errors.ts';
import type { UploadRefRecord, UploadRefStore } from '../store/upload-refs.ts';
import {
  expiredUploadRef,
  expiredUploadUrl,
  malformedUploadRef,
  malformedUploadUrl,
  tooManyUploadRefs,
  unknownUploadRef,
  unknownUploadUrl,
  UPLOAD_MAX_BYTES,
  uploadInProgress,
  uploadRefNotUploaded,
  uploadRefUsed,
  uploadTooLarge,
  uploadUrlUsed,
} from './errors.ts';
import { ticketFilename } from './filename.ts';
import { hashSecret, looksLikeUploadRef, looksLikeUploadToken, newStorageKey, newUploadRef, newUploadToken, sealRef, unsealRef } from './secrets.ts';
import type { UploadStorage } from './storage.ts';
import type { TakenUpload, UploadRefService, UploadTicket } from './types.ts';

export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
/** A PUT still streaming when its ref expires is left alone this long before the sweep removes it. */
const UPLOADING_GRACE_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 500;

export interface UploadRefServiceOptions {
  store: UploadRefStore;
  storage: UploadStorage;
  /** Base of upload URLs (PublicUrls.base), without a trailing slash. */
  publicUrl: string;
  ttlSeconds: number;
  maxRefs: number;
  /** Default 50 MB (interface-v2 "Limits"). */
  maxBytes?: number;
  /** Clock (tests of expiry). */
  now?: () => Date;
}

/** The PUT's answer. */
export interface ReceivedUpload {
  uploadRef: string;
  bytes: number;
  expiresAt: string;
}

export interface ReceiveOptions {
  /** The request's Content-Type, when it names the file's type. */
  contentType?: string;
  /** The request's Content-Length: over the limit is refused before anything is read. */
  declaredBytes?: number;
  /** Called once the URL is checked and claimed, right before the body is read (HTTP: `100 Continue`). */
  onAccepted?: () => void;
}

export interface UploadRefs extends UploadRefService {
  readonly maxBytes: number;
  readonly ttlSeconds: number;
  /** Receives the file PUT to an upload URL; throws ServiceError when the URL cannot take it. */
  receive(token: string, source: Readable, options?: ReceiveOptions): Promise<ReceivedUpload>;
  /** Deletes expired refs' bytes and rows (and stored files no ref owns); the number of refs removed. */
  sweep(): Promise<number>;
  /** One sweep now, then one every `intervalMs` (the timer does not keep the process alive). */
  startSweeping(options?: { intervalMs?: number; onError?: (err: unknown) => void }): void;
  /** Stops the sweep timer and waits for a running sweep. */
  close(): Promise<void>;
}

export function createUploadRefService(options: UploadRefServiceOptions): UploadRefs {
  const { store, storage, publicUrl, ttlSeconds, maxRefs } = options;
  const maxBytes = options.maxBytes ?? UPLOAD_MAX_BYTES;
  const now = options.now ?? (() => new Date());
  const base = publicUrl.replace(/\/+$/, '');
  const expired = (row: UploadRefRecord, at: Date) => Date.parse(row.expiresAt) <= at.getTime();

  const create = async (owner: string, file: { filename: string }): Promise<UploadTicket> => {
    const filename = ticketFilename(file.filename);
    const uploadRef = newUploadRef();
    const token = newUploadToken();
    const at = now();
    const expiresAt = new Date(at.getTime() + ttlSeconds * 1000).toISOString();
    const result = await store.createUploadRef(
      {
        id: newStorageKey(),
        refHash: hashSecret(uploadRef),
        tokenHash: hashSecret(token),
        sealedRef: sealRef(token, uploadRef),
        owner,
        filename,
        createdAt: at.toISOString(),
        expiresAt,
      },
      maxRefs,
    );
    if (!result.created) {
      const wait = Math.max(1, Math.ceil((Date.parse(result.oldestExpiresAt) - at.getTime()) / 1000));
      throw tooManyUploadRefs(maxRefs, wait);
    }
    return { uploadRef, uploadUrl: `${base}/v2/uploads/${token}`, method: 'PUT', expiresAt, maxBytes };
  };

  /** Why a PUT to this row cannot proceed (the claim lost or was never possible). */
  const refusalForUpload = (row: UploadRefRecord | undefined, at: Date): ServiceError => {
    if (!row) return unknownUploadUrl();
    if (row.status === 'uploaded' || row.status === 'taken') return uploadUrlUsed();
    if (expired(row, at)) return expiredUploadUrl(ttlSeconds);
    if (row.status === 'uploading') return uploadInProgress();
    return unknownUploadUrl();
  };

  const receive = async (token: string, source: Readable, opts: ReceiveOptions = {}): Promise<ReceivedUpload> => {
    if (!looksLikeUploadToken(token)) throw malformedUploadUrl();
    const tokenHash = hashSecret(token);
    const row = await store.findUploadRefByTokenHash(tokenHash);
    const at = now();
    if (!row || row.status !== 'pending' || expired(row, at)) throw refusalForUpload(row, at);
    if (opts.declaredBytes !== undefined && opts.declaredBytes > maxBytes) throw uploadTooLarge(maxBytes);
    if (!(await store.claimUploadRefUpload(row.id, at))) throw refusalForUpload(await store.findUploadRefByTokenHash(tokenHash), at);

    opts.onAccepted?.();
    let size: number;
    try {
      size = await storage.write(row.id, source, maxBytes);
    } catch (err) {
      await store.abandonUploadRefUpload(row.id);
      // Swept while streaming: the file went with its row.
      if (!isServiceError(err) && !(await store.uploadRefExists(row.id))) throw expiredUploadUrl(ttlSeconds);
      throw err;
    }
    if (size === 0) {
      await storage.delete(row.id);
      await store.abandonUploadRefUpload(row.id);
      throw new ServiceError('BAD_REQUEST', 'The upload is empty (0 bytes). PUT the file itself as the request body, e.g. `curl -T report.pdf <uploadUrl>`.');
    }
    const contentType = opts.contentType && !/^application\/octet-stream\b/i.test(opts.contentType) ? opts.contentType : null;
    if (!(await store.completeUploadRefUpload(row.id, { size, contentType }))) {
      await storage.delete(row.id);
      throw expiredUploadUrl(ttlSeconds);
    }
    const uploadRef = unsealRef(token, row.sealedRef);
    if (uploadRef === undefined) throw new Error('upload ref seal does not open with its token');
    return { uploadRef, bytes: size, expiresAt: row.expiresAt };
  };

  const take = async (owner: string, uploadRef: string): Promise<TakenUpload> => {
    if (typeof uploadRef !== 'string' || !looksLikeUploadRef(uploadRef)) throw malformedUploadRef();
    const refHash = hashSecret(uploadRef);
    const at = now();
    const row = await store.takeUploadRef(refHash, owner, at);
    if (!row) {
      const found = await store.findUploadRefByRefHash(refHash);
      // Another owner's ref is answered exactly like one that does not exist.
      if (!found || found.owner !== owner) throw unknownUploadRef();
      if (found.status === 'taken') throw uploadRefUsed();
      if (expired(found, at)) throw expiredUploadRef(ttlSeconds);
      if (found.status === 'pending' || found.status === 'uploading') throw uploadRefNotUploaded();
      throw uploadRefUsed();
    }
    let bytes: Buffer;
    try {
      bytes = await storage.read(row.id);
    } catch (err) {
      await storage.delete(row.id);
      throw err;
    }
    let released: Promise<void> | undefined;
    return {
      bytes,
      filename: row.filename,
      ...(row.contentType ? { contentType: row.contentType } : {}),
      release() {
        released ??= storage.delete(row.id);
        return released;
      },
    };
  };

  const sweepOnce = async (): Promise<number> => {
    const at = now();
    let removed = 0;
    for (;;) {
      const rows = await store.listExpiredUploadRefs(at, SWEEP_BATCH);
      let progressed = false;
      for (const row of rows) {
        // A PUT still streaming past expiry owns its file for a while yet.
        if (row.status === 'uploading' && Date.parse(row.expiresAt) + UPLOADING_GRACE_MS > at.getTime()) continue;
        await storage.delete(row.id);
        await store.deleteUploadRef(row.id);
        removed += 1;
        progressed = true;
      }
      if (rows.length < SWEEP_BATCH || !progressed) break;
    }
    // Files no ref owns (a crash between writing and recording), once older than any live ref.
    const cutoff = at.getTime() - ttlSeconds * 1000 - UPLOADING_GRACE_MS;
    for (const object of await storage.list()) {
      if (object.modifiedAt.getTime() < cutoff && !(await store.uploadRefExists(object.key))) await storage.delete(object.key);
    }
    return removed;
  };

  // Sweeps run one at a time: a sweep asked for while one runs starts after it (with a fresh clock).
  let running: Promise<number> | undefined;
  const sweep = (): Promise<number> => {
    const next = (running ?? Promise.resolve(0)).catch(() => 0).then(sweepOnce);
    running = next;
    next.then(
      () => {
        if (running === next) running = undefined;
      },
      () => {
        if (running === next) running = undefined;
      },
    );
    return next;
  };

  let timer: NodeJS.Timeout | undefined;

  return {
    maxBytes,
    ttlSeconds,
    create,
    receive,
    take,
    sweep,
    startSweeping({ intervalMs = DEFAULT_SWEEP_INTERVAL_MS, onError } = {}) {
      if (timer) return;
      const run = () => {
        sweep().catch((err: unknown) => onError?.(err));
      };
      timer = setInterval(run, intervalMs);
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
