/**
 * A table's grid: column edges `xs`, row edges `ys` (ascending), and which inner edges are drawn.
 * A missing piece of an inner edge merges the two grid cells on either side of it (colspan /
 * rowspan); cells are assembled greedily, left to right and top to bottom, as rectangles.
 */
import type { Box, Word } from '../page-model.ts';
import { cellText } from './cell-text.ts';

export interface Grid {
  xs: number[];
  ys: number[];
  /** Whether the edge x = xs[c] is drawn between ys[r] and ys[r + 1] (0 < c < cols). */
  vertical(c: number, r: number): boolean;
  /** Whether the edge y = ys[r] is drawn between xs[c] and xs[c + 1] (0 < r < rows). */
  horizontal(r: number, c: number): boolean;
}

export interface GridCell extends Box {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  words: Word[];
  text: string;
}

export interface LaidOutTable {
  rows: number;
  cols: number;
  cells: GridCell[];
  /** The y of a rule setting the head off from the body (booktabs' mid rule), when there is one. */
  headRule?: number;
}

/** The grid's cells with their spans; every grid slot belongs to exactly one cell. */
export function gridCells(grid: Grid): GridCell[] {
  const rows = grid.ys.length - 1;
  const cols = grid.xs.length - 1;
  const taken: boolean[][] = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(false));
  const cells: GridCell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (taken[r]?.[c]) continue;
      let colSpan = 1;
      while (c + colSpan < cols && !taken[r]?.[c + colSpan] && !grid.vertical(c + colSpan, r)) colSpan++;
      let rowSpan = 1;
      const open = (rr: number): boolean => {
        for (let k = c; k < c + colSpan; k++) {
          if (taken[rr]?.[k] || grid.horizontal(rr, k)) return false;
        }
        return true;
      };
      while (r + rowSpan < rows && open(r + rowSpan)) rowSpan++;
      for (let i = r; i < r + rowSpan; i++) for (let j = c; j < c + colSpan; j++) (taken[i] as boolean[])[j] = true;
      cells.push({
        row: r,
        col: c,
        rowSpan,
        colSpan,
        x0: grid.xs[c] as number,
        x1: grid.xs[c + colSpan] as number,
        y0: grid.ys[r] as number,
        y1: grid.ys[r + rowSpan] as number,
        words: [],
        text: '',
      });
    }
  }
  return cells;
}

