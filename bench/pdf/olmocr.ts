/**
 * An outside check of folio's PDF reading (issue 16): the olmOCR-bench sample in
 * `../shared/corpus/pdf/olmocr/` (21 PDFs, 100 pass/fail checks; see its README.md), scored by
 * bench/pdf/olmocr-checks.ts (olmOCR's check semantics, folio's implementation). Nothing in it
 * was used to write or tune folio's rules before this bench existed.
 *
 *   npm run bench:olmocr                      folio mode fast and pdf.js raw text, side by side
 *   npm run bench:olmocr -- --mode auto|ocr   folio in another mode
 *   npm run bench:olmocr -- --failures        then folio's failing checks (id, type, text, why)
 *   npm run bench:olmocr -- --show PDF        folio's markdown of that PDF (path under pdfs/), per page
 *   npm run bench:olmocr -- --json FILE       every check's result for both engines, to compare runs
 *
 * Table: per check type, checks passed / checks, each engine; then the total and olmOCR's own
 * summary figure (mean over check types of the pass rate). Both engines run in this process one
 * after the other; s/page median is printed for folio. Exits 0 unless an engine throws something
 * other than a ServiceError.
 */
import fs from 'node:fs';
import { CHECK_TYPES, describeCheck, type CheckType } from './olmocr-checks.ts';
import { olmocrChecks, readPages, runOlmocr, type OlmocrRun } from './olmocr-run.ts';
import { quantile, type PdfMode } from './runner.ts';

interface Args {
  mode: PdfMode;
  failures: boolean;
  show?: string;
  json?: string;
}

function usage(message: string): never {
  process.stderr.write(`bench:olmocr: ${message}\nusage: tsx bench/pdf/olmocr.ts [--mode fast|auto|ocr] [--failures] [--show PDF] [--json FILE]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'fast', failures: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (flag === '--mode') {
      const m = argv[++i];
      if (m !== 'fast' && m !== 'auto' && m !== 'ocr') usage(`--mode must be fast, auto or ocr, not ${m ?? '(nothing)'}`);
      args.mode = m;
    } else if (flag === '--failures') args.failures = true;
    // `npm run bench -- --quick` passes it to every bench: the sample is small enough (about 5 s) to run whole.
    else if (flag === '--quick') continue;
    else if (flag === '--show') {
      const pdf = argv[++i];
      if (pdf === undefined) usage('--show needs a PDF path under pdfs/');
      args.show = pdf;
    } else if (flag === '--json') {
      const file = argv[++i];
      if (file === undefined) usage('--json needs a file name');
      args.json = file;
    } else usage(`unknown argument ${flag}`);
  }
  return args;
}

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

function tally(run: OlmocrRun, type: CheckType | 'all'): { passed: number; total: number } {
  const rows = run.scored.filter((s) => type === 'all' || s.check.type === type);
  return { passed: rows.filter((s) => s.result.passed).length, total: rows.length };
}

/** olmOCR's summary: the pass rate of each check type present, averaged over the types. */
function meanOfTypes(run: OlmocrRun, types: readonly CheckType[]): number {
  const rates = types.map((t) => tally(run, t)).filter((t) => t.total > 0).map((t) => t.passed / t.total);
  return rates.reduce((a, b) => a + b, 0) / Math.max(1, rates.length);
}

function printTable(runs: OlmocrRun[], mode: PdfMode): void {
  const widths = [28, 20, 20];
  const row = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const label = (r: OlmocrRun): string => (r.engine === 'folio' ? `folio (${mode})` : 'pdf.js raw text');
  const cell = (r: OlmocrRun, type: CheckType | 'all'): string => {
    const t = tally(r, type);
    return `${t.passed}/${t.total} (${((100 * t.passed) / Math.max(1, t.total)).toFixed(0)}%)`;
  };
  out(row(['check type', ...runs.map(label)]));
  for (const type of CHECK_TYPES) if (tally(runs[0] as OlmocrRun, type).total > 0) out(row([type, ...runs.map((r) => cell(r, type))]));
  out(row(['all checks', ...runs.map((r) => cell(r, 'all'))]));
  out(row(['mean of type pass rates', ...runs.map((r) => meanOfTypes(r, CHECK_TYPES).toFixed(3))]));
  out(row(['  the same without math', ...runs.map((r) => meanOfTypes(r, CHECK_TYPES.filter((t) => t !== 'math')).toFixed(3))]));
  const speeds = runs.map((r) => {
    const perPage = [...r.outputs.values()].map((o) => o.seconds / Math.max(1, o.pages.length));
    return quantile(perPage, 0.5).toFixed(4);
  });
  out(row(['s/page (median over PDFs)', ...speeds]));
  for (const r of runs) {
    const errors = [...r.outputs.entries()].filter(([, o]) => o.error);
    for (const [pdf, o] of errors) out(`${label(r)}: ${pdf} refused (${o.error}), its checks scored on empty output`);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.show) {
    const paged = await readPages('folio', args.mode, args.show);
    paged.pages.forEach((page, i) => {
      out(`===== ${args.show} page ${i + 1} (folio ${args.mode}) =====`);
      out(page);
    });
    return;
  }
  const checks = olmocrChecks();
  const folio = await runOlmocr('folio', args.mode, checks);
  const pdfjs = await runOlmocr('pdfjs-text', args.mode, checks);
  out(`olmOCR-bench sample: ${checks.length} checks on ${folio.outputs.size} PDFs (../shared/corpus/pdf/olmocr)`);
  out();
  printTable([folio, pdfjs], args.mode);
  if (args.json) {
    const rows = checks.map((check, i) => ({
      id: check.id,
      type: check.type,
      pdf: check.pdf,
      page: check.page,
      folio: folio.scored[i]?.result,
      'pdfjs-text': pdfjs.scored[i]?.result,
    }));
    fs.writeFileSync(args.json, `${JSON.stringify({ mode: args.mode, checks: rows }, null, 1)}\n`);
    out();
    out(`per-check results written to ${args.json}`);
  }
  if (args.failures) {
    out();
    out(`folio (${args.mode}) failing checks:`);
    for (const { check, result } of folio.scored) {
      if (!result.passed) out(`  ${check.id.padEnd(40)} ${check.type.padEnd(8)} ${describeCheck(check)}  [${result.reason}]`);
    }
  }
}

await main();
