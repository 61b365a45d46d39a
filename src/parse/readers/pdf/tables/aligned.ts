/**
 * Tables whose columns are drawn by alignment, not lines: booktabs style (a top rule, a rule under
 * the header, a bottom rule), tables ruled between rows only, and borderless ones. Columns are the
 * whitespace gutters that run through every line with more than one text chunk; rows are the
 * bands between horizontal rules when the table rules its rows, otherwise text lines, a line that
 * starts with an empty first column and sits at line spacing under the previous one continuing it
 * (a multi-line cell), and so does a row label wrapped over lines (labelContinues).
 */
import type { Box, Word } from '../page-model.ts';
import { wordLines } from './cell-text.ts';
import { compact, fillCells, gridCells, type Grid, type LaidOutTable, mergeHeadOnlyColumns, wordsByBand } from './grid.ts';
import { covered, type Line, SNAP } from './segments.ts';

/** A run of words in a line with gaps narrower than a gutter. */
interface Chunk extends Box {
  words: Word[];
}

export interface TextLine extends Box {
  chunks: Chunk[];
  words: Word[];
}

/** A gap at least this wide (in ems of the text) separates cells; word spaces are about a third of it. */
const GUTTER_EM = 0.9;
/** Lines of column heads, at most, above a table's first full row. */
const MAX_HEAD_LINES = 6;

export function textLines(words: readonly Word[], size: number): TextLine[] {
  return wordLines(words).map((line) => {
    const chunks: Chunk[] = [];
    let cur: Chunk | undefined;
    for (const w of line) {
      if (cur && w.x0 - cur.x1 < GUTTER_EM * Math.min(size, w.size)) {
        cur.words.push(w);
        cur.x1 = Math.max(cur.x1, w.x1);
        cur.y0 = Math.min(cur.y0, w.y0);
        cur.y1 = Math.max(cur.y1, w.y1);
      } else {
        cur = { x0: w.x0, x1: w.x1, y0: w.y0, y1: w.y1, words: [w] };
        chunks.push(cur);
      }
    }
    return {
      chunks,
      words: line,
      x0: Math.min(...chunks.map((c) => c.x0)),
      x1: Math.max(...chunks.map((c) => c.x1)),
      y0: Math.min(...chunks.map((c) => c.y0)),
      y1: Math.max(...chunks.map((c) => c.y1)),
    };
  });
}

/**
 * Column edges between the chunks of the lines that have several: x ranges no such chunk covers,
 * except a few lines' (one in eight may run across: a head spanning two columns). Lines of one
 * chunk (a title, a spanning head, a wrapped cell's next line) do not decide columns. An edge
 * hugs the column on its right, so a longer cell on the left (in a line of one chunk) stays left.
 */
