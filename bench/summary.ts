/**
 * bench:summary (docs/derive.md): the offline extractive summary's time per document over the
 * shared corpus, every format it has (HTML, PDF, DOCX, DOC, ODT, RTF, XLSX, XLS), and the
 * offline json's time on the documents with a table, asked for that table's rows.
 *
 *   npx tsx bench/summary.ts            every document
 *   npx tsx bench/summary.ts --quick    at most 15 documents per format, spread over the list
 *
 * Each document is read once the way parse() reads it (detect → reader → clean → language,
 * test/helpers/read-document.ts); only the derive step is timed: the median of RUNS runs after
 * one warm-up run, in CPU time of this process (user + system; the derive step is synchronous and
 * single-threaded, so on a shared machine CPU time is its cost and wall time also counts others). Documents a reader refuses (password-protected, empty, unsupported) are
 * counted and left out. Reported per format and over all: documents, median, p95 and max ms,
 * and the slowest document.
 */
import fs from 'node:fs';
import path from 'node:path';
import { offlineJson } from '../src/parse/derive/json/offline.ts';
import { extractiveSummary } from '../src/parse/derive/summary/extractive.ts';
import type { ReadResult } from '../src/parse/document.ts';
import { CORPUS_DIR } from '../test/helpers/corpus.ts';
import { readDocument } from '../test/helpers/read-document.ts';

const QUICK = process.argv.includes('--quick');
const PER_FORMAT_QUICK = 15;
const RUNS = 3;
const FORMATS = ['html', 'pdf', 'docx', 'doc', 'odt', 'rtf', 'xlsx', 'xls'] as const;

function formatOf(file: string): string | undefined {
  const ext = path.extname(file).slice(1).toLowerCase();
  if (ext === 'htm') return 'html';
  return (FORMATS as readonly string[]).includes(ext) ? ext : undefined;
}

/** Documents of the corpus, by format; for HTML only the inputs (fixtures, source.html), not the expected outputs. */
function corpusDocuments(): Map<string, string[]> {
  const byFormat = new Map<string, string[]>();
  const files = fs.readdirSync(CORPUS_DIR, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const format = formatOf(file);
    if (!format) continue;
    if (format === 'html' && !(/\/fixtures\//.test(file) || path.basename(file) === 'source.html')) continue;
    (byFormat.get(format) ?? byFormat.set(format, []).get(format))?.push(file);
  }
  if (QUICK) {
    for (const [format, list] of byFormat) {
      const step = Math.max(1, list.length / PER_FORMAT_QUICK);
      byFormat.set(format, Array.from({ length: Math.min(PER_FORMAT_QUICK, list.length) }, (_, i) => list[Math.floor(i * step)] as string));
    }
  }
  return byFormat;
}

function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/** Median CPU ms of RUNS runs of fn after one warm-up run. */
function time(fn: () => unknown): number {
  fn();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    runs.push((c.user + c.system) / 1000);
  }
  return medianOf(runs);
}

/** An array-of-objects schema named after the first table's header, the question a user would ask of it. */
function tableSchema(read: ReadResult): Record<string, unknown> | undefined {
  for (const table of read.document.body.querySelectorAll('table')) {
    const header = [...(table.querySelector('tr')?.children ?? [])].map((c) => (c.textContent ?? '').trim()).filter((t) => /\p{L}/u.test(t));
    if (header.length < 2) continue;
    const properties = Object.fromEntries(header.map((h) => [h, { type: ['string', 'number'] }]));
    return { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties } } } };
  }
  return undefined;
}

interface Timing {
  file: string;
  ms: number;
}

function report(label: string, timings: Timing[]): void {
  if (timings.length === 0) return;
  const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
  const slowest = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
  console.log(`${label.padEnd(8)} ${String(timings.length).padStart(5)}  ${medianOf(sorted).toFixed(2).padStart(8)}  ${percentile(sorted, 0.95).toFixed(2).padStart(8)}  ${slowest.ms.toFixed(2).padStart(8)}  ${slowest.file}`);
}

async function main(): Promise<void> {
  const byFormat = corpusDocuments();
  const summaries: Timing[] = [];
  const jsons: Timing[] = [];
  let refused = 0;
  let empty = 0;
  let filled = 0;
  console.log(`offline summary, CPU ms per document (median of ${RUNS} runs after a warm-up; reading not timed)${QUICK ? ', --quick' : ''}`);
  console.log('format    docs    median       p95       max  slowest');
  for (const format of FORMATS) {
    const timings: Timing[] = [];
    for (const file of byFormat.get(format) ?? []) {
      let read: ReadResult;
      try {
        read = await readDocument(fs.readFileSync(path.join(CORPUS_DIR, file)), path.basename(file));
      } catch {
        refused += 1;
        continue;
      }
      timings.push({ file, ms: time(() => extractiveSummary(read)) });
      if (extractiveSummary(read) === '') empty += 1;
      const schema = tableSchema(read);
      if (schema) {
        jsons.push({ file, ms: time(() => offlineJson(read, schema)) });
        if (offlineJson(read, schema) !== undefined) filled += 1;
      }
    }
    report(format, timings);
    summaries.push(...timings);
  }
  report('all', summaries);
  console.log(`(${refused} documents the readers refused; ${empty} with no sentence to quote, e.g. spreadsheets, whose summary is empty)`);
  console.log(`\noffline json on the ${jsons.length} documents with a table, asked for its rows (${filled} filled)`);
  console.log('          docs    median       p95       max  slowest');
  report('json', jsons);
}

await main();
