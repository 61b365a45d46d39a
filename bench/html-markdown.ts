/**
 * HTML → markdown benchmark: folio's full pipeline against bare turndown, on every HTML page of
 * the shared corpus (defuddle fixtures, readability `*\/source.html`, markitdown `*.html`).
 *
 *   npx tsx bench/html-markdown.ts            all pages
 *   npx tsx bench/html-markdown.ts --quick    a fixed subset of 40 pages
 *
 * (a) turndown: `new TurndownService().turndown(html)` with its defaults (it parses the string
 *     itself, with domino).
 * (b) folio: `parse({bytes, filename: 'page.html'}, {formats: ['markdown']})` — detect, read
 *     (decode + linkedom), clean (main content by default), write markdown (tables included).
 * (c) writer: folio's markdown writer alone, on a page already parsed by linkedom (no cleaning),
 *     to show where (b)'s time goes.
 *
 * Each page is timed RUNS times per converter, the converters alternating and their order swapped
 * from page to page, after a warm-up; a page's time is the median of its runs. Reported: median,
 * p90 and total of the per-page times, the folio/turndown ratio (target: median ≤ 2×), and both
 * times on the largest page. Exits non-zero only when a converter fails on a page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { parse } from '../src/parse/index.ts';
import { parseOptions } from '../src/parse/options.ts';
import { contentBody } from '../src/parse/writers/html.ts';
import { toMarkdown } from '../src/parse/writers/markdown.ts';
import { CORPUS_DIR } from '../test/helpers/corpus.ts';

const QUICK = process.argv.includes('--quick');
const QUICK_PAGES = 40;
const RUNS = QUICK ? 5 : 3;
const WARMUP_PAGES = 20;

interface Page {
  name: string;
  bytes: Buffer;
  html: string;
}

function listPages(): string[] {
  const html = path.join(CORPUS_DIR, 'html');
  const files: string[] = [];
  const defuddle = path.join(html, 'defuddle', 'fixtures');
  for (const f of fs.readdirSync(defuddle)) if (f.endsWith('.html')) files.push(path.join(defuddle, f));
  const readability = path.join(html, 'readability');
  for (const d of fs.readdirSync(readability)) {
    const source = path.join(readability, d, 'source.html');
    if (fs.existsSync(source)) files.push(source);
  }
  const markitdown = path.join(html, 'markitdown');
  for (const f of fs.readdirSync(markitdown)) if (f.endsWith('.html')) files.push(path.join(markitdown, f));
  return files.sort();
}

/** The quick subset: QUICK_PAGES pages evenly spaced through the sorted list (always the same). */
function quickSubset(files: string[]): string[] {
  if (files.length <= QUICK_PAGES) return files;
  const step = files.length / QUICK_PAGES;
  return Array.from({ length: QUICK_PAGES }, (_, i) => files[Math.floor(i * step)] as string);
}

function loadPages(): Page[] {
  const all = listPages();
  const chosen = QUICK ? quickSubset(all) : all;
  return chosen.map((file) => {
    const bytes = fs.readFileSync(file);
    return { name: path.relative(path.join(CORPUS_DIR, 'html'), file), bytes, html: bytes.toString('utf8') };
  });
}

const options = parseOptions({ formats: ['markdown'] });

type Converter = (page: Page) => Promise<number>;

const converters: Record<'turndown' | 'folio' | 'writer', Converter> = {
  async turndown(page) {
    const started = performance.now();
    new TurndownService().turndown(page.html);
    return performance.now() - started;
  },
  async folio(page) {
    const started = performance.now();
    await parse({ bytes: page.bytes, filename: 'page.html' }, options);
    return performance.now() - started;
  },
  async writer(page) {
    const { document } = parseHTML(page.html);
    const body = contentBody(document);
    const started = performance.now();
    toMarkdown(body);
    return performance.now() - started;
  },
};
const NAMES = Object.keys(converters) as (keyof typeof converters)[];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

async function timePage(page: Page, order: (keyof typeof converters)[], runs: number, failures: Map<string, string>): Promise<Record<string, number> | undefined> {
  const samples: Record<string, number[]> = Object.fromEntries(NAMES.map((n) => [n, []]));
  for (let run = 0; run < runs; run++) {
    for (const name of order) {
      try {
        (samples[name] as number[]).push(await converters[name](page));
      } catch (err) {
        failures.set(`${name} ${page.name}`, err instanceof Error ? err.message : String(err));
        return undefined;
      }
    }
  }
  return Object.fromEntries(NAMES.map((n) => [n, median(samples[n] as number[])]));
}

async function main(): Promise<void> {
  const pages = loadPages();
  const totalBytes = pages.reduce((n, p) => n + p.bytes.length, 0);
  const failures = new Map<string, string>();

  // Warm-up: JIT both code paths on a spread of pages before measuring.
  for (const page of pages.slice(0, WARMUP_PAGES)) await timePage(page, NAMES, 2, failures);
  failures.clear();

  const times: Record<string, number[]> = Object.fromEntries(NAMES.map((n) => [n, []]));
  const perPage: { page: Page; t: Record<string, number> }[] = [];
  for (const [i, page] of pages.entries()) {
    const order = i % 2 === 0 ? NAMES : [...NAMES].reverse();
    const t = await timePage(page, order, RUNS, failures);
    if (!t) continue;
    perPage.push({ page, t });
    for (const n of NAMES) (times[n] as number[]).push(t[n] as number);
  }

  const largest = pages.reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a));
  const largestTimes = await timePage(largest, NAMES, Math.max(RUNS, 5), failures);

  const label: Record<string, string> = {
    turndown: '(a) turndown, defaults',
    folio: '(b) folio parse() → markdown',
    writer: '(c) folio writer only',
  };
  console.log(`HTML → markdown: ${perPage.length} pages${QUICK ? ' (--quick subset)' : ''}, ${(totalBytes / 1e6).toFixed(1)} MB, ${RUNS} runs per page (median), ms per page`);
  console.log('');
  console.log(`| converter | median | p90 | total | largest page (${(largest.bytes.length / 1024).toFixed(0)} KB) |`);
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const n of NAMES) {
    const v = times[n] as number[];
    console.log(`| ${label[n]} | ${fmt(median(v))} | ${fmt(percentile(v, 90))} | ${fmt(v.reduce((a, b) => a + b, 0))} | ${largestTimes ? fmt(largestTimes[n] as number) : 'failed'} |`);
  }
  const ratio = (f: (v: number[]) => number): string => (f(times.folio as number[]) / f(times.turndown as number[])).toFixed(2);
  console.log('');
  console.log(`folio / turndown: median ${ratio(median)}×, p90 ${ratio((v) => percentile(v, 90))}×, total ${ratio((v) => v.reduce((a, b) => a + b, 0))}× (target: median ≤ 2×)`);
  console.log(`largest page: ${largest.name}`);

  const slowest = [...perPage].sort((a, b) => (b.t.folio as number) / (b.t.turndown as number) - (a.t.folio as number) / (a.t.turndown as number)).slice(0, 3);
  console.log(`highest folio/turndown ratios: ${slowest.map((s) => `${s.page.name} ${((s.t.folio as number) / (s.t.turndown as number)).toFixed(1)}×`).join(', ')}`);

  if (failures.size > 0) {
    console.log('');
    console.log(`${failures.size} failure(s):`);
    for (const [where, message] of failures) console.log(`  ${where}: ${message}`);
    process.exitCode = 1;
  }
}

await main();
