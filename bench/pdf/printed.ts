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
 * The first run prints the corpus (about 3 minutes); later runs read the cache.
 */
import fs from 'node:fs';
import { pdfjsStreamText } from './baseline.ts';
import { meanScores, type DocumentScores } from './metrics.ts';
import { printedPages, type PrintedPage } from './printed-corpus.ts';
import { scorePrinted, type PrintedScore } from './printed-score.ts';
import { eligible, seededSample } from './printed-truth.ts';
import { folioMarkdown, type PdfMode } from './runner.ts';

const MAX_PAGES = 10;
const QUICK_SIZE = 30;
const SEED = 16;

interface Args {
  mode: PdfMode;
  quick: boolean;
  list: boolean;
  doc?: string;
  json?: string;
}

function usage(message: string): never {
  process.stderr.write(`bench:printed: ${message}\nusage: tsx bench/pdf/printed.ts [--mode fast|auto|ocr] [--quick] [--list] [--doc NAME] [--json FILE]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'fast', quick: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string => argv[++i] ?? usage(`${flag} needs a value`);
    if (flag === '--mode') {
      const m = value();
      if (m !== 'fast' && m !== 'auto' && m !== 'ocr') usage(`--mode must be fast, auto or ocr, not ${m}`);
      args.mode = m;
    } else if (flag === '--quick') args.quick = true;
    else if (flag === '--list') args.list = true;
    else if (flag === '--doc') args.doc = value();
    else if (flag === '--json') args.json = value();
    else usage(`unknown argument ${flag}`);
  }
  return args;
}

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const fmt = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(3));

interface PageRun {
  name: string;
  pages: number;
  seconds: number;
  markdown: string;
  score: PrintedScore;
  error?: string;
}

async function run(engine: 'folio' | 'pdfjs-text', sample: PrintedPage[], mode: PdfMode): Promise<PageRun[]> {
  const runs: PageRun[] = [];
  for (const page of sample) {
    const bytes = fs.readFileSync(page.pdf);
    const start = performance.now();
    let markdown: string;
    let pages = page.pages;
    let error: string | undefined;
    if (engine === 'folio') {
      const output = await folioMarkdown(bytes, `${page.name}.pdf`, mode);
      markdown = output.markdown;
      pages = output.pages;
      error = output.error;
    } else {
      const output = await pdfjsStreamText(bytes);
      markdown = output.markdown;
      pages = output.pages;
    }
    const seconds = (performance.now() - start) / 1000;
    runs.push({ name: page.name, pages, seconds, markdown, score: scorePrinted(page.truth, markdown), ...(error ? { error } : {}) });
  }
  return runs;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function summaryRow(engine: string, runs: PageRun[]): string {
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

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const printed = await printedPages((line) => out(line));
  const pool = printed.filter((p) => eligible(p.truth, p.pages, MAX_PAGES));
  let sample = args.quick ? seededSample(pool.map((p) => p.name), QUICK_SIZE, SEED).map((n) => pool.find((p) => p.name === n) as PrintedPage) : pool;
  if (args.doc) {
    const one = printed.find((p) => p.name === args.doc);
    if (!one) usage(`no printed page ${args.doc}`);
    sample = [one];
  }
  const headings = sample.reduce((s, p) => s + p.truth.headings.length, 0);
  const tables = sample.reduce((s, p) => s + p.truth.tables.length, 0);
  out(`bench:printed: ${sample.length} of ${printed.length} printed web pages (${sample.reduce((s, p) => s + p.pages, 0)} PDF pages, ${headings} headings, ${tables} tables), folio mode ${args.mode}`);
  // Warm-up: pdf.js and folio's modules load on the first document.
  if (sample[0]) {
    await folioMarkdown(fs.readFileSync(sample[0].pdf), 'warm.pdf', args.mode);
    await pdfjsStreamText(fs.readFileSync(sample[0].pdf));
  }
  const folio = await run('folio', sample, args.mode);
  const pdfjs = await run('pdfjs-text', sample, args.mode);
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
    const perPage = (runs: PageRun[]) =>
      runs.map((r) => ({ name: r.name, pages: r.pages, seconds: r.seconds, found: r.score.found, missed: r.score.missed, extra: r.score.extra, levels: r.score.levels, scores: r.score.scores as DocumentScores, ...(r.error ? { error: r.error } : {}) }));
    fs.writeFileSync(args.json, JSON.stringify({ mode: args.mode, folio: perPage(folio), pdfjs: perPage(pdfjs) }, null, 1));
  }
}

await main();