/** The index i of the band edges[i]..edges[i + 1] holding v (edges ascending), or -1. */
export function bandOf(edges: readonly number[], v: number): number {
  if (edges.length < 2 || v < (edges[0] as number) || v > (edges[edges.length - 1] as number)) return -1;
  let lo = 0;
  let hi = edges.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((edges[mid] as number) <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Words by the row band (of `ys`) holding their centre; words outside every band are left out. */
export function wordsByBand<T extends Box>(words: readonly T[], ys: readonly number[]): T[][] {
  const bands: T[][] = Array.from({ length: Math.max(0, ys.length - 1) }, () => []);
  for (const w of words) bands[bandOf(ys, (w.y0 + w.y1) / 2)]?.push(w);
  return bands;
}

/** Puts each word in the cell holding its centre (found through the grid, not by search) and sets the cells' text. */
export function fillCells(cells: GridCell[], words: readonly Word[], grid: { xs: readonly number[]; ys: readonly number[] }): void {
  const cols = grid.xs.length - 1;
  const owner: (GridCell | undefined)[] = new Array<GridCell | undefined>(Math.max(0, (grid.ys.length - 1) * cols));
  for (const cell of cells) {
    for (let r = cell.row; r < cell.row + cell.rowSpan; r++) for (let c = cell.col; c < cell.col + cell.colSpan; c++) owner[r * cols + c] = cell;
  }
  for (const w of words) {
    const r = bandOf(grid.ys, (w.y0 + w.y1) / 2);
    const c = bandOf(grid.xs, (w.x0 + w.x1) / 2);
    if (r >= 0 && c >= 0) owner[r * cols + c]?.words.push(w);
  }
  for (const cell of cells) cell.text = cellText(cell.words);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[(s.length - 1) >> 1] as number);
}

/** Rows holding text within this share of their median height are of one pitch; an empty row of that pitch is a row. */
const DRAWN_ROW_SPREAD = 0.15;
/** An empty column this wide against the columns holding text (median) is a column drawn to be one. */
const DRAWN_COLUMN = 0.5;

/**
 * The empty rows and columns a grid draws at the size of its rows and columns holding text (a
 * table's blank rows and columns, kept by a word processor's rules), by index; a double rule's
 * strip or a cell's padding is far thinner. Measured on the cells of one row or column each.
 */
function drawnEmpty(table: LaidOutTable): { rows: Set<number>; cols: Set<number> } {
  const size = (cells: GridCell[], a: (c: GridCell) => number, b: (c: GridCell) => number): number => Math.min(...cells.map((c) => b(c) - a(c)));
  const measure = (n: number, of: (c: GridCell) => number, span: (c: GridCell) => number, a: (c: GridCell) => number, b: (c: GridCell) => number) => {
    const sizes: { size: number; text: boolean }[] = [];
    for (let i = 0; i < n; i++) {
      const single = table.cells.filter((c) => of(c) === i && span(c) === 1);
      const starting = table.cells.filter((c) => of(c) === i);
      sizes.push({ size: single.length > 0 ? size(single, a, b) : 0, text: starting.some((c) => c.text !== '') });
    }
    return sizes;
  };
  const rows = measure(table.rows, (c) => c.row, (c) => c.rowSpan, (c) => c.y0, (c) => c.y1);
  const cols = measure(table.cols, (c) => c.col, (c) => c.colSpan, (c) => c.x0, (c) => c.x1);
  const textRows = rows.filter((r) => r.text && r.size > 0);
  const rowRef = median(textRows.map((r) => r.size));
  const colRef = median(cols.filter((r) => r.text && r.size > 0).map((r) => r.size));
  // Only a grid of one row pitch (a word processor's table) is read this way: a form's boxes of
  // many heights draw empty strips of every size.
  const near = (v: number, ref: number): boolean => Math.abs(v - ref) <= DRAWN_ROW_SPREAD * ref;
  if (rowRef === 0 || textRows.length < 2 || !textRows.every((r) => near(r.size, rowRef))) return { rows: new Set(), cols: new Set() };
  const keptRows = new Set(rows.flatMap((m, i) => (!m.text && near(m.size, rowRef) ? [i] : [])));
  const keptCols = new Set(colRef > 0 ? cols.flatMap((m, i) => (!m.text && m.size >= DRAWN_COLUMN * colRef ? [i] : [])) : []);
  return { rows: keptRows, cols: keptCols };
}

/**
 * Drops grid rows and columns that hold no text of their own (double rules, padding strips):
 * a row goes when every cell starting in it is empty; cells spanning across it shrink. With
 * `keepDrawn`, an empty row or column drawn at the size of those holding text stays (a ruled
 * grid's blank rows and columns).
 */
export function compact(table: LaidOutTable, keepDrawn = false): LaidOutTable {
  let { rows, cols, cells } = table;
  const kept = keepDrawn ? drawnEmpty(table) : { rows: new Set<number>(), cols: new Set<number>() };
  for (let r = rows - 1; r >= 0; r--) {
    const starting = cells.filter((c) => c.row === r);
    if (kept.rows.has(r) || starting.some((c) => c.text !== '')) continue;
    // An empty cell that starts here and spans on keeps its lower part.
    const next: GridCell[] = [];
    for (const c of cells) {
      if (c.row === r && c.rowSpan === 1) continue;
      if (c.row === r) next.push({ ...c, rowSpan: c.rowSpan - 1 });
      else if (c.row < r && c.row + c.rowSpan > r) next.push({ ...c, rowSpan: c.rowSpan - 1 });
      else if (c.row > r) next.push({ ...c, row: c.row - 1 });
      else next.push(c);
    }
    cells = next;
    rows--;
  }
  for (let k = cols - 1; k >= 0; k--) {
    const starting = cells.filter((c) => c.col === k);
    if (kept.cols.has(k) || starting.some((c) => c.text !== '')) continue;
    const next: GridCell[] = [];
    for (const c of cells) {
      if (c.col === k && c.colSpan === 1) continue;
      if (c.col === k) next.push({ ...c, colSpan: c.colSpan - 1 });
      else if (c.col < k && c.col + c.colSpan > k) next.push({ ...c, colSpan: c.colSpan - 1 });
      else if (c.col > k) next.push({ ...c, col: c.col - 1 });
      else next.push(c);
    }
    cells = next;
    cols--;
  }
  return { rows, cols, cells };
}

/** Removes column k (its cells must be empty or merged away already); spans across it shrink. */
export function dropColumn(t: LaidOutTable, k: number): LaidOutTable {
  const cells: GridCell[] = [];
  for (const c of t.cells) {
    if (c.col === k && c.colSpan === 1) continue;
    if (c.col === k || (c.col < k && c.col + c.colSpan > k)) cells.push({ ...c, colSpan: c.colSpan - 1 });
    else if (c.col > k) cells.push({ ...c, col: c.col - 1 });
    else cells.push(c);
  }
  return { rows: t.rows, cols: t.cols - 1, cells };
}

/**
 * A column holding nothing but its head, beside a column whose head is empty: a head centred
 * over a narrow column of figures or numbers, which the gutters split off. The head moves over
 * its column and the empty column goes.
 */
export function mergeHeadOnlyColumns(t: LaidOutTable): LaidOutTable {
  let table = t;
  for (let k = table.cols - 1; k >= 0; k--) {
    const at = (row: number, col: number): GridCell | undefined => table.cells.find((c) => c.row === row && c.col === col && c.colSpan === 1 && c.rowSpan === 1);
    const head = at(0, k);
    if (!head || head.text === '') continue;
    if (table.cells.some((c) => c.row > 0 && c.col <= k && c.col + c.colSpan > k && c.text !== '')) continue;
    const left = at(0, k - 1);
    const right = at(0, k + 1);
    const into = left && left.text === '' ? left : right && right.text === '' ? right : undefined;
    if (!into) continue;
    into.text = head.text;
    into.words = head.words;
    head.text = '';
    head.words = [];
    table = dropColumn(table, k);
  }
  return table;
}

/** How one body row is parted: into `n` rows, each of its cells becoming the cells `cellsOf` gives (rows r … r + n − 1). */
export interface RowParting {
  n: number;
  cellsOf: (cell: GridCell, r: number) => GridCell[];
}

/**
 * The table with each body row (at or below `bodyFrom`) that `parting` parts replaced by its
 * rows, the rows below moved down. Only a row of its own is parted: no cell spans into or out of it.
 */
export function partRows(t: LaidOutTable, bodyFrom: number, parting: (row: GridCell[]) => RowParting | undefined): LaidOutTable {
  let table = t;
  for (let r = table.rows - 1; r >= bodyFrom; r--) {
    const row = table.cells.filter((c) => c.row === r);
    if (row.length === 0 || row.some((c) => c.rowSpan !== 1) || table.cells.some((c) => c.row < r && c.row + c.rowSpan > r)) continue;
    const parts = parting(row);
    if (!parts) continue;
    const { n, cellsOf } = parts;
    const cells: GridCell[] = [];
    for (const c of table.cells) {
      if (c.row < r) cells.push(c);
      else if (c.row > r) cells.push({ ...c, row: c.row + n - 1 });
      else cells.push(...cellsOf(c, r));
    }
    table = { ...table, rows: table.rows + n - 1, cells: cells.sort((a, b) => a.row - b.row || a.col - b.col) };
  }
  return table;
}
