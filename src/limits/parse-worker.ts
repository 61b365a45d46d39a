/** A parse worker thread: runs parse() for one job at a time and posts the outcome back. */
import { parentPort, workerData } from 'node:worker_threads';
import { isServiceError } from '../errors.ts';
import { parse, preloadReaders, type OcrSettings, type SourceLimits } from '../parse/index.ts';
import type { ParseJobMessage, WorkerReply } from './parse-messages.ts';

const port = parentPort;
const { ocr, limits } = (workerData ?? {}) as { ocr?: OcrSettings; limits?: Partial<SourceLimits> };
if (!port) throw new Error('parse-worker must run in a worker thread');

function reply(message: WorkerReply): void {
  port?.postMessage(message);
}

// Load every reader before taking work, so no request pays for a cold start.
await preloadReaders();
reply({ id: 0, type: 'ready' });

port.on('message', (job: ParseJobMessage) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  parse(
    {
      bytes,
      filename: job.filename,
      ...(job.contentType ? { contentType: job.contentType } : {}),
      ...(job.sourceURL ? { sourceURL: job.sourceURL } : {}),
      ...(job.url ? { url: job.url } : {}),
      ...(job.statusCode !== undefined ? { statusCode: job.statusCode } : {}),
    },
    job.options,
    { onProgress: (progress) => reply({ id: job.id, type: 'progress', progress }), deadline: job.deadline, ...(ocr ? { ocr } : {}), ...(limits ? { limits } : {}) },
  ).then(
    (data) => reply({ id: job.id, type: 'done', data }),
    (err: unknown) => {
      if (isServiceError(err)) {
        reply({ id: job.id, type: 'failed', error: { code: err.code, message: err.message } });
      } else {
        // The pool logs it; the client sees UNKNOWN_ERROR without internals.
        const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
        port?.postMessage({ id: job.id, type: 'failed', error: null, detail } satisfies WorkerReply & { detail: string });
      }
    },
  );
});
