/**
 * A grid of text boxes: a table set as one shaded panel holding a text box per cell, each box
 * painted (a fill) and separated from its neighbours by a gap, with no rule between them (slides
 * and brochures built from text frames). The panel is a frame with no inner lines, and lines of
 * text cannot give the rows: a cell's box is centred in its row, so its lines sit between the
 * lines of the cells beside it. The boxes give the structure instead:
 * - columns: boxes holding text that share their left and right edges (within SNAP), three or
 *   more to a column, at least two columns side by side;
 * - rows: the boxes of the fullest column, one row each (they must not overlap);
 * - a box of a column reaching over several rows' boxes spans those rows;
 * - every word of the panel goes to the cell whose band holds its centre (a box off the columns,
 *   a band painted across the panel, decides nothing).
 * Not a grid of boxes: two text boxes of one column in one row, or many words outside the boxes.
 */
import type { Box, Word } from '../page-model.ts';
import { cellText, centreIn } from './cell-text.ts';
import { bandOf, type GridCell, type LaidOutTable } from './grid.ts';
import { SNAP } from './segments.ts';

/** Boxes to a column, at least: a column of a table, not a pair of side-by-side frames. */
const MIN_COLUMN_BOXES = 3;
/**
 * Share of the panel's words the boxes must hold: most, not all (text shrunk or grown to fit
 * its frame runs over the painted box by a line; the bands place it).
 */
const MIN_WORDS_IN_BOXES = 0.75;

interface TextBox extends Box {
  words: number;
}

function inside(inner: Box, outer: Box): boolean {
  return inner.x0 >= outer.x0 - SNAP && inner.x1 <= outer.x1 + SNAP && inner.y0 >= outer.y0 - SNAP && inner.y1 <= outer.y1 + SNAP;
}

/**
 * Painted boxes inside the panel: not a box holding two or more others (the panel itself, a
 * group's background), nor a box inside another one (a highlight in a cell, a box painted twice).
 */
function panelBoxes(panel: Box, fills: readonly Box[], words: readonly Word[]): TextBox[] {
  const candidates: TextBox[] = [];
  for (const f of fills) {
    if (inside(f, panel)) candidates.push({ x0: f.x0, y0: f.y0, x1: f.x1, y1: f.y1, words: words.filter((w) => centreIn(w, f)).length });
  }
  const cells = candidates.filter((b) => candidates.filter((o) => o !== b && inside(o, b)).length < 2);
  return cells.filter((b, i) => !cells.some((o, j) => j !== i && inside(b, o) && (!inside(o, b) || j < i)));
}

/** Columns of boxes sharing both vertical edges, left to right; undefined when they overlap. */
function boxColumns(boxes: readonly TextBox[]): TextBox[][] | undefined {
  const groups: TextBox[][] = [];
  for (const b of boxes) {
    const group = groups.find((g) => Math.abs((g[0] as TextBox).x0 - b.x0) <= SNAP && Math.abs((g[0] as TextBox).x1 - b.x1) <= SNAP);
    if (group) group.push(b);
    else groups.push([b]);
  }
  const columns = groups.filter((g) => g.length >= MIN_COLUMN_BOXES).sort((a, b) => (a[0] as TextBox).x0 - (b[0] as TextBox).x0);
  for (let i = 1; i < columns.length; i++) {
    if (((columns[i - 1] as TextBox[])[0] as TextBox).x1 > ((columns[i] as TextBox[])[0] as TextBox).x0 + SNAP) return undefined;
  }
  return columns.length >= 2 ? columns : undefined;
}

/** Band edges between consecutive intervals: the panel's edge, the middle of each gap, the panel's edge. */
function bandEdges(intervals: readonly [number, number][], from: number, to: number): number[] {
  const edges = [from];
  for (let i = 1; i < intervals.length; i++) edges.push(((intervals[i - 1] as [number, number])[1] + (intervals[i] as [number, number])[0]) / 2);
  edges.push(to);
  return edges;
}

