/**
 * Reads an upload stream chunk by chunk into a sink, at most `maxBytes`, with the same failure
 * semantics as the local disk storage (src/uploads/storage.ts `UploadStorage.write`): past the
 * limit it rejects with FILE_TOO_LARGE and leaves the rest of the source unread; a source that
 * fails or closes before its end rejects with IncompleteUploadError. The source is paused while
 * the sink works on a chunk (backpressure), so a slow store never buffers the whole upload.
 */
import type { Readable } from 'node:stream';
import { uploadTooLarge } from '../uploads/errors.ts';
import { IncompleteUploadError } from '../uploads/storage.ts';

export function pumpLimited(source: Readable, maxBytes: number, sink: (chunk: Buffer) => Promise<void>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let size = 0;
    let settled = false;
    let ended = false;
    let busy = false;

    const detach = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      detach();
      source.pause();
      // A late error of the source must not go unhandled (the HTTP door closes it).
      source.on('error', () => undefined);
      reject(err);
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      detach();
      resolve(size);
    };

    function onData(chunk: Buffer | string): void {
      if (settled) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        fail(uploadTooLarge(maxBytes));
        return;
      }
      busy = true;
      source.pause();
      sink(bytes).then(
        () => {
          busy = false;
          if (settled) return;
          if (ended) finish();
          else source.resume();
        },
        (err: unknown) => fail(err),
      );
    }
    function onEnd(): void {
      ended = true;
      if (!busy) finish();
    }
    function onError(err: unknown): void {
      fail(new IncompleteUploadError(err));
    }
    function onClose(): void {
      if (!ended) fail(new IncompleteUploadError());
    }

    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
    source.resume();
  });
}
