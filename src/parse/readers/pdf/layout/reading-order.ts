/**
 * Reading order by recursive XY-cut (Nagy & Seth 1984; Ha, Haralick & Phillips 1995): a region
 * of boxes is cut along the whitespace valleys of its projections and each part read in turn.
 *
 * Which cut first decides columns versus rows:
 *  - a wide horizontal valley (a gap of several lines across the whole region) separates stacked
 *    regions — a title above the columns, a full-width figure or table between two column sets —
 *    and is cut first, so a spanning title reads before the columns under it;
 *  - otherwise a vertical valley (a gutter running the region's whole height) means columns:
 *    cut there, so a two- or three-column page reads column by column; a gutter that runs
 *    between the lines of running text though a figure's labels cross it is one too
 *    (textGutter);
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
  /** A line's baseline (undefined for a table or an image). */
  baseline: (item: Box) => number | undefined;
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

/** A line stands on another's row when their baselines are within this many ems. */
const ROW_BASELINE_EM = 0.2;
/** Columns of their own: at most this share of the shorter one's lines stand on a row of the other's… */
const ROW_SHARE = 0.5;
/** …while at least this share stand beside one of its lines (their heights overlap). */
const BESIDE_SHARE = 0.5;
/** A column running on baselines of its own holds at least this many lines (a table's head row of wrapped cells, centred, holds fewer). */
const COLUMN_LINES = 5;

/**
 * The cells of a table's row stand on one baseline, however short they are; two columns of text
 * set side by side (a list of short links beside short heads and code) stand beside each other
 * on baselines of their own, each column's spacing its own. Such columns: of the two parts a
 * single gutter makes (three parts or more of short lines are a grid: a timetable, a form), the one with fewer lines (COLUMN_LINES or more) has fewer than ROW_SHARE of them on the
 * baseline of a line of the other (within ROW_BASELINE_EM), yet BESIDE_SHARE or more beside one
 * (their heights overlapping). Lines that stand one under another (a listing's indented lines
 * between its outer ones) are rows, as before. Items without a baseline (tables, images) are
 * not counted.
 */
function ownBaselines<T extends Box>(parts: readonly T[][], options: CutOptions): boolean {
  // Three parts or more of short lines are a grid (a timetable, a form), whatever their rows.
  if (parts.length !== 2) return false;
  const tolerance = ROW_BASELINE_EM * options.em;
  const lines = parts.map((part) => part.filter((b) => options.baseline(b) !== undefined));
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = (lines[i - 1] as T[]).length <= (lines[i] as T[]).length ? [lines[i - 1] as T[], lines[i] as T[]] : [lines[i] as T[], lines[i - 1] as T[]];
    if (a.length < COLUMN_LINES) continue;
    const onRow = a.filter((x) => b.some((y) => Math.abs((options.baseline(x) as number) - (options.baseline(y) as number)) <= tolerance)).length;
    const beside = a.filter((x) => b.some((y) => Math.min(x.y1, y.y1) - Math.max(x.y0, y.y0) > 0)).length;
    if (onRow < ROW_SHARE * a.length && beside >= BESIDE_SHARE * a.length) return true;
  }
  return false;
}

/** Every column the vertical valleys would make holds cell-sized lines, not on baselines of its own. */
function looksTabular<T extends Box>(items: T[], columns: readonly Valley[], options: CutOptions): boolean {
  if (items.length < 6) return false;
  const parts = splitAt(
    items,
    columns.map((v) => v.at),
    'x',
  );
  if (parts.every((part) => medianWords(part, options) <= CELL_WORDS) && !ownBaselines(parts, options)) return true;
  // A column of numbers only (page numbers of a table of contents, amounts) is a table's.
  return parts.some((part) => part.length >= 3 && part.every(options.numeric));
}

/**
 * Numbers set flush right at the end of lines (a display formula's number "(3.17)", an amount
 * after its label): the rightmost part the vertical valleys make holds numbers only, each on the
 * height of a line of the part before it. They end those lines, so the region reads row by row.
 */
