/**
 * The tables of bench:table-styles (table-styles.ts): the real data tables of the shared HTML
 * corpus (every page printed-corpus.ts `corpusPages` lists), each with a paragraph of real prose
 * from the same page before and after it.
 *
 * A data table here: not inside another table and holding none, not a navigation or layout box
 * (role presentation, Wikipedia's infobox / navbox / sidebar / metadata / message boxes), 2 to 8
 * columns, 3 rows or more with two filled cells, every cell's text at most MAX_CELL characters,
 * no image-only column (at least half of the cells filled), no text in a script the machine
 * cannot print. Rows past MAX_ROWS are cut (a row span clipped at the cut). Cells are rebuilt as
 * plain text (`th`/`td`, colspan and rowspan kept, the leading all-`th` rows or the source's
 * `thead` as the head), so every style prints the same cells.
 *
 * Prose: the nearest `p` outside any table before the table and after it with at least
 * MIN_PROSE characters (cut at a sentence end near MAX_PROSE); a table without both is left out.
 *
 * The Word and OpenDocument files of the office corpus (`office/docx`, `office/odt`) add theirs,
 * read by pandoc as HTML (the HTML corpus alone holds about 25 data tables). A table found twice
 * (a test file copied between projects) is one.
 *
 * The sample: every candidate sorted by id, shuffled by SEED; at most
 * PER_PAGE tables of a page; the tables with a spanning cell taken first up to SPANNED, then the
 * others up to SAMPLE in all.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';
import { mulberry32 } from '../../test/helpers/prng.ts';
import { corpusPages } from './printed-corpus.ts';

export interface HarvestedTable {
  /** `<page name>-t<k>`: the k-th table of the page (0-based, over all its tables). */
  id: string;
  /** The page, relative to the corpus. */
  source: string;
  /** The table as plain HTML: `<table><thead>…</thead><tbody>…</tbody></table>`, cells' text escaped. */
  html: string;
  before: string;
  after: string;
  rows: number;
  columns: number;
  spans: boolean;
}

const MAX_ROWS = 25;
const MAX_COLUMNS = 8;
const MAX_CELL = 250;
const MIN_PROSE = 40;
const MAX_PROSE = 600;
const SAMPLE = 80;
const SPANNED = 20;
const PER_PAGE = 9;
const SEED = 1612;

const LAYOUT_CLASS = /\b(infobox|navbox|vertical-navbox|sidebar|metadata|mbox|ambox|tmbox|ombox|cmbox|fmbox|imbox|toc|toccolours|sistersitebox|plainlinks|nowraplinks|mw-collapsible|clade|multicol|gallery|highlight|code|hljs|ln-|lineno|diff)/iu;
const UNPRINTED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Devanagari}]/u;

interface Cell {
  th: boolean;
  text: string;
  colspan: number;
  rowspan: number;
}

const clean = (s: string): string => s.replace(/\[\d+\]|\[[a-z]\]|\[citation needed\]/giu, '').replace(/\s+/gu, ' ').trim();
const esc = (s: string): string => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

