/**
 * Tables outside the bench's split (issue 16): folio's tables (mode fast) on corpus PDFs that
 * carry a reference table of their own, scored with the bench's scorer (metrics.ts
 * `tableSimilarity`, html-table.ts), and olmOCR-bench's table checks one per line.
 *
 * References (table-references.ts): a tagged PDF's `Table` structure elements (PDF/UA and other
 * tagged files anywhere under `../shared/corpus/pdf`), else docling's pipe tables beside its test
 * PDFs (`../shared/corpus/pdf/docling/*.md`: another tool's output, good on tables but not the
 * truth — judge a difference on the page). A tagged PDF's tree is complete, so a folio table on
 * any of its pages that matches no reference table is extra (a PDF/UA file counts even when it
 * tags no table); likewise over a docling PDF.
 *
 *   npm run bench:tables                  per PDF and page: tables found / missed / extra, TEDS, TEDS-S
 *   npm run bench:tables -- --quick       the PDFs known to hold reference tables only (no scan)
 *   npm run bench:tables -- --list        then each page's reference and folio tables, a row a line
 *   npm run bench:tables -- --pdf NAME    only PDFs whose file name contains NAME
 *
 * TEDS and TEDS-S are per page (the page's reference tables against folio's tables of that page,
 * one forest each, as the bench scores a document), averaged over the pages with a reference table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isServiceError } from '../../src/errors.ts';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';
import { pdfjsStreamText } from './baseline.ts';
import { extractTables, unescapeHtml } from './html-table.ts';
import { markdownTablesToHtml } from './markdown-tables.ts';
import { tableSimilarity } from './metrics.ts';
import { describeCheck } from './olmocr-checks.ts';
import { folioPages, olmocrChecks, runOlmocr } from './olmocr-run.ts';
import { doclingTables, matchTables, pageOfTable, taggedTables } from './table-references.ts';

const PDF_DIR = path.join(CORPUS_DIR, 'pdf');
const FOLDERS = ['opendataloader-pdf', 'pdfjs', 'docling', path.join('olmocr', 'pdfs')];
/** `--quick`: the corpus PDFs with a reference (found by the full scan). */
const QUICK = ['opendataloader-pdf/PDFUA-Ref-2-02_Invoice.pdf', 'opendataloader-pdf/PDFUA-Ref-2-03_AcademicAbstract.pdf', 'opendataloader-pdf/PDFUA-Ref-2-10_Form.pdf', 'pdfjs/160F-2019.pdf', 'pdfjs/pdfjs_wikipedia.pdf', 'pdfjs/prefilled_f1040.pdf', 'docling/right_to_left_03.pdf', 'docling/2305.03393v1-pg9.pdf', 'docling/normal_4pages.pdf', 'docling/redp5110_sampled.pdf', 'docling/table_mislabeled_as_picture.pdf'];

interface Args {
  quick: boolean;
  list: boolean;
  pdf?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick') args.quick = true;
    else if (flag === '--list') args.list = true;
    else if (flag === '--pdf' && argv[i + 1] !== undefined) args.pdf = argv[++i];
    else {
      process.stderr.write(`bench:tables: unknown argument ${String(flag)}\nusage: tsx bench/pdf/tables-outside.ts [--quick] [--list] [--pdf NAME]\n`);
      process.exit(2);
    }
  }
  return args;
}

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

interface Reference {
  source: 'tags' | 'docling';
  /** Reference tables per page (0-based), as HTML. */
  pages: string[][];
}

async function referenceOf(file: string, bytes: Buffer): Promise<Reference | null> {
  const tagged = await taggedTables(bytes);
  if (tagged) return { source: 'tags', pages: tagged };
  const md = file.replace(/\.pdf$/u, '.md');
  if (!file.startsWith('docling') || !fs.existsSync(path.join(PDF_DIR, md))) return null;
  const tables = doclingTables(fs.readFileSync(path.join(PDF_DIR, md), 'utf8'));
  if (tables.length === 0) return null;
  const { pageTexts } = await pdfjsStreamText(bytes);
  const pages: string[][] = pageTexts.map(() => []);
  for (const table of tables) pages[Math.max(0, pageOfTable(table, pageTexts))]?.push(table);
  return { source: 'docling', pages };
}

/** A table as rows of ` | `-joined cells, for `--list`. */
function tableRows(html: string): string[] {
  return html
    .split(/<tr\b[^>]*>/iu)
    .slice(1)
    .map((row) =>
      row
        .split(/<t[dh]\b[^>]*>/iu)
        .slice(1)
        .map((cell) => unescapeHtml(cell.replace(/<[^>]*>/gu, ' ')).replace(/\s+/gu, ' ').trim())
        .join(' | '),
    );
}

interface Totals {
  refTables: number;
  found: number;
  missed: number;
  extra: number;
  teds: number[];
  tedsS: number[];
}

