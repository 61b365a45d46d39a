/**
 * Headings and tables of office documents printed by LibreOffice (issue 16, an outside check with
 * word-processor typography): the Word, OpenDocument and RTF documents of the shared corpus
 * converted to PDF by `soffice` (office-pdf-corpus.ts, cached in bench/.cache/office-pdf), each
 * PDF read by folio and by raw pdf.js text, scored against pandoc's reading of the same file
 * (office-pdf-truth.ts) as bench:printed scores its pages (printed-score.ts, outside-report.ts):
 * heading lines found / missed / extra, level agreement, and the pdf bench's NID, TEDS, MHS and
 * Overall per document, averaged over the documents where each is defined.
 *
 * The sample: every document with a heading or a table in its truth, no table inside a table and
 * at most 10 PDF pages; `--quick` a fixed seeded 30 of them.
 *
 *   npm run bench:office-pdf                    the sample, mode fast, both engines
 *   npm run bench:office-pdf -- --quick         30 documents
 *   npm run bench:office-pdf -- --list          then each document's missed (-) and extra (+) headings
 *   npm run bench:office-pdf -- --doc NAME      one document: its truth, folio's markdown, the scores
 *   npm run bench:office-pdf -- --json FILE     per-document figures
 *   npm run bench:office-pdf -- --mode auto|ocr folio in another mode
 *
 * Needs LibreOffice Writer (`soffice`) and pandoc the first time (it says what to install when
 * they are missing); the first run converts the corpus (a few minutes), later runs read the cache.
 */
import { failedConversions, officePdfs, type OfficePdf } from './office-pdf-corpus.ts';
import { out, parseOutsideArgs, pickSample, runAndReport, usage } from './outside-report.ts';

function fail(message: string): never {
  return usage('bench:office-pdf', 'bench/pdf/office-pdf.ts', message);
}

async function main(): Promise<void> {
  const args = parseOutsideArgs(process.argv.slice(2), fail);
  let printed: OfficePdf[];
  try {
    printed = await officePdfs((line) => out(line));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const sample = pickSample(printed, args, fail, 'converted document');
  const headings = sample.reduce((s, p) => s + p.truth.headings.length, 0);
  const tables = sample.reduce((s, p) => s + p.truth.tables.length, 0);
  const formats = ['docx', 'odt', 'doc', 'rtf'].map((f) => `${f} ${sample.filter((p) => p.format === f).length}`).join(', ');
  out(`bench:office-pdf: ${sample.length} of ${printed.length} converted office documents (${formats}; ${sample.reduce((s, p) => s + p.pages, 0)} PDF pages, ${headings} headings, ${tables} tables), folio mode ${args.mode}`);
  const failed = failedConversions();
  if (failed.length > 0 && !args.doc) out(`not converted: ${failed.map((f) => `${f.name} (${f.error})`).join('; ')}`);
  const leftOut = sample.filter((p) => p.truth.tablesLeftOut !== undefined);
  if (leftOut.length > 0) out(`tables not scored (pandoc's reading of them is wrong): ${leftOut.map((p) => `${p.name} (${p.truth.tablesLeftOut})`).join('; ')}`);
  await runAndReport(sample, args);
}

await main();
