/**
 * DOCX → markdown benchmark: folio's full pipeline against bare mammoth, on every .docx of the
 * shared corpus (office/docx).
 *
 *   npx tsx bench/docx.ts            all documents
 *   npx tsx bench/docx.ts --quick    a fixed subset of 20 documents
 *
 * (a) mammoth: `mammoth.convertToMarkdown({buffer})` with its defaults (JSZip, its own style
 *     map, no headers/footers, no equations).
 * (b) folio: `parse({bytes, filename}, {formats: ['markdown']})` — detect, read (guarded zip,
 *     mammoth HTML, headers/footers, equations, tables, notes, properties), clean, write markdown.
 *
 * Both run on the same bytes in the same process. Each document is timed RUNS times per
 * converter, alternating, the order swapped from document to document, after a warm-up; a
 * document's time is the median of its runs. Reported: median, p90 and total of the
 * per-document times, the folio/mammoth ratio, and the largest document. Documents either
 * converter refuses (the two password-protected files) are listed and left out of the timing.
 * Exits non-zero only when folio fails with something other than a ServiceError.
 */
import fs from 'node:fs';
import path from 'node:path';
import mammothModule from 'mammoth';
import { isServiceError } from '../src/errors.ts';
import { parse } from '../src/parse/index.ts';
import { parseOptions } from '../src/parse/options.ts';
import { CORPUS_DIR } from '../test/helpers/corpus.ts';

const QUICK = process.argv.includes('--quick');
const QUICK_DOCS = 20;
const RUNS = QUICK ? 5 : 3;
const WARMUP_DOCS = 10;

/** mammoth's markdown entry point exists in 1.x but is missing from its typings. */
const mammoth = mammothModule as unknown as { convertToMarkdown(input: { buffer: Buffer }): Promise<{ value: string }> };
const options = parseOptions({ formats: ['markdown'] });

interface Doc {
  name: string;
  bytes: Buffer;
}

function listDocs(): Doc[] {
  const dir = path.join(CORPUS_DIR, 'office', 'docx');
  let names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.docx'))
    .sort();
  if (QUICK && names.length > QUICK_DOCS) {
    const step = names.length / QUICK_DOCS;
    names = Array.from({ length: QUICK_DOCS }, (_, i) => names[Math.floor(i * step)] as string);
  }
  return names.map((name) => ({ name, bytes: fs.readFileSync(path.join(dir, name)) }));
}

type Outcome = { ok: true; ms: number } | { ok: false; error: string };

async function timeFolio(doc: Doc): Promise<Outcome> {
  const started = performance.now();
  try {
    await parse({ bytes: doc.bytes, filename: doc.name }, options);
    return { ok: true, ms: performance.now() - started };
  } catch (err) {
    if (isServiceError(err)) return { ok: false, error: err.code };
    throw err;
  }
}

async function timeMammoth(doc: Doc): Promise<Outcome> {
  const started = performance.now();
  try {
    await mammoth.convertToMarkdown({ buffer: doc.bytes });
    return { ok: true, ms: performance.now() - started };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message.slice(0, 60) : 'error' };
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const fmt = (ms: number) => ms.toFixed(1).padStart(9);

async function main(): Promise<void> {
  const docs = listDocs();
  for (const doc of docs.slice(0, WARMUP_DOCS)) {
    await timeFolio(doc);
    await timeMammoth(doc);
  }

  const folioTimes: number[] = [];
  const mammothTimes: number[] = [];
  const refused: string[] = [];
  let largest: { doc: Doc; folio: number; mammoth: number } | undefined;
  for (const [index, doc] of docs.entries()) {
    const f: number[] = [];
    const m: number[] = [];
    let failure: string | undefined;
    for (let run = 0; run < RUNS && !failure; run++) {
      const order = (index + run) % 2 === 0 ? ['folio', 'mammoth'] : ['mammoth', 'folio'];
      for (const which of order) {
        const outcome = which === 'folio' ? await timeFolio(doc) : await timeMammoth(doc);
        if (!outcome.ok) {
          failure = `${which}: ${outcome.error}`;
          break;
        }
        (which === 'folio' ? f : m).push(outcome.ms);
      }
    }
    if (failure) {
      refused.push(`${doc.name} (${failure})`);
      continue;
    }
    const folio = median(f);
    const mam = median(m);
    folioTimes.push(folio);
    mammothTimes.push(mam);
    if (!largest || doc.bytes.length > largest.doc.bytes.length) largest = { doc, folio, mammoth: mam };
  }

  const total = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const rows: [string, number, number, number][] = [
    ['mammoth.convertToMarkdown', median(mammothTimes), percentile(mammothTimes, 90), total(mammothTimes)],
    ['folio parse() → markdown', median(folioTimes), percentile(folioTimes, 90), total(folioTimes)],
  ];
  process.stdout.write(`DOCX → markdown, ${folioTimes.length} documents${QUICK ? ' (quick subset)' : ''}, median of ${RUNS} runs each, ms per document\n\n`);
  process.stdout.write(`${'converter'.padEnd(28)}${'median'.padStart(9)}${'p90'.padStart(9)}${'total'.padStart(9)}\n`);
  for (const [name, med, p90, sum] of rows) process.stdout.write(`${name.padEnd(28)}${fmt(med)}${fmt(p90)}${fmt(sum)}\n`);
  process.stdout.write(`\nfolio / mammoth: median ×${(median(folioTimes) / median(mammothTimes)).toFixed(2)}, total ×${(total(folioTimes) / total(mammothTimes)).toFixed(2)}\n`);
  if (largest) {
    const kb = Math.round(largest.doc.bytes.length / 1024);
    process.stdout.write(`largest (${largest.doc.name}, ${kb} KB): folio ${largest.folio.toFixed(1)} ms, mammoth ${largest.mammoth.toFixed(1)} ms\n`);
  }
  if (refused.length > 0) process.stdout.write(`left out (refused): ${refused.join('; ')}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`folio failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
