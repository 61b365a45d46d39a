/**
 * The printed tables of bench:table-styles (table-styles.ts): each harvested table
 * (table-styles-harvest.ts) between its two paragraphs of prose, printed by the system Chromium
 * (printed-corpus.ts `printHtml`: A4, default margins, offline, scripts off) in each of the
 * STYLES a typesetter uses, into `bench/.cache/table-styles/` (gitignored) beside its truth
 * (printed-truth.ts, read from the DOM printed: the table's cells as the evaluator sees them and
 * the prose around it).
 *
 * Each print's face (serif or sans) and size (8–11 pt) is drawn from the table's id and the
 * style, so a table meets several faces across the styles and every run prints the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { mulberry32 } from '../../test/helpers/prng.ts';
import { entryCache, type CachedDocument } from './entry-cache.ts';
import { pdfPages, printHtml, withTimeout } from './printed-corpus.ts';
import type { PageTruth } from './printed-truth.ts';
import { harvestTables, type HarvestedTable } from './table-styles-harvest.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const TABLE_STYLES_DIR = path.join(here, '..', '.cache', 'table-styles');
/** Bumped when the harvest, the styles or the truth change: the tables are printed again. */
const CACHE_VERSION = 1;
const PAGE_SECONDS = 30;

export const STYLES = ['grid', 'booktabs', 'zebra', 'borderless', 'headrule'] as const;
export type TableStyle = (typeof STYLES)[number];

/**
 * The styles' rules. A table without a head section (no `thead`) takes its first row as the
 * head where a style rules or sets the head apart, as a typesetter would.
 *   grid        every cell ruled (0.75 pt);
 *   booktabs    a heavy top and bottom rule (1.5 pt), a light rule under the head, nothing else;
 *   zebra       every other body row shaded, no rule (backgrounds printed);
 *   borderless  bold head, no rule, no shading, gutters of 1.5 em between columns;
 *   headrule    one rule under the head, nothing else.
 */
const STYLE_CSS: Record<TableStyle, string> = {
  grid: 'th, td { border: 0.75pt solid #000; }',
  booktabs:
    'table { border-top: 1.5pt solid #000; border-bottom: 1.5pt solid #000; } thead tr:last-child > * { border-bottom: 0.75pt solid #000; } table.headless tbody tr:first-child > * { border-bottom: 0.75pt solid #000; }',
  zebra: 'tbody tr:nth-child(odd) > * { background: #e4e4e4; } thead > tr > * { background: #c8c8c8; }',
  borderless: 'th, td { padding: 0.1em 0.75em; } th:first-child, td:first-child { padding-left: 0; } table.headless tbody tr:first-child > * { font-weight: bold; }',
  headrule: 'thead tr:last-child > * { border-bottom: 1pt solid #000; } table.headless tbody tr:first-child > * { border-bottom: 1pt solid #000; }',
};

const FACES = [
  { name: 'serif', css: "'DejaVu Serif', serif" },
  { name: 'sans', css: "'DejaVu Sans', sans-serif" },
];
const SIZES = [8, 9, 10, 11];

export interface StyledTable {
  /** `<table id>.<style>`. */
  name: string;
  table: HarvestedTable;
  style: TableStyle;
  face: string;
  size: number;
  pdf: string;
  pages: number;
  truth: PageTruth;
}

interface CacheEntry extends CachedDocument {
  truth?: PageTruth;
  face?: string;
  size?: number;
}

function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const esc = (s: string): string => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