/** Prose cut near MAX_PROSE at a sentence end. */
function prose(text: string): string {
  if (text.length <= MAX_PROSE) return text;
  const cut = text.slice(0, MAX_PROSE);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  return end > MIN_PROSE ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}.`;
}

interface DomElement {
  tagName: string;
  textContent: string | null;
  parentElement: DomElement | null;
  children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

function isHidden(el: DomElement): boolean {
  const style = (el.getAttribute('style') ?? '').replace(/\s+/gu, '');
  return /display:none|visibility:hidden/iu.test(style) || el.getAttribute('hidden') !== null || el.getAttribute('aria-hidden') === 'true';
}

/** The table's rows of cells (its own rows, not a nested table's), or undefined when it is no data table. */
function readRows(table: DomElement): { rows: Cell[][]; headRows: number } | undefined {
  const rows: Cell[][] = [];
  let headRows = 0;
  let inHead = true;
  for (const tr of Array.from(table.querySelectorAll('tr'))) {
    if (tr.closest('table') !== table || isHidden(tr)) continue;
    const cells: Cell[] = [];
    for (const cell of Array.from(tr.children)) {
      const tag = cell.tagName.toLowerCase();
      if (tag !== 'td' && tag !== 'th') continue;
      if (isHidden(cell)) continue;
      for (const hidden of Array.from(cell.querySelectorAll('style, script, sup.reference, .sortkey, [style*="display:none"], [style*="display: none"]'))) (hidden as unknown as { remove(): void }).remove();
      const text = clean(cell.textContent ?? '');
      if (text.length > MAX_CELL) return undefined;
      const colspan = Math.max(1, Math.min(MAX_COLUMNS, Number(cell.getAttribute('colspan') ?? '1') || 1));
      const rowspan = Math.max(1, Math.min(MAX_ROWS, Number(cell.getAttribute('rowspan') ?? '1') || 1));
      cells.push({ th: tag === 'th', text, colspan, rowspan });
    }
    if (cells.length === 0) continue;
    const section = tr.parentElement?.tagName.toLowerCase();
    if (inHead && (section === 'thead' || cells.every((c) => c.th))) headRows++;
    else inHead = false;
    rows.push(cells);
  }
  return { rows, headRows };
}

/** Columns of the rows (row spans carried down), or 0 when a row is wider than MAX_COLUMNS. */
function columnCount(rows: Cell[][]): number {
  const carried: number[] = [];
  let width = 0;
  for (const row of rows) {
    let col = 0;
    const occupied = (c: number) => (carried[c] ?? 0) > 0;
    for (const cell of row) {
      while (occupied(col)) col++;
      for (let k = 0; k < cell.colspan; k++) carried[col + k] = cell.rowspan;
      col += cell.colspan;
    }
    while (occupied(col)) col++;
    width = Math.max(width, col);
    for (let c = 0; c < carried.length; c++) if ((carried[c] ?? 0) > 0) carried[c] = (carried[c] as number) - 1;
  }
  return width;
}

function tableHtml(rows: Cell[][], headRows: number): string {
  const row = (cells: Cell[], r: number) =>
    `<tr>${cells
      .map((c) => {
        const tag = c.th ? 'th' : 'td';
        const rowspan = Math.min(c.rowspan, rows.length - r);
        return `<${tag}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}${rowspan > 1 ? ` rowspan="${rowspan}"` : ''}>${esc(c.text)}</${tag}>`;
      })
      .join('')}</tr>`;
  const head = rows.slice(0, headRows).map((cells, r) => row(cells, r)).join('');
  const body = rows.slice(headRows).map((cells, r) => row(cells, r + headRows)).join('');
  return `<table>${head ? `<thead>${head}</thead>` : ''}<tbody>${body}</tbody></table>`;
}

/** The data tables of one page, with their prose. */
export function pageTables(name: string, html: string, source: string): HarvestedTable[] {
  const { document } = parseHTML(html) as unknown as { document: DomElement };
  const out: HarvestedTable[] = [];
  const order = Array.from(document.querySelectorAll('p, li, dd, blockquote, table'));
  const paragraphText = (el: DomElement): string | undefined => {
    if (el.tagName.toLowerCase() === 'table' || isHidden(el) || el.querySelector('p, li, table')) return undefined;
    // Prose in a page's layout table is the page's; in a table of data it is a cell's.
    const host = el.closest('table');
    if (host && !host.querySelector('table')) return undefined;
    const text = clean(el.textContent ?? '');
    return text.length >= MIN_PROSE && !UNPRINTED.test(text) ? text : undefined;
  };
  let k = -1;
  order.forEach((table, at) => {
    if (table.tagName.toLowerCase() !== 'table') return;
    k++;
    if (table.querySelector('table')) return;
    const role = table.getAttribute('role');
    if (role === 'presentation' || role === 'none' || LAYOUT_CLASS.test(table.getAttribute('class') ?? '') || isHidden(table)) return;
    const read = readRows(table);
    if (!read) return;
    const rows = read.rows.slice(0, MAX_ROWS);
    const headRows = Math.min(read.headRows, rows.length - 1);
    const wideRows = rows.filter((r) => r.filter((c) => c.text).length >= 2).length;
    const cells = rows.flat();
    if (wideRows < 3 || cells.filter((c) => c.text).length * 2 < cells.length) return;
    const columns = columnCount(rows);
    if (columns < 2 || columns > MAX_COLUMNS) return;
    if (cells.some((c) => UNPRINTED.test(c.text))) return;
    // The nearest paragraph before and after; a table at the page's start or end takes the
    // two nearest on its other side.
    const nearest = (from: number, step: number, skip?: string): string | undefined => {
      for (let i = from; i >= 0 && i < order.length; i += step) {
        const text = paragraphText(order[i] as DomElement);
        if (text && text !== skip) return text;
      }
      return undefined;
    };
    let before = nearest(at - 1, -1);
    let after = nearest(at + 1, 1);
    if (!before && after) before = nearest(at + 1, 1, after);
    else if (!after && before) after = nearest(at - 1, -1, before);
    if (!before || !after) return;
    out.push({
      id: `${name}-t${k}`,
      source,
      html: tableHtml(rows, headRows),
      before: prose(before),
      after: prose(after),
      rows: rows.length,
      columns,
      spans: cells.some((c) => c.colspan > 1 || c.rowspan > 1),
    });
  });
  return out;
}

/** The Word and OpenDocument files of the office corpus, as [name, absolute path], sorted. */
function officeDocuments(): [string, string][] {
  const out: [string, string][] = [];
  for (const kind of ['docx', 'odt']) {
    const dir = path.join(CORPUS_DIR, 'office', kind);
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir)) if (file.endsWith(`.${kind}`)) out.push([`${kind}-${file.slice(0, -kind.length - 1)}`, path.join(dir, file)]);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Every candidate of the corpus, then the seeded sample. */
export function harvestTables(): { candidates: number; sample: HarvestedTable[] } {
  const all: HarvestedTable[] = [];
  for (const [name, file] of corpusPages()) {
    let html: string;
    try {
      html = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    all.push(...pageTables(name, html, path.relative(CORPUS_DIR, file)));
  }
  for (const [name, file] of officeDocuments()) {
    const run = spawnSync('pandoc', ['-t', 'html5', '--wrap=none', file], { encoding: 'utf8', timeout: 20_000, maxBuffer: 64 << 20 });
    if (run.status !== 0 || !run.stdout) continue;
    all.push(...pageTables(name, run.stdout, path.relative(CORPUS_DIR, file)));
  }
  all.sort((a, b) => a.id.localeCompare(b.id));
  // The same table in two documents (a test file copied between projects) is one table.
  const seen = new Set<string>();
  const unique = all.filter((t) => !seen.has(t.html) && seen.add(t.html) !== undefined);
  const next = mulberry32(SEED);
  const pool = [...unique];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as HarvestedTable, pool[i] as HarvestedTable];
  }
  const perPage = new Map<string, number>();
  const picked: HarvestedTable[] = [];
  const take = (t: HarvestedTable) => {
    const n = perPage.get(t.source) ?? 0;
    if (n >= PER_PAGE || picked.includes(t)) return;
    perPage.set(t.source, n + 1);
    picked.push(t);
  };
  for (const t of pool) if (t.spans && picked.length < SPANNED) take(t);
  for (const t of pool) if (picked.length < SAMPLE) take(t);
  return { candidates: unique.length, sample: picked.sort((a, b) => a.id.localeCompare(b.id)) };
}
