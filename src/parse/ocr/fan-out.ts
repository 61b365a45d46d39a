/**
 * OCR of many pages of one PDF, side by side: pages are added as the reader finds them and run
 * `concurrency` at a time (one tesseract thread each). The PDF's bytes are written once to a
 * private temporary file (mode 0600 in a mkdtemp folder) that pdftoppm reads, removed when the
 * work ends, whether it finished, failed or was aborted. A folder left by a worker thread that was
 * terminated mid-parse is swept by a later OCR once it is older than any parse can run.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Rule, Word } from '../readers/pdf/page-model.ts';
import { ocrPage } from './page.ts';
import type { DetectedScript } from './script.ts';
import type { PageSize } from './tsv.ts';

/**
 * Pages OCRed at once by one parse. parse() already runs in a pool thread (one per core by
 * default), so more than a few would only make every parse slower.
 */
export function defaultOcrConcurrency(): number {
  return Math.max(1, Math.min(os.availableParallelism(), 4));
}

const TEMP_PREFIX = 'folio-ocr-';
/**
 * A parse runs at most 300 s (interface-v2 `timeout`); a folder of this prefix older than this was
 * left by a parse that was stopped outright (its worker thread terminated before its `finally`).
 */
const STALE_AFTER_MS = 15 * 60_000;
let lastSweep = 0;

/** Removes temporary folders that stopped parses left behind; at most once a minute, never failing a parse. */
async function sweepStale(): Promise<void> {
  const now = Date.now();
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  const root = os.tmpdir();
  for (const name of await readdir(root).catch(() => [])) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const folder = path.join(root, name);
    const info = await stat(folder).catch(() => undefined);
    if (info?.isDirectory() && now - info.mtimeMs > STALE_AFTER_MS) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

export interface OcrPageJob extends PageSize {
  /** 1-based page number. */
  number: number;
}

export type OcrPageOutcome = { number: number; words: Word[]; rules: Rule[]; script?: DetectedScript } | { number: number; error: Error };

export interface PageOcrOptions {
  bytes: Buffer;
  /** tesseract's `-l`: installed languages joined by `+`. */
  languages: string;
  concurrency: number;
  /** The folder temporary files go in; default os.tmpdir(). */
  tempDir?: string;
  /** Aborting kills the running children and drops the pages still waiting. */
  signal: AbortSignal;
  /** Called as each page ends, in completion order. Not called for pages dropped by an abort. */
  onPage: (outcome: OcrPageOutcome) => void;
}

export interface PageOcr {
  add(job: OcrPageJob): void;
  /** Resolves when every added page has ended (or, after an abort, when every child has). Removes the temporary file. */
  finish(): Promise<void>;
}

export function createPageOcr(options: PageOcrOptions): PageOcr {
  const waiting: OcrPageJob[] = [];
  const running = new Set<Promise<void>>();
  let dir: Promise<string> | undefined;
  let idle: (() => void) | undefined;

  function pdfFile(): Promise<string> {
    dir ??= (async () => {
      void sweepStale();
      const folder = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), TEMP_PREFIX));
      await writeFile(path.join(folder, 'input.pdf'), options.bytes, { mode: 0o600 });
      return folder;
    })();
    return dir.then((folder) => path.join(folder, 'input.pdf'));
  }

  async function run(job: OcrPageJob): Promise<void> {
    try {
      const reading = await ocrPage(await pdfFile(), job.number, job, options.languages, options.signal);
      options.onPage({ number: job.number, ...reading });
    } catch (err) {
      if (!options.signal.aborted) options.onPage({ number: job.number, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  function pump(): void {
    while (running.size < options.concurrency && waiting.length > 0 && !options.signal.aborted) {
      const job = waiting.shift() as OcrPageJob;
      const task: Promise<void> = run(job).finally(() => {
        running.delete(task);
        pump();
      });
      running.add(task);
    }
    if (options.signal.aborted) waiting.length = 0;
    if (running.size === 0 && waiting.length === 0) idle?.();
  }

  options.signal.addEventListener('abort', pump, { once: true });

  return {
    add(job) {
      if (options.signal.aborted) return;
      waiting.push(job);
      pump();
    },
    async finish() {
      try {
        if (running.size > 0 || waiting.length > 0) {
          await new Promise<void>((resolve) => {
            idle = resolve;
            pump();
          });
        }
      } finally {
        options.signal.removeEventListener('abort', pump);
        if (dir) {
          const folder = await dir.catch(() => undefined);
          if (folder) await rm(folder, { recursive: true, force: true });
        }
      }
    },
  };
}
