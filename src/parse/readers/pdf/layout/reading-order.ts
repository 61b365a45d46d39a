/**
 * Reading order by recursive XY-cut (Nagy & Seth 1984; Ha, Haralick & Phillips 1995): a region
 * of boxes is cut along the whitespace valleys of its projections and each part read in turn.
 *
 * Which cut first decides columns versus rows:
 *  - a wide horizontal valley (a gap of several lines across the whole region) separates stacked
 *    regions — a title above the columns, a full-width figure or table between two column sets —
 *    and is cut first, so a spanning title reads before the columns under it;
 *  - otherwise a vertical valley (a gutter running the region's whole height) means columns:
 *    cut there, so a two- or three-column page reads column by column;
 *  - otherwise the region is rows: cut at the widest horizontal valleys, top to bottom.
 * A region with no valley left is read top to bottom, left to right.
 */
import type { Box } from '../page-model.ts';

interface Valley {
  at: number;
  width: number;
}

/** Gaps between the intervals [lo, hi] (sorted by lo), as valleys. */
function valleys(spans: [number, number][], minWidth: number): Valley[] {
  spans.sort((a, b) => a[0] - b[0]);
  const out: Valley[] = [];
  let reach = -Infinity;
  for (const [lo, hi] of spans) {
    if (reach > -Infinity && lo - reach >= minWidth) out.push({ at: (lo + reach) / 2, width: lo - reach });
    if (hi > reach) reach = hi;
  }
  return out;
}

export interface CutOptions {
  /** The typical font size of the region (points): valleys are measured in it. */
  em: number;
  /** How many words an item holds (a line's words; 0 for a table or an image). */
  words: (item: Box) => number;
  /** The item is a number (a page number in a table of contents, an amount). */
  numeric: (item: Box) => boolean;
}

/**
 * A region whose lines are mostly one to three words (cells of a borderless table, a form's
 * labels and values), or with a column of numbers only, reads row by row: its vertical valleys
 * are between cells, not columns of running text.
 */
const CELL_WORDS = 3;

function medianWords<T extends Box>(items: readonly T[], options: CutOptions): number {
  const counts = items.map(options.words).sort((a, b) => a - b);
  return counts[Math.floor(counts.length / 2)] ?? 0;
}

/** Every column the vertical valleys would make holds cell-sized lines. */
function looksTabular<T extends Box>(items: T[], columns: readonly Valley[], options: CutOptions): boolean {
  if (items.length < 6) return false;
  const parts = splitAt(
    items,
    columns.map((v) => v.at),
    'x',
  );
  if (parts.every((part) => medianWords(part, options) <= CELL_WORDS)) return true;
  // A column of numbers only (page numbers of a table of contents, amounts) is a table's.
  return parts.some((part) => part.length >= 3 && part.every(options.numeric));
}

/** A horizontal valley at least this many ems high separates stacked regions. */
const STACK_GAP_EM = 3;
/** A vertical valley at least this many ems wide is a gutter. */
const GUTTER_EM = 0.6;

function splitAt<T extends Box>(items: T[], cuts: number[], axis: 'x' | 'y'): T[][] {
  const parts: T[][] = cuts.map(() => []);
  parts.push([]);
  for (const item of items) {
    const centre = axis === 'x' ? (item.x0 + item.x1) / 2 : (item.y0 + item.y1) / 2;
    let i = 0;
    while (i < cuts.length && centre > (cuts[i] as number)) i++;
    parts[i]?.push(item);
  }
  return parts.filter((p) => p.length > 0);
}

function cut<T extends Box>(items: T[], options: CutOptions, out: T[], depth: number): void {
  if (items.length <= 1 || depth > 60) {
    out.push(...items.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0));
    return;
  }
  const em = options.em;
  const rows = valleys(
    items.map((b) => [b.y0, b.y1]),
    0.01,
  );
  const columns = valleys(
    items.map((b) => [b.x0, b.x1]),
    GUTTER_EM * em,
  );
  const widestRow = rows.reduce((m, v) => Math.max(m, v.width), 0);
  let parts: T[][];
  if (rows.length > 0 && columns.length > 0 && widestRow < STACK_GAP_EM * em && looksTabular(items, columns, options)) {
    parts = splitAt(
      items,
      rows.map((v) => v.at),
      'y',
    );
  } else if (rows.length > 0 && (columns.length === 0 || widestRow >= STACK_GAP_EM * em)) {
    // Stacked regions (or plain rows): cut at the valleys nearly as wide as the widest.
    const cuts = rows.filter((v) => v.width >= widestRow * 0.7).map((v) => v.at);
    parts = splitAt(items, cuts, 'y');
  } else if (columns.length > 0) {
    parts = splitAt(
      items,
      columns.map((v) => v.at),
      'x',
    );
  } else {
    out.push(...items.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0));
    return;
  }
  if (parts.length <= 1) {
    out.push(...items.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0));
    return;
  }
  for (const part of parts) cut(part, options, out, depth + 1);
}

/** The items in reading order. */
export function readingOrder<T extends Box>(items: readonly T[], options: CutOptions): T[] {
  const out: T[] = [];
  cut([...items], options, out, 0);
  return out;
}