function gutters(lines: readonly TextLine[], size: number): number[] {
  const multi = lines.filter((l) => l.chunks.length > 1);
  if (multi.length < 2) return [];
  const allowance = Math.floor(multi.length / 8);
  const events: [number, number][] = [];
  for (const l of multi) for (const c of l.chunks) events.push([c.x0, 1], [c.x1, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: number[] = [];
  let depth = 0;
  let openAt: number | undefined;
  // The clear part of the current gutter (no chunk at all), where the edge goes when there is one.
  let clear: [number, number] | undefined;
  let clearFrom: number | undefined;
  for (const [x, step] of events) {
    const before = depth;
    depth += step;
    if (before > 0 && depth === 0) clearFrom = x;
    if (before === 0 && depth > 0 && clearFrom !== undefined && openAt !== undefined) {
      if (x - clearFrom >= 0.5 * size) clear = [clearFrom, x];
      clearFrom = undefined;
    }
    if (before > allowance && depth <= allowance) {
      openAt = x;
      clear = undefined;
      if (depth > 0) clearFrom = undefined;
    } else if (before <= allowance && depth > allowance && openAt !== undefined) {
      const [from, to] = clear ?? [openAt, x];
      if (to - from >= 0.5 * size) out.push(to - Math.min(2, (to - from) / 2));
      openAt = undefined;
      clear = undefined;
    }
  }
  return out;
}

/** A gap this many times the line's usual word space, in a bold head line, parts two column heads. */
const HEAD_GAP_SPACES = 2.5;

/**
 * Column edges from the head line alone, when no gutter runs through the body (a form's table
 * whose columns but the first are left blank to fill in): the first line set in bold over a body
 * that is not, parted where its words stand clearly further apart than its word spaces. Each
 * edge sits just before the head it starts.
 */
function headGutters(lines: readonly TextLine[], size: number): number[] {
  const [head, ...body] = lines;
  if (!head || body.length === 0 || !head.words.every((w) => w.bold) || body.every((l) => l.words.every((w) => w.bold))) return [];
  const gaps = head.words.slice(1).map((w, i) => w.x0 - (head.words[i] as Word).x1);
  if (gaps.length < 2) return [];
  const space = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] as number;
  const wide = Math.max(0.5 * size, HEAD_GAP_SPACES * Math.max(space, 0.1 * size));
  const out: number[] = [];
  gaps.forEach((g, i) => {
    if (g >= wide) out.push((head.words[i + 1] as Word).x0 - Math.min(2, g / 2));
  });
  return out;
}

/** Minimum cells of a row that must each start flush under a head word (flushGutters). */
const MIN_FLUSH_CELLS = 3;

/**
 * Column edges where every body line's cells start flush (within a point) under the start of a
 * word of the bold head line above them: column heads set close, each over its column. Every
 * body line must have at least three cells and each must start under a head word; otherwise
 * nothing.
 */
export function flushGutters(lines: readonly TextLine[]): number[] {
  const [head, ...body] = lines;
  if (!head || body.length === 0 || !head.words.every((w) => w.bold)) return [];
  const starts = head.words.map((w) => w.x0);
  const edges = new Set<number>();
  for (const line of body) {
    if (line.chunks.length < MIN_FLUSH_CELLS || line.words.every((w) => w.bold)) return [];
    for (const c of line.chunks.slice(1)) {
      const under = starts.find((x) => Math.abs(x - c.x0) <= 1);
      if (under === undefined) return [];
      edges.add(under);
    }
  }
  return [...edges].sort((a, b) => a - b).map((x) => x - 1);
}

/** Lines, at least, flush on both sides of a narrow gutter. */
const MIN_NARROW_LINES = 3;
/** A narrow gutter is at least this many times the column's word space (monospaced code's are equal). */
const NARROW_OVER_SPACE = 1.25;
/** Share of the lines with words on both sides of a narrow gutter that must be flush on both. */
const NARROW_SHARE = 0.8;

/**
 * Gutters narrower than a gutter proper, inside the columns found: two columns set tight (item
 * numbers set flush right against descriptions set flush left), seen because every line ends a
 * word on one side and starts one on the other at the same x (within a point), the column heads
 * too (two heads, each over its column), and the gap is clearly wider than the column's other
 * word spaces. Word spaces do not line up like that through a column's lines (except in
 * monospaced code, where they are no wider than the rest); a head of one word over numbered
 * entries ("1.1 Valuing …") or a hanging item number ("26.") splits nothing. A column whose only
 * word gaps stand at that one place weighs it against the table's other word spaces.
 */
function narrowGutters(lines: readonly TextLine[], edges: readonly number[], size: number): number[] {
  const out: number[] = [];
  // The table's word spaces, for a column with no word space of its own but at the gap weighed.
  const tableGaps = lines.flatMap((l) => l.words.slice(1).map((w, i) => ({ l: (l.words[i] as Word).x1, r: w.x0 }))).filter((g) => g.r - g.l < GUTTER_EM * size);
  for (let c = 0; c + 1 < edges.length; c++) {
    const lo = edges[c] as number;
    const hi = edges[c + 1] as number;
    const rows = lines.map((l) => l.words.filter((w) => (w.x0 + w.x1) / 2 >= lo && (w.x0 + w.x1) / 2 < hi)).filter((ws) => ws.length > 0);
    const head = rows[0];
    if (!head || rows.length < MIN_NARROW_LINES) continue;
    const gaps = rows.flatMap((ws) => ws.slice(1).map((w, i) => ({ l: (ws[i] as Word).x1, r: w.x0 })));
    for (let i = 1; i < head.length; i++) {
      const l = (head[i - 1] as Word).x1;
      const r = (head[i] as Word).x0;
      // The column's word spaces elsewhere (the median of its other gaps): a gutter is clearly wider.
      const apart = (g: { l: number; r: number }) => Math.abs(g.l - l) > 1 || Math.abs(g.r - r) > 1;
      let spaces = gaps.filter(apart).map((g) => g.r - g.l).sort((a, b) => a - b);
      // A column whose only gaps stand at this one place ("Cell 1A" over "Cell 2A"): weighed
      // against the table's other word spaces, not against none.
      if (spaces.length === 0) spaces = tableGaps.filter(apart).map((g) => g.r - g.l).sort((a, b) => a - b);
      const space = spaces[Math.floor(spaces.length / 2)] ?? 0;
      if (r - l < Math.max(0.2 * size, NARROW_OVER_SPACE * space)) continue;
      // A hanging number ("26." before its question) is a list item's, not a column head.
      if (LIST_MARK.test((head[i - 1] as Word).text)) continue;
      let flush = 0;
      let sides = 0;
      let crossed = false;
      for (const ws of rows) {
        if (ws.some((w) => w.x0 < r - 1 && w.x1 > l + 1)) {
          crossed = true;
          break;
        }
        if (!ws.some((w) => w.x1 <= l + 1) || !ws.some((w) => w.x0 >= r - 1)) continue;
        sides++;
        if (ws.some((w) => Math.abs(w.x1 - l) <= 1) && ws.some((w) => Math.abs(w.x0 - r) <= 1)) flush++;
      }
      if (!crossed && flush >= MIN_NARROW_LINES && flush >= NARROW_SHARE * sides) out.push(r - Math.min(1, (r - l) / 2));
    }
  }
  return out;
}

/** Lines, at least, that start a word at a column's start (its head line aside). */
const MIN_START_LINES = 3;
/** How far apart (in points) word starts may be and still stand at one column start (positions read from a text run carry a fraction of a point). */
const START_TOLERANCE = 1;

/**
 * Column starts set as close as a word space (a browser prints a table with no CSS two or three
 * points between cells): an x at which every body line of the region starts a word (within a
 * point), three lines or more, with no word running across it, the words before it differing
 * and the words starting there differing ("1991 Dynamic", "2015 Static": not "Q1 2020", "Q2
 * 2020", one form repeated). Word starts of proportional text do not line up through every line
 * like that by chance; text in a fixed-pitch face does, so it parts nothing. A first line set
 * in bold (the column heads, centred over their columns) need not start there.
 */
function startGutters(lines: readonly TextLine[], size: number): number[] {
  const body = lines.filter((l, i) => i > 0 || !l.words.every((w) => w.bold));
  const first = body[0];
  if (!first || body.length < MIN_START_LINES || body.some((l) => l.words.some((w) => w.monospace === true))) return [];
  const out: number[] = [];
  for (const candidate of first.words.slice(1)) {
    const x = candidate.x0;
    const before = new Set<string>();
    const after = new Set<string>();
    let gap = Infinity;
    const holds = body.every((l) => {
      const i = l.words.findIndex((w, k) => k > 0 && Math.abs(w.x0 - x) <= START_TOLERANCE);
      const prev = l.words[i - 1];
      if (i < 1 || !prev || l.words.some((w) => w.x0 < x - START_TOLERANCE - 0.5 && w.x1 > x - START_TOLERANCE)) return false;
      before.add(prev.text);
      after.add((l.words[i] as Word).text);
      gap = Math.min(gap, (l.words[i] as Word).x0 - prev.x1);
      return true;
    });
    if (holds && before.size >= 2 && after.size >= 2 && gap > 0.1 * size) out.push(x - Math.min(1, gap / 2));
  }
  return out;
}

function crosses(b: Box, x: number): boolean {
  return b.x0 < x - 1 && b.x1 > x + 1;
}

export interface AlignedRegion extends Box {
  /** Horizontal rules across the region (its top and bottom ones included). */
  rules: Line[];
  /** A bold head line over rows whose cells start flush under its words (flushGutters). */
  headed?: boolean;
}

/** Whether the line's text all stands in the first column (a row label and nothing else). */
function labelOnly(line: TextLine, firstColumnEnd: number): boolean {
  return line.chunks.every((c) => c.x1 <= firstColumnEnd);
}

/**
 * A row label wrapped over lines: the line's first-column text starts in lower case (a sentence
 * going on, "from Dolma 1.7" under "peS2o"), and either it holds the label alone or the row so
 * far does (the values stand on the label's first line, its middle one or its last; a row has
 * one line of values). A line of values under a row that has its values starts a row whatever
 * its case ("arXiv", "peS2o").
 */
function labelContinues(prev: TextLine, line: TextLine, firstColumnEnd: number, rowValues: boolean): boolean {
  const first = line.chunks[0];
  if (!first || first.x0 >= firstColumnEnd || !/^\p{Ll}/u.test(first.words[0]?.text ?? '')) return false;
  if (!prev.chunks.some((c) => c.x0 < firstColumnEnd)) return false;
  return labelOnly(line, firstColumnEnd) || !rowValues;
}

/** Rows standing apart by this much more than a cell's lines (in ems of the text) set the two leadings apart. */
const LEADING_STEP = 0.25;

/**
 * The gap between a cell's wrapped lines, when rows stand clearly further apart than that (cell
 * padding, or space between rows): the largest gap of the tighter of the two clusters of gaps
 * between consecutive lines, split at their widest step if it is LEADING_STEP em or more and
 * two gaps or more stand above it.
 * Undefined when the lines are evenly spaced (rows and wrapped lines are then told apart by
 * their text alone).
 */
function cellLeading(lines: readonly TextLine[], size: number): number | undefined {
  const gaps = lines
    .slice(1)
    .map((l, i) => l.y0 - (lines[i] as TextLine).y1)
    .sort((a, b) => a - b);
  let step = 0;
  let at = -1;
  for (let i = 1; i < gaps.length; i++) {
    const d = (gaps[i] as number) - (gaps[i - 1] as number);
    if (d > step) {
      step = d;
      at = i;
    }
  }
  // Rows apart in two places or more: one wide gap alone is a head's or a caption's.
  return at > 0 && gaps.length - at >= 2 && step >= LEADING_STEP * size ? (gaps[at - 1] as number) : undefined;
}

/**
 * Whether the line carries on the cells of the line above (text wrapped in its cells): each of
 * its columns' text goes on a cell the line above has, starting flush with it and not with a
 * figure, and that line is full there — its first word would not have fitted after the text
 * above within the column's widest line. Rows of short
 * cells (entries that would fit side by side) start rows of their own.
 */
const FIGURE = /^[-+–−(]?[$€£¥]?[\d.,:/%()–-]*\d[\d.,:/%()–-]*$/u;

function wrapsOn(prev: TextLine, line: TextLine, xs: readonly number[], size: number, widest: readonly number[]): boolean {
  const column = (w: Word): number => xs.findIndex((x, c) => c + 1 < xs.length && (w.x0 + w.x1) / 2 >= x && (w.x0 + w.x1) / 2 < (xs[c + 1] as number));
  const used = new Set(line.words.map(column));
  if (used.has(-1)) return false;
  for (const c of used) {
    const above = prev.words.filter((w) => column(w) === c);
    if (above.length === 0) return false;
    const first = line.words.filter((w) => column(w) === c).reduce((a, w) => (w.x0 < a.x0 ? w : a));
    // A wrapped line starts flush with the line above it in its cell, and goes on with words: a
    // figure under a figure is a value of the next row (numbers set flush right end where the
    // column's widest does, and would never seem to fit).
    if (Math.abs(first.x0 - Math.min(...above.map((w) => w.x0))) > 1 || FIGURE.test(first.text)) return false;
    const end = Math.max(...above.map((w) => w.x1));
    if (end + 0.2 * size + (first.x1 - first.x0) <= (widest[c] as number) + 1) return false;
  }
  return used.size > 0;
}

/** The region's rows as y edges, and whether they come from rules (rows may then hold several lines). */
function rowEdges(region: AlignedRegion, lines: readonly TextLine[], gutters: readonly number[], size: number): { ys: number[]; ruledRows: boolean; headRule?: number } {
  const firstColumnEnd = gutters[0] as number;
  const top = lines[0] as TextLine;
  const bottom = lines[lines.length - 1] as TextLine;
  const inner = region.rules.filter((r) => r.at > top.y0 + SNAP && r.at < bottom.y1 - SNAP).map((r) => r.at);
  const innerEdges = [...new Set(inner.map((y) => Math.round(y)))].sort((a, b) => a - b);
  const y0 = Math.min(region.y0, top.y0);
  const y1 = Math.max(region.y1, bottom.y1);
  // Rules between (nearly) every pair of rows: the bands between them are the rows.
  if (innerEdges.length >= 2) return { ys: [y0, ...innerEdges, y1], ruledRows: true };
  const ys = [y0];
  // Column heads that wrap stagger their lines, tight, above the first line that fills every
  // column: those lines are one row however they start (a few of them at most).
  const firstFull = lines.findIndex((l) => l.chunks.length > gutters.length);
  const headLines = firstFull > 0 && firstFull <= MAX_HEAD_LINES ? firstFull : 0;
  // Whether the row being gathered has values beside its label yet.
  let rowValues = !labelOnly(top, firstColumnEnd);
  // Cells whose text wraps, set tighter than the rows (cellLeading, wrapsOn).
  const leading = cellLeading(lines, size);
  const xs = [Number.NEGATIVE_INFINITY, ...gutters, Number.POSITIVE_INFINITY];
  const widest = xs.slice(1).map((x, c) => Math.max(Number.NEGATIVE_INFINITY, ...lines.flatMap((l) => l.words.filter((w) => (w.x0 + w.x1) / 2 >= (xs[c] as number) && (w.x0 + w.x1) / 2 < x).map((w) => w.x1))));
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1] as TextLine;
    const line = lines[i] as TextLine;
    const ruleBetween = innerEdges.some((y) => y > prev.y1 - SNAP && y < line.y0 + SNAP);
    const firstEmpty = !line.chunks.some((c) => c.x0 < firstColumnEnd);
    const close = line.y0 - prev.y1 < 0.6 * size;
    // Above the first inner rule sits the header: its lines are one row of column heads.
    const inHeader = innerEdges.length > 0 && line.y1 < (innerEdges[0] as number);
    const wrapped = leading !== undefined && line.y0 - prev.y1 <= leading + 0.05 * size && wrapsOn(prev, line, xs, size, widest);
    if (!ruleBetween && close && (firstEmpty || inHeader || i < headLines || wrapped || labelContinues(prev, line, firstColumnEnd, rowValues))) {
      rowValues ||= !labelOnly(line, firstColumnEnd);
      continue;
    }
    rowValues = !labelOnly(line, firstColumnEnd);
    ys.push(ruleBetween ? (innerEdges.find((y) => y > prev.y1 - SNAP && y < line.y0 + SNAP) as number) : (prev.y1 + line.y0) / 2);
  }
  ys.push(y1);
  // Rules only here and there: the first one under text sets the head off (booktabs).
  const headRule = innerEdges[0];
  return headRule === undefined ? { ys, ruledRows: false } : { ys, ruledRows: false, headRule };
}

