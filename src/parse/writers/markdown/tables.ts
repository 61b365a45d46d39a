/**
 * Tables → GFM pipe tables (our own rule; turndown-plugin-gfm leaves header-less tables, such as
 * every table mammoth produces, as raw HTML).
 *
 * Turndown converts children before their parent, so the cell rule records each cell's markdown
 * in a WeakMap and the table rule, run afterwards, assembles the grid from the table's structure.
 *
 * Choices (applied everywhere, so output is predictable):
 * - Header row: the first row of `<thead>` when there is one, otherwise the first row of the table
 *   (whether it holds `<th>` or `<td>`): GFM needs a header row, and mammoth never marks one.
 * - A table with merged cells (a cell spanning rows, or some but not all columns) is written as
 *   an HTML `<table>` with its `colspan`/`rowspan` and its header rows in `<thead>` as `<th>`
 *   (span-table.ts): a pipe table cannot say a cell
 *   spans, and a value repeated in every covered cell is read once per row. A cell spanning the
 *   whole width at the head of its row (a banner or section row) keeps the pipe table and is
 *   written once, in the first column. `rowspan="0"` spans to the last row. Spans are clamped to
 *   the HTML limits (colspan ≤ 1000) and to the table's last row; a table whose expansion would
 *   exceed MAX_GRID_CELLS is laid out without expanding spans.
 * - Inside a cell, every line break (`<br>`, paragraph and other block boundaries) becomes `<br>`
 *   — the one piece of HTML GFM tables need — and `|` is escaped as `\|`.
 * - A table nested in a data cell is flattened into that cell's text: its cells joined by a space,
 *   its rows by `<br>`.
 * - Ragged rows are padded with empty cells; rows whose cells are all empty are dropped; a table
 *   with no text at all is dropped.
 * - Layout tables are rendered as their content (cells in reading order, as blocks): a table with
 *   a single cell, a table marked `role="presentation"`/`"none"`, and a table of one row or one
 *   column that contains other tables (page layout wrapping the real tables). A highlighter's
 *   "code table" (a line-number gutter cell beside a cell holding `<pre>`) is rendered as the code.
 */
import type TurndownService from 'turndown';
import { type MdElement, type MdNode, elementChildren, findDescendant, intAttribute, mdRule } from './light-dom.ts';
import { hasMergedCells, spanTableHtml } from './span-table.ts';

export const MAX_GRID_CELLS = 250_000;
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65_534;

const CELL = new Set(['TD', 'TH']);
const SECTION = new Set(['THEAD', 'TBODY', 'TFOOT']);
const TABLE = new Set(['TABLE']);
const PRE = new Set(['PRE']);

type TableKind = 'empty' | 'data' | 'layout' | 'code';

interface TableInfo {
  kind: TableKind;
  /** Rows in reading order (thead rows first, tfoot rows last), each a list of cell elements. */
  rows: MdElement[][];
  /** How many of `rows` (the first ones) the table's `<thead>` holds. */
  headRows: number;
  /** For a code table: the cell holding the code. */
  codeCell?: MdElement;
}

/** Markdown of each cell, recorded by the cell rule (keys are nodes of the writer's own clone). */
const cellMarkdown = new WeakMap<MdElement, string>();
const captionMarkdown = new WeakMap<MdElement, string>();
const infoCache = new WeakMap<MdElement, TableInfo>();

function collectCells(container: MdElement, out: MdElement[]): void {
  for (const child of elementChildren(container)) {
    if (CELL.has(child.nodeName)) out.push(child);
    else if (child.nodeName !== 'TABLE' && child.nodeName !== 'TR') collectCells(child, out);
  }
}

/** Rows owned by this table (not by a nested one), tolerating stray wrappers such as `<form>`. */
function collectRows(container: MdElement, head: MdElement[][], body: MdElement[][], foot: MdElement[][], section: string): void {
  const target = section === 'THEAD' ? head : section === 'TFOOT' ? foot : body;
  // Cells outside any <tr> (`<thead><th>…`, which browsers wrap in an implied row).
  let stray: MdElement[] = [];
  const flush = (): void => {
    if (stray.length > 0) target.push(stray);
    stray = [];
  };
  for (const child of elementChildren(container)) {
    const name = child.nodeName;
    if (CELL.has(name)) {
      stray.push(child);
    } else if (name === 'TR') {
      flush();
      const cells: MdElement[] = [];
      collectCells(child, cells);
      target.push(cells);
    } else if (SECTION.has(name)) {
      flush();
      collectRows(child, head, body, foot, name);
    } else if (name !== 'TABLE' && name !== 'CAPTION' && name !== 'COLGROUP') {
      flush();
      collectRows(child, head, body, foot, section);
    }
  }
  flush();
}

