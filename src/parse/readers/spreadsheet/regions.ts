/**
 * The tables of a sheet. A sheet is a page on which people set one table or several, side by
 * side or one under another, with titles above them; reading the whole used range as one grid
 * glues them into a wide table of empty columns. The rules, as a typesetter would see the page:
 *
 * - a row or a column with nothing in it (a merged cell's area counts as filled) parts the
 *   blocks on either side, recursively, down and then across (an XY cut); across only when every
 *   part is a table of two columns and two rows at least (a stray value or a column of notes
 *   beside a table stays with it); down when the parts are tables or lone cells (a single row of
 *   several cells under a spacer row, a totals row, stays with the table above it);
 * - two blocks stacked with no gap between them are still two tables when their column extents
 *   are shifted against each other (neither spans the other's columns): a table set under another
 *   but further right;
 * - a block whose first row holds one cell alone (often merged across the table) over a row of
 *   several cells is a titled table: the title is a paragraph, the next row the header;
 * - a block of one cell is a paragraph (a note, a title set apart by a blank row).
 */
import type { CutGrid, GridCell, Merge } from './grid.ts';

/** A part of a cut grid: rows and columns inclusive, in the grid's coordinates. */
interface Rect {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

export type SheetBlock = { kind: 'paragraph'; cell: GridCell } | { kind: 'table'; grid: CutGrid; title?: GridCell };

/** Past this many blocks a sheet is not a page of tables but a pattern: it stays one grid. */
const MAX_BLOCKS = 500;

class Occupancy {
  readonly filled: Uint8Array;
  constructor(
    readonly grid: CutGrid,
    readonly width: number,
  ) {
    const rows = grid.rows.length;
    this.filled = new Uint8Array(rows * width);
    grid.rows.forEach((row, r) => {
      for (let c = 0; c < width; c++) if (row[c]) this.filled[r * width + c] = 1;
    });
    for (const m of grid.merges) {
      for (let r = m.row; r < Math.min(rows, m.row + m.rowspan); r++) {
        for (let c = m.col; c < Math.min(width, m.col + m.colspan); c++) this.filled[r * width + c] = 1;
      }
    }
  }

  at(r: number, c: number): boolean {
    return this.filled[r * this.width + c] === 1;
  }

  /** The rect shrunk to its filled cells; undefined when it has none. */
  trim(rect: Rect): Rect | undefined {
    let r0 = Infinity;
    let r1 = -1;
    let c0 = Infinity;
    let c1 = -1;
    for (let r = rect.r0; r <= rect.r1; r++) {
      for (let c = rect.c0; c <= rect.c1; c++) {
        if (!this.at(r, c)) continue;
        if (r < r0) r0 = r;
        if (r > r1) r1 = r;
        if (c < c0) c0 = c;
        if (c > c1) c1 = c;
      }
    }
    return r1 < 0 ? undefined : { r0, c0, r1, c1 };
  }
}

/** Runs of indexes in [from, to] for which `filled(i)` holds, split at the ones that do not. */
function runs(from: number, to: number, filled: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = from; i <= to + 1; i++) {
    const on = i <= to && filled(i);
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      out.push([start, i - 1]);
      start = -1;
    }
  }
  return out;
}

/** First and last filled column of row r within the rect's columns; undefined for a blank row. */
function rowExtent(occ: Occupancy, r: number, rect: Rect): Extent | undefined {
  let first = -1;
  let last = -1;
  for (let c = rect.c0; c <= rect.c1; c++) {
    if (!occ.at(r, c)) continue;
    if (first < 0) first = c;
    last = c;
  }
  return first < 0 ? undefined : [first, last];
}

type Extent = [number, number];

const shifted = (a: Extent, b: Extent): boolean => !(a[0] <= b[0] && a[1] >= b[1]) && !(b[0] <= a[0] && b[1] >= a[1]);

const spanOf = (a: Extent | undefined, b: Extent | undefined): Extent | undefined => (!a ? b : !b ? a : [Math.min(a[0], b[0]), Math.max(a[1], b[1])]);

/** Row boundaries (after row i) where a table under another is set shifted against it. */
function shiftedBoundaries(occ: Occupancy, rect: Rect): number[] {
  const rows = rect.r1 - rect.r0 + 1;
  if (rows < 4) return [];
  const extents = Array.from({ length: rows }, (_, i) => rowExtent(occ, rect.r0 + i, rect));
  const above: (Extent | undefined)[] = [];
  for (let i = 0; i < rows; i++) above.push(spanOf(above[i - 1], extents[i]));
  const below: (Extent | undefined)[] = new Array<Extent | undefined>(rows);
  for (let i = rows - 1; i >= 0; i--) below[i] = spanOf(below[i + 1], extents[i]);
  const crossedByMerge = (r: number): boolean => occ.grid.merges.some((m) => m.row <= r && m.row + m.rowspan - 1 > r);
  const out: number[] = [];
  let lastCut = -1;
  for (let i = 1; i < rows - 2; i++) {
    // Both sides at least two rows and two columns: a table, not a stray cell.
    if (i - lastCut < 2) continue;
    const here = extents[i];
    const next = extents[i + 1];
    const top = above[i];
    const bottom = below[i + 1];
    if (!here || !next || !top || !bottom) continue;
    if (top[1] - top[0] < 1 || bottom[1] - bottom[0] < 1) continue;
    if (!shifted(here, next) || !shifted(top, bottom)) continue;
    if (crossedByMerge(rect.r0 + i)) continue;
    out.push(rect.r0 + i);
    lastCut = i;
  }
  return out;
}

/**
 * The row runs of a block parted by blank rows, grouped: a table (two rows and two columns at
 * least) or a lone cell (a title, a note) stands alone; a single row or column of several cells
 * (a totals row under a spacer row) stays with the run before it, or after it when it comes first.
 */