/** Indexes of the intervals [a, b] overlaps, or the one whose band holds its middle. */
function spanned(intervals: readonly [number, number][], edges: readonly number[], a: number, b: number): [number, number] | undefined {
  let first = -1;
  let last = -1;
  intervals.forEach(([x, y], i) => {
    if (Math.min(b, y) - Math.max(a, x) > SNAP) {
      if (first < 0) first = i;
      last = i;
    }
  });
  if (first >= 0) return [first, last];
  const mid = (a + b) / 2;
  for (let i = 0; i + 1 < edges.length; i++) if (mid >= (edges[i] as number) && mid <= (edges[i + 1] as number)) return [i, i];
  return undefined;
}

/** The panel's table laid out from its text boxes, or undefined when they make no grid. */
export function boxGridTable(panel: Box, fills: readonly Box[], words: readonly Word[]): LaidOutTable | undefined {
  if (words.length === 0) return undefined;
  const columns = boxColumns(panelBoxes(panel, fills, words));
  if (!columns || columns.some((c) => c.filter((b) => b.words > 0).length < 2)) return undefined;
  const inBoxes = columns.flat().reduce((n, b) => n + b.words, 0);
  if (inBoxes < MIN_WORDS_IN_BOXES * words.length) return undefined;
  for (const column of columns) {
    column.sort((a, b) => a.y0 - b.y0);
    for (let i = 1; i < column.length; i++) if ((column[i - 1] as TextBox).y1 > (column[i] as TextBox).y0 + SNAP) return undefined;
  }
  const fullest = [...columns].sort((a, b) => b.length - a.length)[0] as TextBox[];
  const rowIntervals = fullest.map((b): [number, number] => [b.y0, b.y1]);
  const colIntervals = columns.map((c): [number, number] => [(c[0] as TextBox).x0, (c[0] as TextBox).x1]);
  const ys = bandEdges(rowIntervals, panel.y0, panel.y1);
  const xs = bandEdges(colIntervals, panel.x0, panel.x1);
  const rows = rowIntervals.length;
  const cols = colIntervals.length;

  const slots: (GridCell | undefined)[] = new Array<GridCell | undefined>(rows * cols);
  const cells: GridCell[] = [];
  const place = (row: number, col: number, rowSpan: number): GridCell | undefined => {
    for (let r = row; r < row + rowSpan; r++) if (slots[r * cols + col]) return undefined;
    const cell: GridCell = { row, col, rowSpan, colSpan: 1, x0: xs[col] as number, x1: xs[col + 1] as number, y0: ys[row] as number, y1: ys[row + rowSpan] as number, words: [], text: '' };
    for (let r = row; r < row + rowSpan; r++) slots[r * cols + col] = cell;
    cells.push(cell);
    return cell;
  };
  // Each column's own boxes, in their rows: a word goes to the box of its column nearest it
  // (text grown past its box stays with it, however the next column's boxes stand).
  const owners: { edges: number[]; cells: GridCell[] }[] = [];
  for (const [c, column] of columns.entries()) {
    const own: GridCell[] = [];
    for (const b of column) {
      const r = spanned(rowIntervals, ys, b.y0, b.y1);
      const cell = r ? place(r[0], c, r[1] - r[0] + 1) : undefined;
      // Two boxes of a column in one row: frames laid over each other, not a grid.
      if (!cell) return undefined;
      own.push(cell);
    }
    owners.push({ edges: bandEdges(column.map((b): [number, number] => [b.y0, b.y1]), Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY), cells: own });
  }
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (!slots[r * cols + c]) place(r, c, 1);
  for (const w of words) {
    const owner = owners[bandOf(xs, (w.x0 + w.x1) / 2)];
    owner?.cells[bandOf(owner.edges, (w.y0 + w.y1) / 2)]?.words.push(w);
  }
  for (const cell of cells) cell.text = cellText(cell.words);
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  return { rows, cols, cells };
}
