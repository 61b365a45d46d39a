/**
 * Ruled tables: horizontal and vertical lines that cross form a connected frame; its distinct line
 * positions are the grid's edges, and an inner edge that is not drawn between two grid cells
 * merges them.
 */
import type { Box, Word } from '../page-model.ts';
import { type Grid, wordsByBand } from './grid.ts';
import { wordLines } from './cell-text.ts';
import { textDrawsEdge } from './lined.ts';
import { covered, type Line, type Lines, SNAP } from './segments.ts';

/** Smallest row height / column width (points): closer edges are one (a double rule). */
const MIN_GAP = 4;
/** Bigger frames are bounded: a page of hatching is not worth the pairwise intersection test. */
const MAX_LINES = 600;

export interface Frame extends Box {
  horizontal: Line[];
  vertical: Line[];
}

function find(parent: number[], i: number): number {
  let root = i;
  while (parent[root] !== root) root = parent[root] as number;
  while (parent[i] !== root) {
    const next = parent[i] as number;
    parent[i] = root;
    i = next;
  }
  return root;
}

/** Groups lines that touch (a horizontal and a vertical crossing or meeting within SNAP). */
export function frames(lines: Lines): Frame[] {
  const { horizontal, vertical } = lines;
  if (horizontal.length + vertical.length > MAX_LINES) return [];
  const n = horizontal.length;
  const parent = Array.from({ length: n + vertical.length }, (_, i) => i);
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      if (v.at >= h.from - SNAP && v.at <= h.to + SNAP && h.at >= v.from - SNAP && h.at <= v.to + SNAP) {
        const a = find(parent, i);
        const b = find(parent, n + j);
        if (a !== b) parent[a] = b;
      }
    });
  });
  const groups = new Map<number, Frame>();
  const group = (i: number): Frame => {
    const root = find(parent, i);
    let f = groups.get(root);
    if (!f) {
      f = { horizontal: [], vertical: [], x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      groups.set(root, f);
    }
    return f;
  };
  horizontal.forEach((h, i) => {
    const f = group(i);
    f.horizontal.push(h);
    f.x0 = Math.min(f.x0, h.from);
    f.x1 = Math.max(f.x1, h.to);
    f.y0 = Math.min(f.y0, h.at);
    f.y1 = Math.max(f.y1, h.at);
  });
  vertical.forEach((v, j) => {
    const f = group(n + j);
    f.vertical.push(v);
    f.y0 = Math.min(f.y0, v.from);
    f.y1 = Math.max(f.y1, v.to);
    f.x0 = Math.min(f.x0, v.at);
    f.x1 = Math.max(f.x1, v.at);
  });
  return [...groups.values()];
}

/** The x of the frame's inner column lines (its borders left out). */
function innerColumns(f: Frame): number[] {
  return f.vertical.filter((v) => v.at > f.x0 + MIN_GAP && v.at < f.x1 - MIN_GAP).map((v) => v.at);
}

/**
 * Whether two frames can be blocks of one table: both split into columns, the columns of one
 * among the other's (a head block may have more), or neither split. A plain box (a figure's
 * frame) over a box split in two (a caption with its label cell) are two things.
 */
function sameColumns(a: Frame, b: Frame): boolean {
  const xa = innerColumns(a);
  const xb = innerColumns(b);
  if (xa.length === 0 || xb.length === 0) return xa.length === xb.length;
  const [few, many] = xa.length <= xb.length ? [xa, xb] : [xb, xa];
  return few.every((x) => many.some((y) => Math.abs(x - y) <= MIN_GAP));
}

/** A band between two stacked frames holds at most this many lines of text to join them (an unpainted row of wrapped cells). */
const MAX_BAND_LINES = 6;

/**
 * Whether the text between two stacked frames is a row of theirs: an unpainted row of wrapped
 * cells between shaded ones, taller than a line space — one row: no line after its first starts
 * an entry in the first column. Its words lie within the frames' left and
 * right edges, none runs across a column line of theirs (running text between two shaded boxes
 * does), and its lines follow one another and the frames at line spacing (no blank stretch: two
 * tables apart).
 */