function rowGroups(occ: Occupancy, rowRuns: readonly [number, number][], rect: Rect): { rect: Rect; joined: boolean }[] {
  const groups: { rect: Rect; joined: boolean }[] = [];
  let pending: Rect | undefined;
  for (const [r0, r1] of rowRuns) {
    const piece = occ.trim({ r0, r1, c0: rect.c0, c1: rect.c1 });
    if (!piece) continue;
    const table = piece.r1 > piece.r0 && piece.c1 > piece.c0;
    const lone = piece.r1 === piece.r0 && piece.c1 === piece.c0;
    const last = groups.at(-1);
    if (table || lone || !last) {
      const merged: Rect = pending ? union(pending, piece) : piece;
      if (!table && !lone && !last) {
        pending = merged;
        continue;
      }
      groups.push({ rect: merged, joined: pending !== undefined });
      pending = undefined;
    } else {
      last.rect = union(last.rect, piece);
      last.joined = true;
    }
  }
  if (pending) {
    const last = groups.at(-1);
    if (last) {
      last.rect = union(last.rect, pending);
      last.joined = true;
    } else groups.push({ rect: pending, joined: true });
  }
  return groups;
}

const union = (a: Rect, b: Rect): Rect => ({ r0: Math.min(a.r0, b.r0), c0: Math.min(a.c0, b.c0), r1: Math.max(a.r1, b.r1), c1: Math.max(a.c1, b.c1) });

/** The blocks of a rect, in reading order: top to bottom across blank rows, then left to right. */
function cut(occ: Occupancy, rect: Rect, out: Rect[], rowsJoined = false): void {
  if (out.length > MAX_BLOCKS) return;
  const trimmed = occ.trim(rect);
  if (!trimmed) return;
  // Down first: a blank row across the whole block parts what is above from what is below (a
  // note under tables set side by side comes after both).
  const rowRuns = runs(trimmed.r0, trimmed.r1, (r) => {
    for (let c = trimmed.c0; c <= trimmed.c1; c++) if (occ.at(r, c)) return true;
    return false;
  });
  if (rowRuns.length > 1 && !rowsJoined) {
    for (const group of rowGroups(occ, rowRuns, trimmed)) cut(occ, group.rect, out, group.joined);
    return;
  }
  const colRuns = runs(trimmed.c0, trimmed.c1, (c) => {
    for (let r = trimmed.r0; r <= trimmed.r1; r++) if (occ.at(r, c)) return true;
    return false;
  });
  if (colRuns.length > 1) {
    const pieces = colRuns.map(([c0, c1]) => occ.trim({ r0: trimmed.r0, r1: trimmed.r1, c0, c1 }));
    // Tables side by side, each at least two columns by two rows; a lone column of notes or a
    // stray value beside a table stays with it.
    if (pieces.every((p) => p !== undefined && p.c1 > p.c0 && p.r1 > p.r0)) {
      for (const piece of pieces) if (piece) cut(occ, piece, out);
      return;
    }
  }
  const boundaries = shiftedBoundaries(occ, trimmed);
  if (boundaries.length > 0) {
    let start = trimmed.r0;
    for (const b of [...boundaries, trimmed.r1]) {
      cut(occ, { r0: start, r1: b, c0: trimmed.c0, c1: trimmed.c1 }, out);
      start = b + 1;
    }
    return;
  }
  out.push(trimmed);
}

/** The rect's rows and merges as a grid of its own. */
function subGrid(grid: CutGrid, rect: Rect): CutGrid {
  const rows = grid.rows.slice(rect.r0, rect.r1 + 1).map((row) => row.slice(rect.c0, rect.c1 + 1));
  const merges: Merge[] = grid.merges
    .filter((m) => m.row >= rect.r0 && m.row <= rect.r1 && m.col >= rect.c0 && m.col <= rect.c1)
    .map((m) => ({
      row: m.row - rect.r0,
      col: m.col - rect.c0,
      rowspan: Math.min(m.rowspan, rect.r1 - m.row + 1),
      colspan: Math.min(m.colspan, rect.c1 - m.col + 1),
    }));
  return { rows, merges };
}

const filledCells = (row: readonly (GridCell | undefined)[] | undefined): GridCell[] => (row ?? []).filter((c): c is GridCell => c !== undefined);

/** A block as a paragraph, a titled table or a table. */
function block(grid: CutGrid): SheetBlock {
  const first = filledCells(grid.rows[0]);
  if (grid.rows.length === 1 && first.length === 1 && first[0]) return { kind: 'paragraph', cell: first[0] };
  const second = filledCells(grid.rows[1]);
  const titleSpansDown = grid.merges.some((m) => m.row === 0 && m.rowspan > 1);
  if (first.length === 1 && first[0] && second.length >= 2 && !titleSpansDown) {
    const rest: CutGrid = {
      rows: grid.rows.slice(1),
      merges: grid.merges.filter((m) => m.row > 0).map((m) => ({ ...m, row: m.row - 1 })),
    };
    return { kind: 'table', grid: rest, title: first[0] };
  }
  return { kind: 'table', grid };
}

/** The tables (and stray cells) of a sheet's cut grid, in reading order. */
export function sheetBlocks(grid: CutGrid): SheetBlock[] {
  const width = grid.rows[0]?.length ?? 0;
  if (grid.rows.length === 0 || width === 0) return [];
  const occ = new Occupancy(grid, width);
  const rects: Rect[] = [];
  cut(occ, { r0: 0, c0: 0, r1: grid.rows.length - 1, c1: width - 1 }, rects);
  if (rects.length > MAX_BLOCKS) return [block(grid)];
  return rects.map((rect) => block(subGrid(grid, rect)));
}