/** The page printed: the prose before, the table in the style, the prose after. */
export function styledHtml(table: HarvestedTable, style: TableStyle): { html: string; face: string; size: number } {
  const next = mulberry32(seedOf(`${table.id}.${style}`));
  const face = FACES[Math.floor(next() * FACES.length)] as (typeof FACES)[number];
  const size = SIZES[Math.floor(next() * SIZES.length)] as number;
  const headless = table.html.includes('<thead>') ? '' : ' class="headless"';
  const css = [
    `body { font-family: ${face.css}; font-size: ${size}pt; line-height: 1.3; }`,
    'table { border-collapse: collapse; margin: 1em 0; }',
    'th, td { padding: 0.2em 0.5em; text-align: left; vertical-align: top; font-weight: normal; }',
    'thead th { font-weight: bold; }',
    STYLE_CSS[style],
  ].join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><p>${esc(table.before)}</p>${table.html.replace('<table>', `<table${headless}>`)}<p>${esc(table.after)}</p></body></html>`;
  return { html, face: face.name, size };
}

interface Harvest {
  version: number;
  candidates: number;
  sample: HarvestedTable[];
}

/** The harvest, from its cache when it is the current version's. */
function harvest(log: (line: string) => void): Harvest {
  const file = path.join(TABLE_STYLES_DIR, 'harvest.json');
  try {
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as Harvest;
    if (cached.version === CACHE_VERSION) return cached;
  } catch {
    // not harvested yet
  }
  log('harvesting the data tables of the HTML and office corpus …');
  const fresh = { version: CACHE_VERSION, ...harvestTables() };
  fs.writeFileSync(file, JSON.stringify(fresh));
  return fresh;
}

async function launchChromium(): Promise<Browser> {
  const config = loadConfig();
  const { chromium } = await import('playwright-core');
  const sandbox = config.browser.sandbox === 'auto' ? process.getuid?.() !== 0 : config.browser.sandbox === 'on';
  try {
    return await chromium.launch({ executablePath: config.browser.executablePath, headless: true, chromiumSandbox: sandbox, timeout: 60_000 });
  } catch (err) {
    throw new Error(`bench:table-styles prints its tables with Chromium (${config.browser.executablePath}, FOLIO_BROWSER_EXECUTABLE) the first time, and it did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

/** Every table in every style, printing those missing from the cache. */
export async function styledTables(log: (line: string) => void): Promise<{ candidates: number; tables: StyledTable[] }> {
  fs.mkdirSync(TABLE_STYLES_DIR, { recursive: true });
  const { candidates, sample } = harvest(log);
  const cache = entryCache<CacheEntry>(TABLE_STYLES_DIR, CACHE_VERSION);
  const all = sample.flatMap((table) => STYLES.map((style) => ({ table, style, name: `${table.id}.${style}` })));
  const missing = all.filter(({ name }) => cache.read(name) === undefined);
  if (missing.length > 0) {
    log(`printing ${missing.length} of ${all.length} tables with Chromium into ${path.relative(process.cwd(), TABLE_STYLES_DIR)} …`);
    let browser = await launchChromium();
    try {
      let done = 0;
      for (const { table, style, name } of missing) {
        let entry: CacheEntry;
        try {
          const { html, face, size } = styledHtml(table, style);
          const { bytes, truth } = await withTimeout(printHtml(browser, html, undefined, { printBackground: style === 'zebra' }), PAGE_SECONDS, name);
          fs.writeFileSync(path.join(TABLE_STYLES_DIR, `${name}.pdf`), bytes);
          entry = { version: CACHE_VERSION, source: table.source, pages: pdfPages(bytes), truth, face, size };
        } catch (err) {
          entry = cache.failed(table.source, err);
          if (!browser.isConnected()) browser = await launchChromium();
        }
        cache.write(name, entry);
        if (++done % 50 === 0) log(`  ${done}/${missing.length}`);
      }
    } finally {
      await browser.close();
    }
  }
  const tables: StyledTable[] = [];
  for (const { table, style, name } of all) {
    const entry = cache.read(name);
    if (!entry?.truth) continue;
    tables.push({ name, table, style, face: entry.face ?? '', size: entry.size ?? 0, pdf: path.join(TABLE_STYLES_DIR, `${name}.pdf`), pages: entry.pages, truth: entry.truth });
  }
  return { candidates, tables };
}