function isGutterCell(cell: MdElement): boolean {
  const text = cell.textContent ?? '';
  return /\d/.test(text) && /^[\d\s]*$/.test(text);
}

function classify(table: MdElement, rows: MdElement[][]): Omit<TableInfo, 'rows' | 'headRows'> {
  const cellCount = rows.reduce((n, r) => n + r.length, 0);
  if (cellCount === 0) return { kind: 'empty' };
  const role = (table.getAttribute('role') ?? '').toLowerCase();
  if (cellCount === 1 || role === 'presentation' || role === 'none') return { kind: 'layout' };
  const first = rows[0];
  if (rows.length === 1 && first !== undefined && first.length === 2) {
    const [gutter, code] = first as [MdElement, MdElement];
    if (isGutterCell(gutter) && findDescendant(code, PRE) !== null) return { kind: 'code', codeCell: code };
  }
  const oneRow = rows.filter((r) => r.length > 0).length === 1;
  const oneColumn = rows.every((r) => r.length <= 1);
  if ((oneRow || oneColumn) && findDescendant(table, TABLE) !== null) return { kind: 'layout' };
  return { kind: 'data' };
}

function tableInfo(table: MdElement): TableInfo {
  const cached = infoCache.get(table);
  if (cached) return cached;
  const head: MdElement[][] = [];
  const body: MdElement[][] = [];
  const foot: MdElement[][] = [];
  collectRows(table, head, body, foot, '');
  const rows = [...head, ...body, ...foot];
  const info: TableInfo = { rows, headRows: head.length, ...classify(table, rows) };
  infoCache.set(table, info);
  return info;
}

/**
 * Whether `node` sits inside a cell of a data table, where markdown blocks cannot exist (cells of
 * layout and code tables hold ordinary blocks).
 */
export function inDataCell(node: MdNode): boolean {
  let cur = node.parentNode;
  while (cur !== null) {
    if (CELL.has(cur.nodeName)) {
      let table: MdElement | null = cur.parentNode;
      while (table !== null && table.nodeName !== 'TABLE') table = table.parentNode;
      if (table === null) return false;
      if (tableInfo(table).kind === 'data') return true;
      cur = table;
    }
    cur = cur.parentNode;
  }
  return false;
}

function hasTableAncestor(node: MdNode): boolean {
  for (let cur = node.parentNode; cur !== null; cur = cur.parentNode) {
    if (cur.nodeName === 'TABLE') return true;
  }
  return false;
}

/** The lines of a cell's markdown, trimmed, empty ones dropped. */
function cellLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const t = line.trim();
    if (t !== '') lines.push(t);
  }
  return lines;
}

/** One grid cell's text: line breaks as `<br>`, pipes escaped. */
function cellText(cell: MdElement): string {
  return cellLines(cellMarkdown.get(cell) ?? '').join('<br>').replace(/\|/g, '\\|');
}

/** The cell's [colspan, rowspan], clamped; `rowspan="0"` reaches the last row. */
function spans(cell: MdElement, row: number, rowCount: number): [number, number] {
  const colspan = Math.max(1, intAttribute(cell, 'colspan', 1, MAX_COLSPAN));
  const rs = intAttribute(cell, 'rowspan', 1, MAX_ROWSPAN);
  const rowspan = rs === 0 ? rowCount - row : Math.min(Math.max(1, rs), rowCount - row);
  return [colspan, rowspan];
}

/**
 * The rectangular grid: spans expanded (values repeated), ragged rows padded. A cell that spans
 * the table's whole width is the exception: it is a heading or a banner across the table (an
 * infobox's logo, a section row), not a value its columns share, so it is written once, in the
 * first column.
 */