/** The table the region's text lays out, or undefined when it has fewer than two columns. */
export function alignedTable(region: AlignedRegion, words: readonly Word[], size: number): LaidOutTable | undefined {
  if (words.length < 4) return undefined;
  const lines = textLines(words, size);
  if (lines.length < 2) return undefined;
  let inner = gutters(lines, size);
  // Column starts set as close as a word space, beside the gutters proper.
  const starts = startGutters(lines, size).filter((x) => inner.every((g) => Math.abs(g - x) > 0.5 * size));
  inner = [...inner, ...starts].sort((a, b) => a - b);
  if (inner.length === 0) inner = headGutters(lines, size);
  if (inner.length === 0) inner = flushGutters(lines);
  if (inner.length === 0) return undefined;
  const outerX0 = Math.min(region.x0, ...lines.map((l) => l.x0));
  const outerX1 = Math.max(region.x1, ...lines.map((l) => l.x1));
  inner = [...inner, ...narrowGutters(lines, [outerX0 - 1, ...inner, outerX1 + 1], size)].sort((a, b) => a - b);
  // Lines running across a gutter: a spanning head or a title may, running text may not.
  const across = lines.map((l) => l.words.some((w) => inner.some((x) => crosses(w, x))));
  // A head of up to two lines may span columns wholesale ("Year ended" over its dates).
  let head = 0;
  while (head < 2 && across[head]) head++;
  const spanning = across.slice(head).filter(Boolean).length;
  if (spanning > Math.max(1, 0.2 * lines.length)) return undefined;
  const x0 = Math.min(region.x0, ...lines.map((l) => l.x0));
  const x1 = Math.max(region.x1, ...lines.map((l) => l.x1));
  const xs = [x0 - 1, ...inner, x1 + 1];
  const { ys, ruledRows, headRule } = rowEdges(region, lines, inner, size);
  const byRow = wordsByBand(words, ys);
  const grid: Grid = {
    xs,
    ys,
    vertical: (c, r) => {
      const x = xs[c] as number;
      // A word across the edge spans it (a head over two columns); a narrow gap alone does not.
      return !(byRow[r] ?? []).some((w) => crosses(w, x));
    },
    horizontal: (r, c) => {
      if (!ruledRows) return true;
      const from = xs[c] as number;
      const to = xs[c + 1] as number;
      return covered(region.rules, ys[r] as number, from, to, Math.max(2 * SNAP, 0.2 * (to - from)));
    },
  };
  const cells = gridCells(grid);
  fillCells(cells, words, grid);
  const laid = mergeHeadOnlyColumns(compact({ rows: ys.length - 1, cols: xs.length - 1, cells }));
  return headRule === undefined ? laid : { ...laid, headRule };
}

