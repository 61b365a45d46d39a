/**
 * A parse child process (forked by src/limits/parse-pool.ts): runs parse() for one job at a time
 * and sends the outcome back over the IPC channel. Its settings come as one JSON argument.
 */
import { isServiceError } from '../errors.ts';
import { parse, preloadReaders, type OcrSettings, type SourceLimits } from '../parse/index.ts';
import { startMemoryWatchdog } from './memory-watchdog.ts';
import type { ParseJobMessage, WorkerReply } from './parse-messages.ts';

const send = process.send?.bind(process);
if (!send) throw new Error('parse-worker must run as a child process with an IPC channel');
const { ocr, limits, memoryMb } = JSON.parse(process.argv[2] ?? '{}') as { ocr?: OcrSettings; limits?: Partial<SourceLimits>; memoryMb?: number };
// Its own watch of its memory cap, on a thread that a long synchronous step cannot hold up.
if (memoryMb) startMemoryWatchdog(memoryMb);

function reply(message: WorkerReply): void {
  if (process.connected) send?.(message);
}

// The pool is gone (it crashed or closed the channel): nobody will read an answer.
process.on('disconnect', () => process.exit(0));
// Ctrl-C and a service manager's SIGTERM reach the whole process group: the server shuts down
// gracefully, lets running parses finish and then ends this process itself.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

// Load every reader before taking work, so no request pays for a cold start.
await preloadReaders();
reply({ id: 0, type: 'ready' });

process.on('message', (job: ParseJobMessage) => {
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
    {
      onProgress: (progress) => reply({ id: job.id, type: 'progress', progress }),
      deadline: job.deadline,
      endsAt: job.endsAt,
      ...(ocr ? { ocr } : {}),
      ...(limits ? { limits } : {}),
      ...(job.llm ? { llm: job.llm, onLlmUsage: (usage) => reply({ id: job.id, type: 'llm-usage', usage }) } : {}),
    },
  ).then(
    (data) => reply({ id: job.id, type: 'done', data }),
    (err: unknown) => {
      if (isServiceError(err)) {
        reply({ id: job.id, type: 'failed', error: { code: err.code, message: err.message } });
      } else {
        // The pool logs it; the client sees UNKNOWN_ERROR without internals.
        const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
        reply({ id: job.id, type: 'failed', error: null, detail });
      }
    },
  );
});