function numberedRows<T extends Box>(items: T[], columns: readonly Valley[], options: CutOptions): boolean {
  const parts = splitAt(
    items,
    columns.map((v) => v.at),
    'x',
  );
  if (parts.length < 2) return false;
  const last = parts[parts.length - 1] as T[];
  const before = parts[parts.length - 2] as T[];
  return last.every((n) => options.numeric(n) && before.some((b) => !options.numeric(b) && Math.min(b.y1, n.y1) - Math.max(b.y0, n.y0) > 0.5 * Math.min(b.y1 - b.y0, n.y1 - n.y0)));
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

/** Rows bounded: finding columns above or below a spanning line tries each row cut. */
const MAX_ROWS_TRIED = 80;

/**
 * A region without a gutter of its own may still hold columns over most of its height, with a
 * full-width line (a spanning paragraph, a caption) above or below them set at ordinary line
 * spacing. The largest run of rows from the top (or from the bottom) that has a gutter, at
 * least three rows, is cut off as a part; no such run, no parts.
 */
function columnsBeside<T extends Box>(items: T[], rows: readonly Valley[], em: number): T[][] {
  if (rows.length < 3 || rows.length > MAX_ROWS_TRIED) return [];
  const hasGutter = (part: T[]) =>
    valleys(
      part.map((b) => [b.x0, b.x1]),
      GUTTER_EM * em,
    ).length > 0;
  const centre = (b: Box) => (b.y0 + b.y1) / 2;
  for (let k = rows.length - 1; k >= 2; k--) {
    const at = (rows[k] as Valley).at;
    const top = items.filter((b) => centre(b) < at);
    if (hasGutter(top)) return [top, items.filter((b) => centre(b) >= at)];
  }
  for (let k = 0; k < rows.length - 2; k++) {
    const at = (rows[k] as Valley).at;
    const bottom = items.filter((b) => centre(b) > at);
    if (hasGutter(bottom)) return [items.filter((b) => centre(b) <= at), bottom];
  }
  return [];
}

/**
 * A region with no valley at all: columns whose lines do not line up (offset baselines) with a
 * few lines crossing the gutter. The gutter is looked for among the narrower items; the items
 * crossing it split the region into bands (each band then reads column by column).
 */
function aroundSpanning<T extends Box>(items: T[], em: number): T[][] {
  let left = Infinity;
  let right = -Infinity;
  for (const b of items) {
    if (b.x0 < left) left = b.x0;
    if (b.x1 > right) right = b.x1;
  }
  const narrow = items.filter((b) => b.x1 - b.x0 < 0.6 * (right - left));
  if (narrow.length < 4) return [];
  const gutters = valleys(
    narrow.map((b) => [b.x0, b.x1]),
    GUTTER_EM * em,
  );
  const gutter = gutters.reduce<Valley | undefined>((best, v) => (best === undefined || v.width > best.width ? v : best), undefined);
  if (!gutter) return [];
  const lo = gutter.at - gutter.width / 2;
  const hi = gutter.at + gutter.width / 2;
  const spanning = items.filter((b) => b.x0 < lo && b.x1 > hi).sort((a, b) => a.y0 - b.y0);
  // Only a few lines may cross a gutter; more, and it is no gutter.
  if (spanning.length === 0 || spanning.length > 0.25 * items.length) return [];
  const parts: T[][] = [[]];
  for (const s of spanning) parts.push([s], []);
  const spans = new Set<T>(spanning);
  for (const b of items) {
    if (spans.has(b)) continue;
    const centre = (b.y0 + b.y1) / 2;
    let i = 0;
    while (i < spanning.length && centre > ((spanning[i] as T).y0 + (spanning[i] as T).y1) / 2) i++;
    parts[2 * i]?.push(b);
  }
  return parts.filter((p) => p.length > 0);
}

/** A line of at least this many words is running text (a chart's labels and axis ticks are shorter). */
const PROSE_WORDS = 4;
/** Each column of running text beside a gutter holds at least this many lines. */
const PROSE_LINES = 3;

/**
 * Columns interrupted by a figure: a chart in one column whose labels or ticks reach into the
 * gutter closes the whitespace valley of the region, yet the gutter still runs between the lines
 * of running text on both sides. So the gutter is looked for among the lines of running text
 * only (PROSE_WORDS or more); it holds when each side has PROSE_LINES of them and the two sides
 * stand side by side. What else crosses it (the figure's labels) belongs to the side where it
 * sits in a hole of the running text, the space the figure took out of its column: the side
 * whose nearest line of text is further away vertically. Anything crossing above or below the
 * columns (a title, a footer), reaching well into both (a table across the page between
 * them), or standing where both columns leave a hole (a heading centred across the page) is
 * not a figure inside one: then no parts, and the other cuts decide.
 */
function textGutter<T extends Box>(items: T[], options: CutOptions): T[][] {
  const prose = items.filter((b) => options.words(b) >= PROSE_WORDS);
  if (prose.length < 2 * PROSE_LINES) return [];
  const gutters = valleys(
    prose.map((b) => [b.x0, b.x1]),
    GUTTER_EM * options.em,
  );
  for (const gutter of gutters.sort((a, b) => b.width - a.width)) {
    const lo = gutter.at - gutter.width / 2;
    const hi = gutter.at + gutter.width / 2;
    const left = prose.filter((b) => b.x1 <= lo);
    const right = prose.filter((b) => b.x0 >= hi);
    if (left.length < PROSE_LINES || right.length < PROSE_LINES) continue;
    const top = Math.max(Math.min(...left.map((b) => b.y0)), Math.min(...right.map((b) => b.y0)));
    const bottom = Math.min(Math.max(...left.map((b) => b.y1)), Math.max(...right.map((b) => b.y1)));
    // Side by side: the two columns of text share a stretch of the page's height.
    if (bottom - top < PROSE_LINES * options.em) continue;
    const distance = (side: readonly T[], b: T) => side.reduce((d, l) => Math.min(d, Math.max(0, l.y0 - b.y1, b.y0 - l.y1)), Infinity);
    const leftX0 = Math.min(...left.map((b) => b.x0));
    const rightX1 = Math.max(...right.map((b) => b.x1));
    // Reaching well into the text of both columns (a table or figure across the page): it parts
    // the columns above it from those below, it does not belong to one of them.
    const spans = (b: T) => Math.min(b.x1, lo) - Math.max(b.x0, leftX0) > 0.25 * (lo - leftX0) && Math.min(b.x1, rightX1) - Math.max(b.x0, hi) > 0.25 * (rightX1 - hi);
    const parts: [T[], T[]] = [[], []];
    let inside = true;
    for (const b of items) {
      if (b.x1 <= lo) parts[0].push(b);
      else if (b.x0 >= hi) parts[1].push(b);
      else if (spans(b) || b.y0 < top - options.em || b.y1 > bottom + options.em) {
        inside = false;
        break;
      } else {
        // One column's text runs on beside it, the other's leaves a hole: a figure in that
        // column. Holes on both sides (a heading set across the page) belong to neither.
        const dl = distance(left, b);
        const dr = distance(right, b);
        if (Math.min(dl, dr) > 0.5 * options.em || Math.max(dl, dr) < options.em) {
          inside = false;
          break;
        }
        parts[dl > dr ? 0 : 1].push(b);
      }
    }
    if (inside) return parts.filter((p) => p.length > 0);
  }
  return [];
}

/** Columns share this many ems of height at least, unless lines of theirs share a baseline band. */
const SIDE_BY_SIDE_EM = 3;

function standSideBySide<T extends Box>(a: readonly T[], b: readonly T[], em: number): boolean {
  let aTop = Infinity;
  let aBottom = -Infinity;
  let bTop = Infinity;
  let bBottom = -Infinity;
  for (const x of a) {
    if (x.y0 < aTop) aTop = x.y0;
    if (x.y1 > aBottom) aBottom = x.y1;
  }
  for (const x of b) {
    if (x.y0 < bTop) bTop = x.y0;
    if (x.y1 > bBottom) bBottom = x.y1;
  }
  if (Math.min(aBottom, bBottom) - Math.max(aTop, bTop) >= SIDE_BY_SIDE_EM * em) return true;
  return a.some((x) => b.some((y) => Math.min(x.y1, y.y1) - Math.max(x.y0, y.y0) > 0));
}

/**
 * Columns stand side by side: the two parts on either side of each vertical valley share a
 * stretch of height (SIDE_BY_SIDE_EM), or some line of one shares height with a line of the
 * other. Lines set one under another at different indents (a short line ending a paragraph, a
 * display formula set in from both margins, the next paragraph's short first line) leave a
 * valley in the x projection too, but nothing stands beside anything across it: such a region
 * is no set of columns, and reads as rows, top to bottom. (Dropping only the valleys that fail,
 * keeping the others, was tried: the checking half fell, bench:pdf fast 0.9078 → 0.9077.)
 */
function sideBySide<T extends Box>(items: T[], gaps: readonly Valley[], em: number): boolean {
  const parts = splitAt(
    items,
    gaps.map((v) => v.at),
    'x',
  );
  for (let i = 1; i < parts.length; i++) if (!standSideBySide(parts[i - 1] as T[], parts[i] as T[], em)) return false;
  return true;
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
  const gaps = valleys(
    items.map((b) => [b.x0, b.x1]),
    GUTTER_EM * em,
  );
  // A vertical valley between lines that never stand side by side is no gutter (short lines
  // and a display formula indented between them): those are rows.
  const columns = gaps.length > 0 && sideBySide(items, gaps, em) ? gaps : [];
  const widestRow = rows.reduce((m, v) => Math.max(m, v.width), 0);
  let parts: T[][] = [];
  if (rows.length > 0 && columns.length > 0 && widestRow < STACK_GAP_EM * em && (looksTabular(items, columns, options) || numberedRows(items, columns, options))) {
    parts = splitAt(
      items,
      rows.map((v) => v.at),
      'y',
    );
  } else if (columns.length === 0 && widestRow < STACK_GAP_EM * em && (parts = textGutter(items, options)).length > 1) {
    // Columns whose gutter a figure's labels cross: cut along the gutter of the running text.
  } else if (columns.length === 0 && widestRow < STACK_GAP_EM * em && (parts = columnsBeside(items, rows, em)).length > 1) {
    // Columns above (or below) a full-width line with no wider gap between: cut them off first.
  } else if (rows.length > 0 && (columns.length === 0 || widestRow >= STACK_GAP_EM * em)) {
    // Stacked regions: cut only at the gaps wide enough to part regions (a paragraph gap that
    // happens to line up across two columns is no region's edge). Plain rows: at the valleys
    // nearly as wide as the widest.
    const least = widestRow >= STACK_GAP_EM * em ? STACK_GAP_EM * em : widestRow * 0.7;
    const cuts = rows.filter((v) => v.width >= least).map((v) => v.at);
    parts = splitAt(items, cuts, 'y');
  } else if (columns.length > 0) {
    parts = splitAt(
      items,
      columns.map((v) => v.at),
      'x',
    );
  } else {
    parts = aroundSpanning(items, em);
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