function rowBetween(p: Frame, f: Frame, words: readonly Word[], size: number): boolean {
  if (f.y0 - p.y1 > (MAX_BAND_LINES + 1) * 1.5 * size) return false;
  const band = words.filter((w) => (w.y0 + w.y1) / 2 > p.y1 && (w.y0 + w.y1) / 2 < f.y0 && w.x1 > p.x0 && w.x0 < p.x1);
  if (band.length === 0) return false;
  const columns = innerColumns(p.vertical.length >= f.vertical.length ? p : f);
  if (band.some((w) => w.x0 < p.x0 - SNAP || w.x1 > p.x1 + SNAP || columns.some((x) => w.x0 < x - 1 && w.x1 > x + 1))) return false;
  // One row: the alternation puts a single unpainted row between two painted ones, so no line
  // after the band's first starts an entry in the first column (several rows there are a
  // table's unpainted body between two shaded heads).
  const firstColumnEnd = Math.min(...columns);
  if (wordLines(band).slice(1).some((l) => l.some((w) => (w.x0 + w.x1) / 2 < firstColumnEnd))) return false;
  const tops = [...band].sort((a, b) => a.y0 - b.y0);
  let reach = p.y1;
  for (const w of tops) {
    if (w.y0 - reach > size) return false;
    reach = Math.max(reach, w.y1);
  }
  return f.y0 - reach <= size;
}

/**
 * Joins frames stacked one above the other with the same left and right edges and at most `gap`
 * between them: a table whose shaded rows alternate with unpainted ones draws no line across the
 * unpainted rows, so each shaded block is a frame of its own. A wider gap joins them when its
 * text is a row of theirs (rowBetween: an unpainted row of wrapped cells).
 */
export function stackFrames(list: Frame[], gap: number, words: readonly Word[] = [], size = 0): Frame[] {
  const sorted = [...list].sort((a, b) => a.y0 - b.y0);
  const out: Frame[] = [];
  for (const f of sorted) {
    const prev = out.find((p) => p.vertical.length > 0 && f.vertical.length > 0 && Math.abs(p.x0 - f.x0) <= MIN_GAP && Math.abs(p.x1 - f.x1) <= MIN_GAP && f.y0 >= p.y1 - SNAP && sameColumns(p, f) && (f.y0 - p.y1 <= gap || (size > 0 && rowBetween(p, f, words, size))));
    if (prev) {
      prev.horizontal.push(...f.horizontal);
      prev.vertical.push(...f.vertical);
      prev.y1 = Math.max(prev.y1, f.y1);
    } else {
      out.push({ ...f, horizontal: [...f.horizontal], vertical: [...f.vertical] });
    }
  }
  return out;
}

/** A gap this many ems wide between two words is a gutter between columns, not a word space. */
const GUTTER_EM = 0.9;
const TEXT = /[\p{L}\p{N}]/u;

/**
 * Whether the band's text is parted at x by a gutter: words stand on both sides of the edge
 * within the two columns beside it, none runs across, and the nearest two are further apart than
 * a word space (dots and other marks left out). Column heads each set over their own column ("2015", "2016", … under a head row
 * drawn without inner lines) are parted so; a head spanning columns is one phrase over them.
 */
function partedAt(words: readonly Word[], x: number, left: number, right: number): boolean {
  // A dot leader's dots are spaced wide; they part nothing.
  const near = words.filter((w) => w.x1 > left && w.x0 < right && TEXT.test(w.text));
  if (near.some((w) => w.x0 < x - 1 && w.x1 > x + 1)) return false;
  const before = near.filter((w) => w.x1 <= x + 1);
  const after = near.filter((w) => w.x0 >= x - 1);
  if (before.length === 0 || after.length === 0) return false;
  const end = before.reduce((a, w) => (w.x1 > a.x1 ? w : a));
  const start = after.reduce((a, w) => (w.x0 < a.x0 ? w : a));
  return start.x0 - end.x1 >= GUTTER_EM * Math.min(end.size, start.size);
}