/** Every column reads like running text (long cells): two columns of prose, not a table. */
export function proseLike(t: LaidOutTable): boolean {
  for (let c = 0; c < t.cols; c++) {
    const counts = t.cells
      .filter((cell) => cell.col === c && cell.colSpan === 1 && cell.text !== '')
      .map((cell) => cell.text.split(' ').length)
      .sort((a, b) => a - b);
    const median = counts[Math.floor(counts.length / 2)] ?? 0;
    if (median > 0 && median <= 4) return false;
  }
  return true;
}

/** The marks a list's first column may hold as bullets. */
const BULLETS = '[•◦▪▫‣∙·○●■□➢►✓✔*\\-–—]';
const LIST_MARK = new RegExp(`^(?:${BULLETS}|\\(?(?:\\d{1,3}|[a-z]|[ivx]{1,4})[.)])$`, 'iu');
const BULLET_MARK = new RegExp(`^${BULLETS}$`, 'u');

/**
 * The first column holds only bullets or item numbers: a list laid out with hanging indents. A
 * cell may hold the bullets of several items (a row tall with two items' lines: "• •", lists in
 * a table's cells); several numbers in one cell are left to the table finder.
 */
export function listLike(t: LaidOutTable): boolean {
  const first = t.cells.filter((c) => c.col === 0 && c.colSpan === 1 && c.text !== '');
  return first.length > 0 && first.every((c) => LIST_MARK.test(c.text) || c.text.split(' ').every((mark) => BULLET_MARK.test(mark)));
}
