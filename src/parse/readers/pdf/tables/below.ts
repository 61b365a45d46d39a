/**
 * The row below a table of shaded rows: where the shading alternates (painted rows with
 * unpainted ones between them), a table can end on an unpainted row (a total under the last
 * painted one) that no edge closes. The line right under the frame, within a line space, is
 * that row when each of its words falls inside one of the grid's columns, it fills two or
 * more of them, and its first column holds a label; lines right under it with nothing in the
 * first column and every word in a column the row fills are its wrapped cells. A ruled table's
 * closing rule, or a note under the table (one column, or running across the columns), ends it
 * as before.
 */
import type { Box, Word } from '../page-model.ts';
import { centreIn, wordLines } from './cell-text.ts';
import { fillCells, type GridCell } from './grid.ts';
import { SNAP } from './segments.ts';

/**
 * Whether fills cover the band y0..y1 from the table's left edge over a quarter of its width or
 * more: one fill across the row, or one per cell side by side (a browser paints each cell's
 * background), touching.
 */
function painted(fills: readonly Box[], x0: number, x1: number, y0: number, y1: number): boolean {
  const band = fills.filter((f) => f.y0 <= y0 + SNAP && f.y1 >= y1 - SNAP && f.x1 > x0 + SNAP).sort((a, b) => a.x0 - b.x0);
  let reach = x0;
  for (const f of band) {
    if (f.x0 > reach + SNAP) break;
    reach = Math.max(reach, f.x1);
  }
  return reach >= x0 + 0.25 * (x1 - x0);
}

/** Whether the grid's rows alternate painted and unpainted, its last row painted (or it is two rows painted each on its own). */
function alternating(fills: readonly Box[], xs: readonly number[], ys: readonly number[]): boolean {
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const rows = ys.slice(1).map((y, i) => painted(fills, x0, x1, ys[i] as number, y));
  if (rows.length >= 3) return rows[rows.length - 1] === true && rows.some((p) => !p);
  // Two painted rows, each by fills of its own (a head and the first row of a zebra table, the
  // next row unpainted): the shading marks rows, not a box round the table.
  const own = (y0: number, y1: number) => fills.filter((f) => f.y0 <= y0 + SNAP && f.y1 >= y1 - SNAP && f.x1 > x0 + SNAP && f.x0 < x1 - SNAP).every((f) => f.y0 >= y0 - SNAP && f.y1 <= y1 + SNAP);
  return rows.length === 2 && rows.every(Boolean) && ys.slice(1).every((y, i) => own(ys[i] as number, y));
}

export function rowBelow(words: readonly Word[], fills: readonly Box[], frame: Box, xs: readonly number[], ys: readonly number[], row: number, size: number): GridCell[] | undefined {
  if (!alternating(fills, xs, ys)) return undefined;
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const line = wordLines(words.filter((w) => centreIn(w, { x0, x1, y0: frame.y1, y1: frame.y1 + 2 * size })))[0];
  if (!line || Math.min(...line.map((w) => w.y0)) - frame.y1 > size) return undefined;
  const column = (w: Word): number => xs.findIndex((x, i) => i + 1 < xs.length && w.x0 >= x - 1 && w.x1 <= (xs[i + 1] as number) + 1);
  const columns = line.map(column);
  if (columns.some((c) => c < 0) || new Set(columns).size < 2 || !columns.includes(0)) return undefined;
  // Its cells may wrap: a line right under it, at line spacing, with nothing in the first
  // column, every word inside a column the row fills and nothing beside the table at its
  // height, goes on with the row (not a row of its own, nor the text after the table).
  const rowLines = [line];
  let bottom = Math.max(...line.map((w) => w.y1));
  for (;;) {
    const next = wordLines(words.filter((w) => (w.y0 + w.y1) / 2 > bottom && (w.y0 + w.y1) / 2 < bottom + 2 * size && w.x1 > x0 - size && w.x0 < x1 + size))[0];
    if (!next || Math.min(...next.map((w) => w.y0)) - bottom > 0.6 * size) break;
    const at = next.map(column);
    if (at.some((c) => c <= 0 || !columns.includes(c))) break;
    rowLines.push(next);
    bottom = Math.max(...next.map((w) => w.y1));
  }
  const y1 = bottom + 1;
  const cells: GridCell[] = xs.slice(0, -1).map((x, c) => ({ row: 0, col: c, rowSpan: 1, colSpan: 1, x0: x, x1: xs[c + 1] as number, y0: frame.y1, y1, words: [], text: '' }));
  fillCells(cells, rowLines.flat(), { xs, ys: [frame.y1, y1] });
  return cells.map((c) => ({ ...c, row }));
}
