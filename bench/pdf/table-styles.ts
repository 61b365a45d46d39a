/**
 * Tables in the styles typesetters use (issue 16, an outside check with exact truth): the real
 * data tables of the shared HTML corpus and of its Word/OpenDocument files
 * (table-styles-harvest.ts), each printed by Chromium between two paragraphs of prose from its
 * own page in five styles — full grid, booktabs, zebra, borderless with a bold head, a rule under
 * the head only — in serif or sans at 8–11 pt (table-styles-corpus.ts, cached in
 * bench/.cache/table-styles). Each PDF is read by folio and by raw pdf.js text and scored against
 * what was printed: tables found / missed / extra, TEDS and TEDS-S of the page's tables, NID of
 * the whole page (a false table in the prose, or the table read as prose, shows there), per style.
 *
 *   npm run bench:table-styles                    every table in every style, mode fast
 *   npm run bench:table-styles -- --style zebra   one style
 *   npm run bench:table-styles -- --list          then each print's figures, worst TEDS first
 *   npm run bench:table-styles -- --doc NAME      one print (`<table id>.<style>`): truth, folio, scores
 *   npm run bench:table-styles -- --json FILE     per-print figures
 *   npm run bench:table-styles -- --mode auto|ocr folio in another mode
 *
 * The first run harvests and prints (about 2 minutes); later runs read the cache.
 */
import fs from 'node:fs';
import { extractTables } from './html-table.ts';
import { markdownTablesToHtml } from './markdown-tables.ts';
import { meanScores } from './metrics.ts';
import { modeArg, out, runBoth, type DocumentRun } from './outside-report.ts';
import { unlinked } from './printed-score.ts';
import type { PdfMode } from './runner.ts';
import { STYLES, styledTables, type StyledTable, type TableStyle } from './table-styles-corpus.ts';

interface Args {
  mode: PdfMode;
  list: boolean;
  style?: TableStyle;
  doc?: string;
  json?: string;
}

function fail(message: string): never {
  process.stderr.write(`bench:table-styles: ${message}\nusage: tsx bench/pdf/table-styles.ts [--mode fast|auto|ocr] [--style ${STYLES.join('|')}] [--list] [--doc NAME] [--json FILE]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'fast', list: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string => argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--mode') args.mode = modeArg(value(), fail);
    else if (flag === '--style') {
      const s = value();
      if (!(STYLES as readonly string[]).includes(s)) fail(`--style must be one of ${STYLES.join(', ')}, not ${s}`);
      args.style = s as TableStyle;
    } else if (flag === '--list') args.list = true;
    else if (flag === '--doc') args.doc = value();
    else if (flag === '--json') args.json = value();
    else fail(`unknown argument ${flag}`);
  }
  return args;
}

interface TableCounts {
  truth: number;
  found: number;
  missed: number;
  extra: number;
}

/** Tables of the output against the truth's: found = matched in number, the rest missed or extra. */
function tableCounts(doc: StyledTable, run: DocumentRun): TableCounts {
  const predicted = extractTables(markdownTablesToHtml(unlinked(run.markdown))).length;
  const truth = doc.truth.tables.length;
  const found = Math.min(predicted, truth);
  return { truth, found, missed: truth - found, extra: Math.max(0, predicted - truth) };
}

const fmt = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(3));

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function row(label: string, docs: StyledTable[], runs: DocumentRun[]): string {
  const counts = docs.map((d, i) => tableCounts(d, runs[i] as DocumentRun));
  const sum = (k: keyof TableCounts) => counts.reduce((s, c) => s + c[k], 0);
  const { mean } = meanScores(runs.map((r) => r.score.scores));
  const spp = median(runs.map((r) => r.seconds / Math.max(1, r.pages)));
  return [
    label.padEnd(22),
    String(docs.length).padStart(6),
    String(sum('found')).padStart(6),
    String(sum('missed')).padStart(7),
    String(sum('extra')).padStart(6),
    fmt(mean.teds).padStart(7),
    fmt(mean.tedsS).padStart(7),
    fmt(mean.nid).padStart(7),
    fmt(mean.overall).padStart(8),
    spp.toFixed(4).padStart(8),
  ].join(' ');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { candidates, tables } = await styledTables((line) => out(line));
  let sample = tables;
  if (args.doc) {
    sample = tables.filter((t) => t.name === args.doc);
    if (sample.length === 0) fail(`no print ${args.doc} (names are <table id>.<style>; --list shows them)`);
  } else if (args.style) sample = tables.filter((t) => t.style === args.style);
  const ids = new Set(sample.map((t) => t.table.id));
  const spanned = new Set(sample.filter((t) => t.table.spans).map((t) => t.table.id));
  out(`bench:table-styles: ${ids.size} tables (${spanned.size} with spanning cells; ${candidates} data tables in the corpus) × ${new Set(sample.map((t) => t.style)).size} styles = ${sample.length} prints (${sample.reduce((s, t) => s + t.pages, 0)} PDF pages), folio mode ${args.mode}`);
  const { folio, pdfjs } = await runBoth(sample, args.mode);
  out();
  out(`${'style / engine'.padEnd(22)} prints  found missed  extra    TEDS  TEDS-S     NID  Overall  s/page`);
  const styles = STYLES.filter((s) => sample.some((t) => t.style === s));
  const pick = (style: TableStyle | undefined, runs: DocumentRun[]) => {
    const idx = sample.flatMap((t, i) => (style === undefined || t.style === style ? [i] : []));
    return { docs: idx.map((i) => sample[i] as StyledTable), runs: idx.map((i) => runs[i] as DocumentRun) };
  };
  for (const style of styles) {
    const f = pick(style, folio);
    const p = pick(style, pdfjs);
    out(row(`${style} folio ${args.mode}`, f.docs, f.runs));
    out(row(`${style} pdfjs-text`, p.docs, p.runs));
  }
  if (styles.length > 1) {
    out(row(`all folio ${args.mode}`, sample, folio));
    out(row('all pdfjs-text', sample, pdfjs));
  }
  const errors = folio.filter((r) => r.error);
  if (errors.length > 0) out(`folio errors: ${errors.map((r) => `${r.name} (${r.error})`).join('; ')}`);
  const perPrint = sample.map((doc, i) => {
    const run = folio[i] as DocumentRun;
    return { name: doc.name, style: doc.style, face: doc.face, size: doc.size, spans: doc.table.spans, rows: doc.table.rows, columns: doc.table.columns, pages: run.pages, seconds: run.seconds, ...tableCounts(doc, run), scores: run.score.scores, ...(run.error ? { error: run.error } : {}) };
  });
  if (args.list || args.doc) {
    out();
    for (const p of [...perPrint].sort((a, b) => (a.scores.teds ?? 0) - (b.scores.teds ?? 0) || a.name.localeCompare(b.name))) {
      out(`  ${p.name.padEnd(70)} ${`${p.rows}×${p.columns}${p.spans ? ' span' : ''}`.padEnd(10)} ${p.face.padEnd(5)} ${String(p.size).padStart(2)}pt  found ${p.found} extra ${p.extra}  TEDS ${fmt(p.scores.teds)}  TEDS-S ${fmt(p.scores.tedsS)}  NID ${fmt(p.scores.nid)}`);
    }
  }
  if (args.doc && sample[0] && folio[0]) {
    out('\n--- truth ---');
    out(sample[0].truth.markdown.slice(0, 6000));
    out('\n--- folio ---');
    out(folio[0].markdown.slice(0, 6000));
  }
  if (args.json) fs.writeFileSync(args.json, JSON.stringify({ mode: args.mode, folio: perPrint }, null, 1));
}

await main();