export function buildGrid(rows: MdElement[][], text: (cell: MdElement) => string): string[][] {
  const rowCount = rows.length;
  let expandedCells = 0;
  rows.forEach((cells, r) => {
    for (const cell of cells) {
      const [colspan, rowspan] = spans(cell, r, rowCount);
      expandedCells += colspan * rowspan;
    }
  });
  const expand = expandedCells <= MAX_GRID_CELLS;

  const grid: (string | undefined)[][] = rows.map(() => []);
  /** Cells placed at column 0 with a colspan: [row, colspan, rowspan], checked against the width. */
  const leading: [number, number, number][] = [];
  rows.forEach((cells, r) => {
    const row = grid[r] as (string | undefined)[];
    let c = 0;
    for (const cell of cells) {
      while (row[c] !== undefined) c++;
      const [colspan, rowspan] = expand ? spans(cell, r, rowCount) : [1, 1];
      const value = text(cell);
      if (c === 0 && colspan > 1) leading.push([r, colspan, rowspan]);
      for (let i = 0; i < rowspan; i++) {
        const target = grid[r + i] as (string | undefined)[];
        for (let j = 0; j < colspan; j++) {
          // Overlapping spans (invalid HTML): the cell placed first keeps the slot.
          if (target[c + j] === undefined) target[c + j] = value;
        }
      }
      c += colspan;
    }
  });
  const width = grid.reduce((w, row) => Math.max(w, row.length), 0);
  for (const [r, colspan, rowspan] of leading) {
    if (colspan < width) continue;
    for (let i = 0; i < rowspan; i++) {
      const target = grid[r + i] as (string | undefined)[];
      for (let j = 1; j < width; j++) target[j] = '';
    }
  }
  return grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}

function renderPipeTable(grid: string[][]): string {
  const rows = grid.filter((row) => row.some((cell) => cell !== ''));
  const header = rows[0];
  if (header === undefined) return '';
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const out = [line(header), line(header.map(() => '---'))];
  for (const row of rows.slice(1)) out.push(line(row));
  return out.join('\n');
}

/** A nested data table as text: cells joined by spaces, rows by line breaks. */
function flatten(rows: MdElement[][]): string {
  const lines: string[] = [];
  for (const cells of rows) {
    const parts = cells.map((cell) => cellLines(cellMarkdown.get(cell) ?? '').join(' ')).filter((t) => t !== '');
    if (parts.length > 0) lines.push(parts.join(' '));
  }
  return lines.join('\n');
}

function block(text: string): string {
  return text === '' ? '' : `\n\n${text}\n\n`;
}

function renderTable(table: MdElement): string {
  const info = tableInfo(table);
  const caption = [...captionMarkdownOf(table)].join(' ');
  const nested = inDataCell(table);
  if (info.kind === 'empty') return block(caption);
  if (info.kind === 'code' && info.codeCell) return block((cellMarkdown.get(info.codeCell) ?? '').trim());
  if (info.kind === 'layout') {
    const parts = info.rows.flat().map((cell) => (cellMarkdown.get(cell) ?? '').trim());
    return block([caption, ...parts].filter((p) => p !== '').join('\n\n'));
  }
  if (nested) {
    const text = flatten(info.rows);
    return text === '' ? '' : `\n${[caption, text].filter((p) => p !== '').join('\n')}\n`;
  }
  const grid = hasMergedCells(info.rows, spans)
    ? spanTableHtml(info.rows, (cell) => cellLines(cellMarkdown.get(cell) ?? ''), spans, info.headRows)
    : renderPipeTable(buildGrid(info.rows, cellText));
  return block([caption, grid].filter((p) => p !== '').join('\n\n'));
}

function* captionMarkdownOf(table: MdElement): Generator<string> {
  for (const child of elementChildren(table)) {
    if (child.nodeName === 'CAPTION') {
      const text = cellLines(captionMarkdown.get(child) ?? '').join(' ');
      if (text !== '') yield text;
    }
  }
}

const SKIPPED_STRUCTURE = new Set(['TR', 'THEAD', 'TBODY', 'TFOOT']);
const COLUMNS = new Set(['COLGROUP', 'COL']);

export const tableRules: Record<string, TurndownService.Rule> = {
  tableCell: mdRule(
    (el) => CELL.has(el.nodeName),
    (content, el) => {
      cellMarkdown.set(el, content);
      // A stray cell outside any table is ordinary content.
      return hasTableAncestor(el) ? '' : `\n\n${content}\n\n`;
    },
  ),
  tableCaption: mdRule(
    (el) => el.nodeName === 'CAPTION',
    (content, el) => {
      captionMarkdown.set(el, content);
      return hasTableAncestor(el) ? '' : `\n\n${content}\n\n`;
    },
  ),
  tableStructure: mdRule(
    (el) => SKIPPED_STRUCTURE.has(el.nodeName) && hasTableAncestor(el),
    () => '',
  ),
  tableColumns: mdRule(
    (el) => COLUMNS.has(el.nodeName),
    () => '',
  ),
  table: mdRule(
    (el) => el.nodeName === 'TABLE',
    (_content, el) => renderTable(el),
  ),
};
