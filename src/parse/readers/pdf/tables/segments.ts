/**
 * Ruling lines as a table finder needs them: every rule and every edge of a filled box (shaded
 * cells draw their grid with fills instead of strokes), snapped to a common coordinate and joined
 * where a line is drawn as several collinear pieces.
 */
import type { Box, PageModel } from '../page-model.ts';

/** Coordinates this close (points) are one line: stroke widths and rounding differ by about that. */
export const SNAP = 2;
/** Collinear pieces separated by less than this (points) are one line (a grid drawn cell by cell). */
const JOIN_GAP = 3;
/** More pieces than this is a drawing (a chart, a map), not a table: the finder gives up early. */
const MAX_SEGMENTS = 4000;

/** A horizontal line at `at` from `from` to `to` (x), or a vertical one at x = `at` from y `from` to `to`. */
export interface Line {
  at: number;
  from: number;
  to: number;
  /** How thick the line is drawn (points; the heaviest of its pieces); 0 for a shaded box's edge. */
  weight?: number;
}

export interface Lines {
  horizontal: Line[];
  vertical: Line[];
  /** The vertical lines drawn as strokes (ruling lines), without the edges of filled boxes. */
  strokedVertical: Line[];
}

/** Sorts by `at`, groups runs closer than SNAP, and joins each group's overlapping or near pieces. */
function merge(pieces: Line[]): Line[] {
  pieces.sort((a, b) => a.at - b.at);
  const out: Line[] = [];
  let group: Line[] = [];
  const flush = (): void => {
    if (group.length === 0) return;
    const at = group.reduce((s, p) => s + p.at, 0) / group.length;
    group.sort((a, b) => a.from - b.from);
    let cur: Line | undefined;
    for (const p of group) {
      if (cur && p.from <= cur.to + JOIN_GAP) {
        cur.to = Math.max(cur.to, p.to);
        cur.weight = Math.max(cur.weight ?? 0, p.weight ?? 0);
      } else {
        cur = { at, from: p.from, to: p.to, weight: p.weight ?? 0 };
        out.push(cur);
      }
    }
    group = [];
  };
  for (const p of pieces) {
    const first = group[0];
    if (first && p.at - first.at > SNAP) flush();
    group.push(p);
  }
  flush();
  return out;
}

/** More filled boxes than this are a drawing's, not cell shading: their edges are left out. */
const MAX_FILLS = 400;

function inside(a: Box, b: Box): boolean {
  return a.x0 >= b.x0 - 1 && a.x1 <= b.x1 + 1 && a.y0 >= b.y0 - 1 && a.y1 <= b.y1 + 1;
}

/**
 * Filled boxes that are not inside another: a cell's shading, not the highlight a word processor
 * paints behind each line of text in that cell (whose edges would split the cell into rows).
 */
function outerFills(fills: readonly Box[]): Box[] {
  if (fills.length > MAX_FILLS) return [];
  const area = (b: Box): number => (b.x1 - b.x0) * (b.y1 - b.y0);
  const bySize = [...fills].sort((a, b) => area(b) - area(a));
  const kept: Box[] = [];
  for (const f of bySize) if (!kept.some((k) => inside(f, k))) kept.push(f);
  return kept;
}

function edgesOfFill(box: Box, horizontal: Line[], vertical: Line[]): void {
  horizontal.push({ at: box.y0, from: box.x0, to: box.x1 }, { at: box.y1, from: box.x0, to: box.x1 });
  vertical.push({ at: box.x0, from: box.y0, to: box.y1 }, { at: box.x1, from: box.y0, to: box.y1 });
}

/** The page's ruling lines, merged; undefined when there are too many pieces to be a table's. */
export function pageLines(page: PageModel): Lines | undefined {
  if (page.rules.length + 4 * page.fills.length > MAX_SEGMENTS) return undefined;
  const horizontal: Line[] = [];
  const vertical: Line[] = [];
  for (const r of page.rules) {
    if (r.orientation === 'horizontal') horizontal.push({ at: (r.y0 + r.y1) / 2, from: r.x0, to: r.x1, weight: r.y1 - r.y0 });
    else vertical.push({ at: (r.x0 + r.x1) / 2, from: r.y0, to: r.y1, weight: r.x1 - r.x0 });
  }
  const strokedVertical = merge(vertical.map((v) => ({ ...v })));
  for (const f of outerFills(page.fills)) edgesOfFill(f, horizontal, vertical);
  return { horizontal: merge(horizontal), vertical: merge(vertical), strokedVertical };
}

/** Whether the lines of `along` cover [from, to] at `at` (± tolerance) except for gaps of at most `slack` in total. */
export function covered(along: readonly Line[], at: number, from: number, to: number, slack: number, tolerance = SNAP): boolean {
  let missing = to - from;
  for (const l of along) {
    if (Math.abs(l.at - at) > tolerance) continue;
    const overlap = Math.min(to, l.to) - Math.max(from, l.from);
    if (overlap > 0) missing -= overlap;
  }
  return missing <= slack;
}
