/**
 * Headings and tables on printed web pages (issue 16, an outside check with exact truth): the
 * pages of the shared HTML corpus printed by Chromium (printed-corpus.ts, cached in
 * bench/.cache/printed), each PDF read by folio and by raw pdf.js text, scored against what the
 * browser laid out (printed-truth.ts): heading lines found / missed / extra (matched as
 * bench:headings matches them), level agreement of the found ones, and the pdf bench's NID,
 * TEDS, MHS and Overall per page (reference = the page's text with its headings as `#` lines and
 * its tables as HTML), averaged over the pages where each is defined.
 *
 * The sample: every printed page with a visible heading or table, no table inside a table
 * (layout tables) and at most 10 PDF pages; `--quick` a fixed seeded 30 of them.
 *
 *   npm run bench:printed                    the sample, mode fast, both engines
 *   npm run bench:printed -- --quick         30 pages
 *   npm run bench:printed -- --list          then each page's missed (-) and extra (+) headings
 *   npm run bench:printed -- --doc NAME      one page: its truth, folio's markdown, the scores
 *   npm run bench:printed -- --json FILE     per-page figures
 *   npm run bench:printed -- --mode auto|ocr folio in another mode
 *
 * The first run prints the corpus (about 3 minutes); later runs read the cache. The run and
 * the report are outside-report.ts's, shared with bench:office-pdf.
 */
import { parseOutsideArgs, out, pickSample, runAndReport, usage } from './outside-report.ts';
import { printedPages } from './printed-corpus.ts';

function fail(message: string): never {
  return usage('bench:printed', 'bench/pdf/printed.ts', message);
}

async function main(): Promise<void> {
  const args = parseOutsideArgs(process.argv.slice(2), fail);
  const printed = await printedPages((line) => out(line));
  const sample = pickSample(printed, args, fail, 'printed page');
  const headings = sample.reduce((s, p) => s + p.truth.headings.length, 0);
  const tables = sample.reduce((s, p) => s + p.truth.tables.length, 0);
  out(`bench:printed: ${sample.length} of ${printed.length} printed web pages (${sample.reduce((s, p) => s + p.pages, 0)} PDF pages, ${headings} headings, ${tables} tables), folio mode ${args.mode}`);
  await runAndReport(sample, args);
}

await main();
