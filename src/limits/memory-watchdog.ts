/**
 * A parse process's own memory watch (docs/parse-isolation.md "Memory"): a worker thread of the
 * child reads the process's resident set, plus the programs it started (OCR's pdftoppm and
 * tesseract), every few milliseconds and ends the whole process group it leads past the cap.
 *
 * The pool watches the same figure from the server (parse-pool.ts); this second watch does not
 * depend on the server's event loop. A reader busy in one synchronous step (pdf.js inflating a
 * gigabyte image into one buffer) keeps the child's own main thread from running anything, but
 * not this thread; and a server busy with other requests may read a child's RSS late, while this
 * thread reads it on time.
 *
 * The thread writes WATCHDOG_MARK on stderr, then SIGKILLs the programs below the process and the
 * process itself. The pool answers a SIGKILL it did not send as over the cap.
 */
import { Worker } from 'node:worker_threads';

/** First words of the line the watchdog writes before it kills its process. */
export const WATCHDOG_MARK = 'folio parse process: resident set past its cap';

/**
 * Plain JavaScript, evaluated in the thread: it must load without the TypeScript loader the
 * child may have been started with. Reads /proc (Linux); elsewhere it finds nothing and idles.
 */
const THREAD_SOURCE = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const { pid, capMb, sampleMs, mark } = workerData;
function rssMb(p) {
  try {
    const kb = /VmRSS:\\s+(\\d+)\\s+kB/.exec(fs.readFileSync('/proc/' + p + '/status', 'utf8'));
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch { return 0; }
}
function below(p, depth) {
  if (depth > 4) return [];
  let kids = [];
  try { kids = fs.readFileSync('/proc/' + p + '/task/' + p + '/children', 'utf8').split(' ').filter(Boolean).map(Number); } catch {}
  return kids.flatMap((k) => [k, ...below(k, depth + 1)]);
}
setInterval(() => {
  const others = below(pid, 0);
  const total = others.reduce((sum, p) => sum + rssMb(p), rssMb(pid));
  if (total <= capMb) return;
  try { fs.writeSync(2, mark + ': ' + Math.round(total) + ' MB > ' + capMb + ' MB\\n'); } catch {}
  for (const p of others) { try { process.kill(p, 'SIGKILL'); } catch {} }
  process.kill(pid, 'SIGKILL');
}, sampleMs);
`;

/** Starts the watch; it never keeps the process alive on its own. */
export function startMemoryWatchdog(capMb: number, sampleMs = 20): Worker {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { pid: process.pid, capMb, sampleMs, mark: WATCHDOG_MARK },
    // A small thread: a regex and a few /proc reads.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    stdout: false,
    stderr: false,
    // The child's own flags (its V8 heap limit, a TypeScript loader) are not the thread's.
    execArgv: [],
  });
  worker.unref();
  return worker;
}