/** Distinct positions, closer ones than MIN_GAP taken as one (their mean). */
export function edges(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const out: number[] = [];
  let group: number[] = [];
  const flush = (): void => {
    if (group.length > 0) out.push(group.reduce((s, v) => s + v, 0) / group.length);
    group = [];
  };
  for (const v of values) {
    const first = group[0];
    if (first !== undefined && v - first > MIN_GAP) flush();
    group.push(v);
  }
  flush();
  return out;
}

/**
 * The grid of a frame with at least two lines each way. The frame's outer box always bounds it,
 * so tables without side borders (open-sided styles) still get their first and last columns.
 */
export function frameGrid(frame: Frame, words: readonly Word[], stroked: readonly Line[] = frame.vertical): Grid | undefined {
  if (frame.horizontal.length < 2 || frame.vertical.length < 2) return undefined;
  const xs = edges([frame.x0, frame.x1, ...frame.vertical.map((v) => v.at)]);
  const ys = edges([frame.y0, frame.y1, ...frame.horizontal.map((h) => h.at)]);
  if (xs.length < 2 || ys.length < 2) return undefined;
  const slackX = (from: number, to: number): number => Math.max(SNAP * 2, 0.2 * (to - from));
  let byRow: Word[][] | undefined;
  return {
    xs,
    ys,
    vertical: (c, r) => {
      const from = ys[r] as number;
      const to = ys[r + 1] as number;
      if (covered(frame.vertical, xs[c] as number, from, to, slackX(from, to), MIN_GAP)) return true;
      // A band with no vertical line at all (an unshaded row between shaded ones) keeps the
      // columns of the rest of the grid, unless its text runs across the edge. So does a band
      // crossed only by stroked rules when this edge is drawn by shading alone (shaded rows
      // alternating with unpainted ones, a rule after the first column through all of them).
      // A painted band (its own shading's edges) or a stroked column line missing here is a
      // merged cell, unless its text is parted by a gutter right there (a head over each column).
      const x = xs[c] as number;
      const strokedAt = (at: number, y0: number, y1: number): boolean => stroked.some((v) => Math.abs(v.at - at) <= MIN_GAP && v.from < y1 - SNAP && v.to > y0 + SNAP);
      const inBand = frame.vertical.filter((v) => v.at > frame.x0 + MIN_GAP && v.at < frame.x1 - MIN_GAP && v.from < to - SNAP && v.to > from + SNAP);
      const painted = inBand.some((v) => !strokedAt(v.at, from, to));
      const ruled = painted || (inBand.length > 0 && strokedAt(x, frame.y0, frame.y1));
      byRow ??= wordsByBand(words, ys);
      const band = byRow[r] ?? [];
      if (ruled) return partedAt(band, x, xs[c - 1] as number, xs[c + 1] as number);
      // An empty band of a grid drawn by strokes alone, crossed by no column line: one cell
      // across the table (a word processor's merged row), not the columns of the rows around.
      if (band.length === 0 && inBand.length === 0 && frame.vertical.every((v) => strokedAt(v.at, v.from, v.to))) return false;
      return !band.some((w) => w.x0 < x - 1 && w.x1 > x + 1);
    },
    horizontal: (r, c) => {
      const from = xs[c] as number;
      const to = xs[c + 1] as number;
      if (covered(frame.horizontal, ys[r] as number, from, to, slackX(from, to), MIN_GAP)) return true;
      // No rule here: the text may draw the edge (a line on each row's baseline, lined.ts).
      byRow ??= wordsByBand(words, ys);
      return textDrawsEdge(byRow[r - 1] ?? [], byRow[r] ?? [], from, to);
    },
  };
}
