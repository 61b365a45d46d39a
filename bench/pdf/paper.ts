/**
 * Reading order, furniture and headings on two-column pages (issue 16, an outside check with
 * exact truth): the pages of the shared HTML corpus set as a journal would set them — two
 * justified serif columns, the title across both, images as grey boxes a column wide, both
 * columns wide or smaller, captions, a running head and a page number on every page
 * (paper-corpus.ts, cached in bench/.cache/paper) — each PDF read by folio and by raw pdf.js text
 * and scored against the DOM that was printed (printed-truth.ts: the text in DOM order, which
 * is the reading order, with its headings; the running head and page number are not in it) as
 * bench:printed scores its pages (outside-report.ts).
 *
 * The sample: the pages that print on two PDF pages or more (and at most MAX_PAGES) with a
 * heading or a table, no layout table and no han, kana or hangul (printed-truth.ts `eligible`),
 * a seeded SAMPLE_SIZE of them when there are more (the corpus has 59); `--quick` a seeded 30.
 *
 *   npm run bench:paper                    the sample, mode fast, both engines
 *   npm run bench:paper -- --quick         30 pages
 *   npm run bench:paper -- --list          then each page's missed (-) and extra (+) headings
 *   npm run bench:paper -- --doc NAME      one page (any printed page): its truth, folio's markdown, the scores
 *   npm run bench:paper -- --json FILE     per-page figures
 *   npm run bench:paper -- --mode auto|ocr folio in another mode
 *
 * The first run prints the corpus (about 3 minutes); later runs read the cache.
 */
import { parseOutsideArgs, out, pickSample, runAndReport, usage } from './outside-report.ts';
import { paperPages } from './paper-corpus.ts';
import { eligible, seededSample } from './printed-truth.ts';

/** Pages in the sample, drawn by SEED from those of two PDF pages or more. */
const SAMPLE_SIZE = 100;
const SEED = 12;
const MAX_PAGES = 50;

function fail(message: string): never {
  return usage('bench:paper', 'bench/pdf/paper.ts', message);
}

async function main(): Promise<void> {
  const args = parseOutsideArgs(process.argv.slice(2), fail);
  const printed = await paperPages((line) => out(line));
  const pool = printed.filter((p) => p.pages >= 2 && eligible(p.truth, p.pages, MAX_PAGES));
  const drawn = new Set(seededSample(pool.map((p) => p.name), SAMPLE_SIZE, SEED));
  const sample = pickSample(args.doc ? printed : pool.filter((p) => drawn.has(p.name)), args, fail, 'printed page', MAX_PAGES);
  const headings = sample.reduce((s, p) => s + p.truth.headings.length, 0);
  const tables = sample.reduce((s, p) => s + p.truth.tables.length, 0);
  out(`bench:paper: ${sample.length} of ${pool.length} two-column pages of 2–${MAX_PAGES} PDF pages (${printed.length} printed; ${sample.reduce((s, p) => s + p.pages, 0)} PDF pages, ${headings} headings, ${tables} tables), folio mode ${args.mode}`);
  await runAndReport(sample, args);
}

await main();