async function scorePdf(file: string, args: Args, totals: Totals): Promise<void> {
  const bytes = fs.readFileSync(path.join(PDF_DIR, file));
  const reference = await referenceOf(file, bytes);
  if (!reference) return;
  let pages: string[];
  try {
    pages = await folioPages(bytes, path.basename(file), 'fast');
  } catch (err) {
    if (!isServiceError(err)) throw err;
    out(`  ${file}: ${err.code}`);
    return;
  }
  // A table with no row is no table (an escaped `\<table name>` in the text, which the scorer's
  // tag search still sees): not counted as extra.
  const predicted = pages.map((md) => extractTables(markdownTablesToHtml(md)).filter((t) => /<tr\b/iu.test(t)));
  let extraElsewhere = 0;
  const lines: string[] = [];
  for (let p = 0; p < Math.max(reference.pages.length, predicted.length); p++) {
    const ref = reference.pages[p] ?? [];
    const pred = predicted[p] ?? [];
    if (p >= reference.pages.length && reference.source === 'tags') continue;
    const match = matchTables(ref, pred);
    if (ref.length === 0) {
      extraElsewhere += match.extra;
      totals.extra += match.extra;
      if (match.extra > 0 && args.list) for (const t of pred) lines.push(`    p${p + 1} extra: ${tableRows(t).join(' // ').slice(0, 300)}`);
      continue;
    }
    const found = match.pairs.filter((x) => x >= 0).length;
    const { teds, tedsS } = tableSimilarity(ref.join('\n'), pages[p] ?? '');
    totals.refTables += ref.length;
    totals.found += found;
    totals.missed += ref.length - found;
    totals.extra += match.extra;
    totals.teds.push(teds ?? 0);
    totals.tedsS.push(tedsS ?? 0);
    out(`  ${`${file} p${p + 1}`.padEnd(48)} ${reference.source.padEnd(7)} ref ${String(ref.length).padStart(2)}  found ${String(found).padStart(2)}  missed ${String(ref.length - found).padStart(2)}  extra ${String(match.extra).padStart(2)}  TEDS ${(teds ?? 0).toFixed(3)}  TEDS-S ${(tedsS ?? 0).toFixed(3)}`);
    if (args.list) {
      ref.forEach((t, i) => {
        out(`    reference table ${i + 1} (${tableRows(t).length} rows):`);
        for (const row of tableRows(t)) out(`      ${row.slice(0, 200)}`);
        const j = match.pairs[i] ?? -1;
        if (j < 0) out('    folio: missed');
        else {
          out(`    folio table ${j + 1} (${tableRows(pred[j] as string).length} rows):`);
          for (const row of tableRows(pred[j] as string)) out(`      ${row.slice(0, 200)}`);
        }
      });
      pred.forEach((t, j) => {
        if (!match.pairs.includes(j)) out(`    folio extra table ${j + 1}: ${tableRows(t).join(' // ').slice(0, 300)}`);
      });
    }
  }
  if (extraElsewhere > 0) out(`  ${`${file} other pages`.padEnd(48)} ${reference.source.padEnd(7)} extra ${extraElsewhere}`);
  for (const line of lines) out(line);
}

function pdfFiles(args: Args): string[] {
  const files = args.quick ? QUICK : FOLDERS.flatMap((folder) => fs.readdirSync(path.join(PDF_DIR, folder)).filter((f) => f.endsWith('.pdf')).sort().map((f) => path.join(folder, f)));
  return files.filter((f) => args.pdf === undefined || path.basename(f).includes(args.pdf));
}

const mean = (values: number[]): number => (values.length === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / values.length);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  out(`bench:tables: folio (mode fast) against reference tables outside the bench's split (../shared/corpus/pdf${args.quick ? ', --quick' : ''})`);
  const totals: Totals = { refTables: 0, found: 0, missed: 0, extra: 0, teds: [], tedsS: [] };
  for (const file of pdfFiles(args)) await scorePdf(file, args, totals);
  out(`  ${'all'.padEnd(48)} ${''.padEnd(7)} ref ${String(totals.refTables).padStart(2)}  found ${String(totals.found).padStart(2)}  missed ${String(totals.missed).padStart(2)}  extra ${String(totals.extra).padStart(2)}  TEDS ${mean(totals.teds).toFixed(3)}  TEDS-S ${mean(totals.tedsS).toFixed(3)}  (mean over ${totals.teds.length} pages)`);
  if (args.pdf === undefined) {
    const checks = olmocrChecks().filter((c) => c.type === 'table');
    const run = await runOlmocr('folio', 'fast', checks);
    out();
    out(`olmOCR-bench table checks: ${run.scored.filter((s) => s.result.passed).length}/${run.scored.length}`);
    for (const { check, result } of run.scored) out(`  ${result.passed ? 'pass' : 'FAIL'}  ${check.id.padEnd(40)} ${describeCheck(check)}${result.passed ? '' : `  [${result.reason}]`}`);
  }
  out();
  out(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

await main();
