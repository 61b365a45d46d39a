/**
 * The run and the report the outside checks with a PageTruth share (bench:printed on printed web
 * pages, bench:office-pdf on office documents printed by LibreOffice): their arguments, each
 * document read by folio and by raw pdf.js text and scored (printed-score.ts), and the summary
 * table — found / missed / extra headings, levels, NID, TEDS, MHS, Overall, s/page — with
 * `--list`, `--doc` and `--json`.
 */
import fs from 'node:fs';
import { pdfjsStreamText } from './baseline.ts';
import { meanScores, type DocumentScores } from './metrics.ts';
import { scorePrinted, type PrintedScore } from './printed-score.ts';
import { eligible, seededSample, type PageTruth } from './printed-truth.ts';
import { folioMarkdown, type PdfMode } from './runner.ts';

/** A PDF to read and its truth. */
export interface OutsideDocument {
  name: string;
  pdf: string;
  pages: number;
  truth: PageTruth;
}

export interface OutsideArgs {
  mode: PdfMode;
  quick: boolean;
  list: boolean;
  doc?: string;
  json?: string;
}

/** A document of at most this many PDF pages is in the sample. */
const MAX_PAGES = 10;
/** `--quick`: a fixed seeded sample of this many. */
const QUICK_SIZE = 30;
const SEED = 16;

/**
 * The documents scored: those with a heading or a table in their truth and at most MAX_PAGES
 * pages (`maxPages`; printed-truth.ts `eligible`), a seeded QUICK_SIZE of them with `--quick`, or the one
 * `--doc` names (`noun` says what a document is in the message when there is none by that name).
 */
export function pickSample<D extends OutsideDocument>(all: readonly D[], args: OutsideArgs, fail: (message: string) => never, noun: string, maxPages = MAX_PAGES): D[] {
  if (args.doc) {
    const one = all.find((d) => d.name === args.doc);
    if (!one) fail(`no ${noun} ${args.doc}`);
    return [one];
  }
  const pool = all.filter((d) => eligible(d.truth, d.pages, maxPages));
  if (!args.quick) return pool;
  const picked = new Set(seededSample(pool.map((d) => d.name), QUICK_SIZE, SEED));
  return pool.filter((d) => picked.has(d.name));
}

/** Exits with the bench's usage. */
export function usage(bench: string, script: string, message: string): never {
  process.stderr.write(`${bench}: ${message}\nusage: tsx ${script} [--mode fast|auto|ocr] [--quick] [--list] [--doc NAME] [--json FILE]\n`);
  process.exit(2);
}

/** `--mode`'s value, or `fail` naming the three. */
export function modeArg(m: string, fail: (message: string) => never): PdfMode {
  if (m !== 'fast' && m !== 'auto' && m !== 'ocr') return fail(`--mode must be fast, auto or ocr, not ${m}`);
  return m;
}

export function parseOutsideArgs(argv: string[], fail: (message: string) => never): OutsideArgs {
  const args: OutsideArgs = { mode: 'fast', quick: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string => argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--mode') args.mode = modeArg(value(), fail);
    else if (flag === '--quick') args.quick = true;
    else if (flag === '--list') args.list = true;
    else if (flag === '--doc') args.doc = value();
    else if (flag === '--json') args.json = value();
    else fail(`unknown argument ${flag}`);
  }
  return args;
}

export const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const fmt = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(3));

export interface DocumentRun {
  name: string;
  pages: number;
  seconds: number;
  markdown: string;
  score: PrintedScore;
  error?: string;
}

/** Each document read by one engine and scored against its truth. */
export async function runOutside(engine: 'folio' | 'pdfjs-text', sample: readonly OutsideDocument[], mode: PdfMode): Promise<DocumentRun[]> {
  const runs: DocumentRun[] = [];
  for (const doc of sample) {
    const bytes = fs.readFileSync(doc.pdf);
    const start = performance.now();
    let markdown: string;
    let pages = doc.pages;
    let error: string | undefined;
    if (engine === 'folio') {
      const output = await folioMarkdown(bytes, `${doc.name}.pdf`, mode);
      markdown = output.markdown;
      pages = output.pages;
      error = output.error;
    } else {
      const output = await pdfjsStreamText(bytes);
      markdown = output.markdown;
      pages = output.pages;
    }
    const seconds = (performance.now() - start) / 1000;
    runs.push({ name: doc.name, pages, seconds, markdown, score: scorePrinted(doc.truth, markdown), ...(error ? { error } : {}) });
  }
  return runs;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function summaryRow(engine: string, runs: DocumentRun[]): string {
  const found = runs.reduce((s, r) => s + r.score.found, 0);
  const missed = runs.reduce((s, r) => s + r.score.missed.length, 0);
  const extra = runs.reduce((s, r) => s + r.score.extra.length, 0);
  const same = runs.reduce((s, r) => s + r.score.sameLevel, 0);
  const { mean, count } = meanScores(runs.map((r) => r.score.scores));
  const spp = median(runs.map((r) => r.seconds / Math.max(1, r.pages)));
  return [
    engine.padEnd(12),
    String(found).padStart(5),
    String(missed).padStart(6),
    String(extra).padStart(5),
    (found > 0 ? `${((100 * same) / found).toFixed(0)} %` : '–').padStart(6),
    fmt(mean.nid).padStart(6),
    `${fmt(mean.teds)} (${count.teds})`.padStart(11),
    `${fmt(mean.mhs)} (${count.mhs})`.padStart(12),
    fmt(mean.overall).padStart(8),
    spp.toFixed(4).padStart(8),
  ].join(' ');
}

/**
 * Reads the sample with folio and with pdf.js text, after a warm-up (pdf.js and folio's modules
 * load on the first document, which would count against it).
 */
export async function runBoth(sample: readonly OutsideDocument[], mode: PdfMode): Promise<{ folio: DocumentRun[]; pdfjs: DocumentRun[] }> {
  if (sample[0]) {
    await folioMarkdown(fs.readFileSync(sample[0].pdf), 'warm.pdf', mode);
    await pdfjsStreamText(fs.readFileSync(sample[0].pdf));
  }
  return { folio: await runOutside('folio', sample, mode), pdfjs: await runOutside('pdfjs-text', sample, mode) };
}

/** Reads the sample with both engines (runBoth) and prints the report. */
export async function runAndReport(sample: readonly OutsideDocument[], args: OutsideArgs): Promise<void> {
  const { folio, pdfjs } = await runBoth(sample, args.mode);
  out();
  out(`${'engine'.padEnd(12)} found missed extra levels    NID  TEDS (pages)  MHS (pages)  Overall  s/page`);
  out(summaryRow(`folio ${args.mode}`, folio));
  out(summaryRow('pdfjs-text', pdfjs));
  const pairs = new Map<string, number>();
  for (const r of folio) for (const [t, f] of r.score.levels) pairs.set(`h${t}→h${f}`, (pairs.get(`h${t}→h${f}`) ?? 0) + 1);
  out(`levels (truth→folio): ${[...pairs].sort((a, b) => a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const errors = folio.filter((r) => r.error);
  if (errors.length > 0) out(`folio errors: ${errors.map((r) => `${r.name} (${r.error})`).join('; ')}`);
  if (args.list || args.doc) {
    for (const r of folio) {
      const s = r.score;
      out(`  ${r.name.padEnd(56)} found ${String(s.found).padStart(3)}  missed ${String(s.missed.length).padStart(3)}  extra ${String(s.extra.length).padStart(3)}  TEDS ${fmt(s.scores.teds)}  MHS ${fmt(s.scores.mhs)}`);
      for (const h of s.missed) out(`    - h${h.level}     ${h.text.slice(0, 90)}`);
      for (const h of s.extra) out(`    +    h${h.level}  ${h.text.slice(0, 90)}`);
    }
  }
  if (args.doc && sample[0] && folio[0]) {
    out('\n--- truth ---');
    out(sample[0].truth.markdown.slice(0, 4000));
    out('\n--- folio ---');
    out(folio[0].markdown.slice(0, 4000));
  }
  if (args.json) {
    const perDocument = (runs: DocumentRun[]) =>
      runs.map((r) => ({ name: r.name, pages: r.pages, seconds: r.seconds, found: r.score.found, missed: r.score.missed, extra: r.score.extra, levels: r.score.levels, scores: r.score.scores as DocumentScores, ...(r.error ? { error: r.error } : {}) }));
    fs.writeFileSync(args.json, JSON.stringify({ mode: args.mode, folio: perDocument(folio), pdfjs: perDocument(pdfjs) }, null, 1));
  }
}
