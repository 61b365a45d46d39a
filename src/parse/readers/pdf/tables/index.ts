/**
 * Tables on a PDF page (issue 3 §1, tables), from the PageModel alone, so text-layer and OCR pages
 * are treated alike:
 * - ruled tables: crossing ruling lines (and the edges of shaded boxes) form a grid; a missing
 *   inner edge merges cells (ruled.ts, grid.ts);
 * - a panel holding a painted text box per cell: the boxes are the grid (boxes.ts);
 * - cell text: the words whose centre lies in the cell, lines in order (cell-text.ts);
 * - header rows: leading rows set in bold when the body is not (header.ts);
 * - a body row of values stacked line for line beside a label they share is that many rows (stacked.ts);
 * - a body row whose first cell lists entries line for line, each with its values, is a row per entry (listed.ts);
 * - a column of currency signs joins the figures on its right (currency.ts);
 * - heads underlined column by column above a ruled grid are its head rows (underlined.ts);
 * - where the rules leave a column out, its lines on the rows' baselines draw the rows (lined.ts);
 * - lines and words over a drawing (filled shapes overlapping one another) are a figure's outlines
 *   and labels, no table (drawing.ts);
 * - a table in a right-to-left script reads its columns from the right (direction.ts);
 * - a form's lines led by dots to their box numbers are text, not a table (leaders.ts);
 * - a ruled grid of a form's boxes, each a label over blank room to fill in, is text (form-boxes.ts);
 * - items numbered across a grid (cards "1.", "2." side by side) are a list, not a table (numbered-items.ts).
 * A table of one row or one column is not a table (a framed text box, a ruled list), except a
 * ruled grid of one column whose head row is set apart in bold over three or more ruled rows.
 */
import type { Box, PageModel, Word } from '../page-model.ts';
import { centreIn, wordLines } from './cell-text.ts';
import { compact, fillCells, gridCells, type GridCell, type LaidOutTable } from './grid.ts';
import { rowBelow } from './below.ts';
import { boxGridTable } from './boxes.ts';
import { overDrawing } from './drawing.ts';
import { borderlessRegions, columnsAligned, contentsLike, plausibleBorderless } from './borderless.ts';
import { grownRegion } from './grow.ts';
import { headerRows } from './header.ts';
import { joinCurrencyColumns } from './currency.ts';
import { formLines } from './leaders.ts';
import { numberedItems } from './numbered-items.ts';
import { formBoxes } from './form-boxes.ts';
import { groupHeads } from './group-heads.ts';
import { mirrorColumns, rightToLeft } from './direction.ts';
import { splitListedRows } from './listed.ts';
import { underlinedHead } from './underlined.ts';
import { splitStackedRows } from './stacked.ts';
import { frameGrid, frames, stackFrames } from './ruled.ts';
import { type Line, pageLines } from './segments.ts';
import { type AlignedRegion, alignedTable, listLike, proseLike, textLines, type TextLine } from './aligned.ts';

export { tableHtml } from './html.ts';

export interface PdfTableCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  header: boolean;
}

export interface PdfTable extends Box {
  rows: number;
  cols: number;
  cells: PdfTableCell[];
  /** Indexes into page.words of every word inside the table's box. */
  words: number[];
}

/** At least this share of the grid's cells hold text: a chart's bars or a form's boxes are no table. */
const MIN_FILLED = 0.3;

/**
 * A page's words ordered by the y of their centres (the point centreIn tests), so that wordsIn
 * reads the band a box spans instead of every word of the page: the finder asks for the words
 * in a box many times a page (each head rule, each candidate next head, each band between two
 * rules), and a page of many rules and words made that quadratic. Built once a page's words
 * have been searched INDEX_AFTER times (most pages ask a few times, and sorting costs more than
 * a few passes), dropped when findTables returns (the words do not change while tables are found).
 */
interface WordIndex {
  /** Centre ys, ascending. */
  ys: Float64Array;
  /** The index into the words of each centre in `ys`. */
  at: Uint32Array;
}

/** Searches of a page's words by a pass over all of them before they are indexed. */
const INDEX_AFTER = 8;

/** A page's index, or how many times its words have been searched so far. */
const indexes = new WeakMap<readonly Word[], WordIndex | number>();

function wordIndex(words: readonly Word[]): WordIndex | undefined {
  let index = indexes.get(words) ?? 0;
  if (typeof index !== 'number') return index;
  if (index < INDEX_AFTER) {
    indexes.set(words, index + 1);
    return undefined;
  }
  const centres = words.map((w) => (w.y0 + w.y1) / 2);
  // A centre that is not a number is in no box (every comparison with NaN is false).
  const order = centres.flatMap((y, i) => (Number.isNaN(y) ? [] : [i])).sort((a, b) => (centres[a] as number) - (centres[b] as number));
  index = { ys: Float64Array.from(order, (i) => centres[i] as number), at: Uint32Array.from(order) };
  indexes.set(words, index);
  return index;
}

/** The words whose centre is in the box, in their order on the page (as a filter would give them). */
function wordsIn(words: readonly Word[], box: Box): Word[] {
  const index = wordIndex(words);
  if (index === undefined) return words.filter((w) => centreIn(w, box));
  const { ys, at } = index;
  let lo = 0;
  let hi = ys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ys[mid] as number) < box.y0) lo = mid + 1;
    else hi = mid;
  }
  const found: number[] = [];
  for (let k = lo; k < ys.length && (ys[k] as number) <= box.y1; k++) {
    const i = at[k] as number;
    if (centreIn(words[i] as Word, box)) found.push(i);
  }
  return found.sort((a, b) => a - b).map((i) => words[i] as Word);
}

/** The body text size: the median word size. */
export function medianSize(words: readonly Word[]): number {
  if (words.length === 0) return 10;
  const sizes = words.map((w) => w.size).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] as number;
}

const WORDISH = /\p{L}{2}/u;

function acceptable(t: LaidOutTable): boolean {
  if (t.rows < 2 || t.cols < 2) return false;
  const filled = t.cells.filter((c) => c.text !== '');
  // A table labels its rows or columns: a grid holding only figures is a chart's bars and values.
  if (filled.filter((c) => WORDISH.test(c.text)).length < 2) return false;
  // ... in its first row (column heads) or first column (row labels); a chart's legend is neither.
  if (!filled.some((c) => (c.row === 0 || c.col === 0) && /\p{L}/u.test(c.text))) return false;
  // A table of contents in a box is still read as text; so is a column of running text, and a
  // form's numbered lines led by dots to their box numbers (leaders.ts), and items numbered across
  // the grid (numbered-items.ts).
  if (contentsLike(t) || runningText(t) || panels(t) || formLines(t) || numberedItems(t)) return false;
  const slots = filled.reduce((n, c) => n + c.rowSpan * c.colSpan, 0);
  if (filled.length < 3 || slots < MIN_FILLED * t.rows * t.cols) return false;
  // Text in at least two rows and two columns.
  return new Set(filled.map((c) => c.row)).size >= 2 && new Set(filled.map((c) => c.col)).size >= 2;
}

/** Rows going on with the sentence of the row above, in one column, that make it running text. */
const RUNNING_ROWS = 3;
/** Words, at least, in a line of running text. */
const RUNNING_WORDS = 6;

/**
 * A column whose cells are the lines of a paragraph: a cell of six words or more not ending a
 * sentence, and the cell under it, as long, going on in lower case, three times or more. A table's rows hold
 * cells, and a cell's lines stay in its row; a sidebar beside a page's text (labels in one
 * column, the text's lines in the other) is parted into rows by its lines.
 */
function runningText(t: LaidOutTable): boolean {
  for (let c = 0; c < t.cols; c++) {
    const byRow = new Map(t.cells.filter((cell) => cell.col === c && cell.colSpan === 1).map((cell) => [cell.row, cell.text]));
    let going = 0;
    for (let r = 0; r + 1 < t.rows; r++) {
      const text = byRow.get(r) ?? '';
      const next = byRow.get(r + 1) ?? '';
      if (text.split(' ').length >= RUNNING_WORDS && next.split(' ').length >= RUNNING_WORDS && !/[.:;!?)]$/u.test(text) && /^\p{Ll}/u.test(next)) going++;
    }
    if (going >= RUNNING_ROWS) return true;
  }
  return false;
}

/** Words, at least, of a cell that holds a paragraph rather than an entry. */
const PARAGRAPH_WORDS = 50;
/** Sentences, at least, in such a cell. */
const PARAGRAPH_SENTENCES = 2;

/** Rows, at most, of a page laid out in panels: a table repeats its entries row after row. */
const PANEL_ROWS = 2;

/**
 * A page laid out in ruled panels (a back cover: a side panel of blurbs, a band under a rule), not
 * a table: a grid of two rows or fewer whose cells holding paragraphs — fifty words or more, two
 * sentences or more — hold most of its words. A table repeats its entries row after row, whatever
 * their length (a comparison of laws, a paragraph to a cell, over a head row and five rows).
 */
function panels(t: LaidOutTable): boolean {
  if (t.rows > PANEL_ROWS) return false;
  const words = (text: string): number => (text === '' ? 0 : text.split(' ').length);
  const all = t.cells.reduce((n, c) => n + words(c.text), 0);
  const paragraphs = t.cells.filter((c) => words(c.text) >= PARAGRAPH_WORDS && (c.text.match(/[.!?](?=\s|$)/gu)?.length ?? 0) >= PARAGRAPH_SENTENCES);
  return paragraphs.reduce((n, c) => n + words(c.text), 0) > 0.5 * all;
}

/** Rows of a one-column ruled grid, at least, to be a table: a head and three entries. */
const MIN_SINGLE_COLUMN_ROWS = 4;

/**
 * A ruled grid of one column is a table when a typographer made it one: a head row set apart in
 * bold (headerRows) over at least three body rows, each ruled off and holding text. A framed
 * text box (a title over a paragraph or two) has too few rows; a ruled list has no head.
 */
function singleColumnTable(t: LaidOutTable): boolean {
  if (t.cols !== 1 || t.rows < MIN_SINGLE_COLUMN_ROWS) return false;
  if (!t.cells.every((c) => c.text !== '' && c.rowSpan === 1 && WORDISH.test(c.text))) return false;
  // Set apart in bold (or by a rule): capitals alone make a framed box's title, not a head.
  return headerRows(t, { capitals: false }) === 1 && !t.cells.some((c) => c.row > 0 && c.text.split(' ').length > 12);
}

function toPdfTable(page: PageModel, box: Box, found: LaidOutTable, header: number): PdfTable {
  const laid = joinCurrencyColumns(splitListedRows(splitStackedRows(found, header), header));
  const words: number[] = [];
  page.words.forEach((w, i) => {
    if (centreIn(w, box)) words.push(i);
  });
  return {
    x0: box.x0,
    y0: box.y0,
    x1: box.x1,
    y1: box.y1,
    rows: laid.rows,
    cols: laid.cols,
    // A table in a right-to-left script reads its columns from the right (direction.ts).
    cells: (rightToLeft(laid.cells) ? mirrorColumns(laid.cells, laid.cols) : laid.cells)
      .map((c) => ({ row: c.row, col: c.col, rowSpan: c.rowSpan, colSpan: c.colSpan, text: c.text, header: c.row < header }))
      .sort((a, b) => a.row - b.row || a.col - b.col),
    words,
  };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/**
 * Horizontal rules stacked one under another over the same width (each overlapping the next by
 * half the narrower one): the top, head and bottom rules of a table ruled across only.
 */
function ruleStacks(page: PageModel, rules: Line[], size: number): AlignedRegion[] {
  const sorted = [...rules].sort((a, b) => a.at - b.at);
  const out: AlignedRegion[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    const overlap = last ? Math.min(last.x1, r.to) - Math.max(last.x0, r.from) : 0;
    if (last && overlap >= 0.5 * Math.min(last.x1 - last.x0, r.to - r.from) && !proseBetween(page, last, r, size) && !twoHeadRules(page, last, r, size)) {
      last.rules.push(r);
      last.y1 = r.at;
      last.x0 = Math.min(last.x0, r.from);
      last.x1 = Math.max(last.x1, r.to);
    } else {
      out.push({ x0: r.from, x1: r.to, y0: r.at, y1: r.at, rules: [r] });
    }
  }
  return out;
}

/** Lines of several cells, at least, between two head rules: rows no rule parts. */
const UNRULED_ROWS = 2;

/**
 * Two tables each ruled under its head (kreuzberg's extraction_test: "Header 1 | Header 2 |
 * Header 3" on a rule, three rows, a title, "Product | Price | Quantity" on a rule, three rows)
 * are not one table's top and bottom rules: the stack so far is one rule with its head sitting
 * on it, `rule` has a head sitting on it too, and rows of several cells, two or more, lie
 * between them unruled. (A booktabs top rule has no head on it; rows ruled one by one have one
 * row between rules.)
 */
function twoHeadRules(page: PageModel, stack: AlignedRegion, rule: Line, size: number): boolean {
  const first = stack.rules[0];
  if (stack.rules.length !== 1 || !first) return false;
  if (!headOnRule(page, first, size) || !headOnRule(page, rule, size)) return false;
  const band = { x0: Math.min(stack.x0, rule.from), x1: Math.max(stack.x1, rule.to), y0: first.at, y1: rule.at };
  return textLines(wordsIn(page.words, band), size).filter((l) => l.chunks.length >= 2).length >= UNRULED_ROWS + 1;
}

/**
 * A head rule: a line of two cells or more sitting on it (its foot within half an em above it)
 * and a row of two cells or more right under it (its top within a line space), both within the
 * rule's width. A table's bottom rule has a row on it and none under it.
 */
function headOnRule(page: PageModel, rule: Line, size: number): boolean {
  // Asked again of the same rule by every seed above it (grownCandidate's next heads).
  const known = headRules.get(rule);
  if (known !== undefined) return known;
  const head = headSitsOnRule(page, rule, size);
  headRules.set(rule, head);
  return head;
}

/** headOnRule's answers by rule: a page's rules are its own (pageLines), and so is its size. */
const headRules = new WeakMap<Line, boolean>();

function headSitsOnRule(page: PageModel, rule: Line, size: number): boolean {
  const band = (y0: number, y1: number) => textLines(wordsIn(page.words, { x0: rule.from - 1, x1: rule.to + 1, y0, y1 }), size);
  const on = band(rule.at - 3 * size, rule.at).at(-1);
  if (on === undefined || on.chunks.length < 2) return false;
  const [under, next] = band(rule.at, rule.at + 6 * size);
  if (under === undefined || under.y0 - rule.at > size || under.chunks.length < 2) return false;
  if (rule.at - on.y1 <= 0.5 * size) return true;
  // A head padded above its rule as the rows are in their cells: it stands one row pitch above
  // the first row, the pitch of the rows under the rule.
  const pitch = next !== undefined && next.chunks.length >= 2 ? next.y0 - under.y0 : 0;
  return pitch > 0 && rule.at - on.y1 <= 1.5 * size && Math.abs(under.y0 - on.y0 - pitch) <= HEAD_PITCH_SLACK * pitch;
}

/** A head padded above its rule stands within this share of a row pitch of one pitch over the first row. */
const HEAD_PITCH_SLACK = 0.1;

/**
 * Running text between two rules (a line of one chunk over most of the width, not all bold: a
 * caption, a paragraph) ends one table and starts another: two tables of the same width one above the other.
 */
function proseBetween(page: PageModel, stack: AlignedRegion, rule: Line, size: number): boolean {
  // Over the wider of the two: a short rule (an underline) far below a table's bottom rule has
  // the page's paragraphs between them, however narrow the overlap.
  const band = { x0: Math.min(stack.x0, rule.from), x1: Math.max(stack.x1, rule.to), y0: stack.y1, y1: rule.at };
  const width = band.x1 - band.x0;
  // A line set all in bold is a head (column heads set close), not running text.
  return textLines(wordsIn(page.words, band), size).some((l) => l.chunks.length === 1 && l.x1 - l.x0 >= 0.6 * width && (l.chunks[0]?.words.length ?? 0) >= 6 && !l.words.every((w) => w.bold));
}

/** A head rule is drawn this many times as heavy as the table's other rules, at least. */
const HEAD_RULE_WEIGHT = 2;
/** Lines, at most, of a head over a heavy rule. */
const HEAD_LINES = 3;

/**
 * A table ruled across whose top rule is drawn clearly heavier than the rules under it (a word
 * processor's 3 pt head rule over 1 pt row rules) has its head above that rule: the line right
 * over it, within a line space and a half, parted into two or more chunks by gutters (column heads, not a
 * sentence). The table is laid out with that line as its first row.
 */
function headOverHeavyRule(page: PageModel, region: AlignedRegion, size: number): PdfTable | undefined {
  const [top, ...rest] = region.rules;
  if (!top || rest.length === 0) return undefined;
  const others = Math.max(...rest.map((r) => r.weight ?? 0));
  if (others <= 0 || (top.weight ?? 0) < HEAD_RULE_WEIGHT * others) return undefined;
  const lines = textLines(wordsIn(page.words, { x0: region.x0, x1: region.x1, y0: top.at - HEAD_LINES * 2 * size, y1: top.at }), size);
  // The head's lines, from the rule up: each within half a line space of the one under it (a
  // head wrapped in its column: "Calories per / portion").
  const head: TextLine[] = [];
  for (let i = lines.length - 1; i >= 0 && head.length < HEAD_LINES; i--) {
    const line = lines[i] as TextLine;
    const under = head[head.length - 1];
    if (under ? under.y0 - line.y1 > 0.5 * size : top.at - line.y1 > 1.5 * size) break;
    head.push(line);
  }
  if (head.length === 0 || !head.some((l) => l.chunks.length >= 2)) return undefined;
  // Every word of the head within the rule's width.
  if (head.some((l) => l.x0 < region.x0 - 1 || l.x1 > region.x1 + 1)) return undefined;
  const table = alignedCandidate(page, { ...region, y0: Math.min(...head.map((l) => l.y0)) - 1 }, size);
  return table && table.cells.some((c) => c.row === 0 && c.text !== '') ? table : undefined;
}

/** Words set in a fixed-pitch font, all of them but those of the first line (a caption). */
function codeListing(words: readonly Word[]): boolean {
  const prose = words.filter((w) => w.monospace !== true);
  if (prose.length === words.length) return false;
  if (prose.length === 0) return true;
  const first = Math.min(...words.map((w) => w.baseline));
  return prose.every((w) => Math.abs(w.baseline - first) <= 0.5 * w.size);
}

function alignedCandidate(page: PageModel, region: AlignedRegion, size: number, { aligned = false } = {}): PdfTable | undefined {
  const words = wordsIn(page.words, region);
  // Text all in a fixed-pitch font is a code listing: its columns are alignment (comments set
  // to a tab stop), kept as such by the layout's code blocks, not cells. Its caption ("Example
  // 3-9 Creating a mask …"), set in the text face on the first line, does not make it a table.
  if (codeListing(words)) return undefined;
  // Labels over a drawing (drawing.ts) are a figure's, whatever lines they fall on.
  if (overDrawing(region, page.fills)) return undefined;
  // Gutters are measured in the table's own ems: tables are often set smaller than the text.
  const em = Math.min(size, medianSize(words));
  const laid = alignedTable(region, words, em);
  if (!laid || !acceptable(laid) || proseLike(laid) || listLike(laid)) return undefined;
  if (aligned && (laid.rows < (region.headed ? 2 : 3) || !columnsAligned(laid, em) || !plausibleBorderless(laid))) return undefined;
  return toPdfTable(page, region, laid, headerRows(laid));
}

/** A vertical line at least this share of the page's height parts the page's columns. */
const COLUMN_RULE = 0.9;

/** A run of running text: at least this many words. */
const PROSE_RUN = 6;
/** The white between two columns of running text is at least this many ems wide. */
const GUTTER_MIN_EM = 0.6;

/**
 * The white gutter between a page's two columns of running text, where it runs through a region
 * of table-like lines: within a gap between two of the region's runs, runs of running text
 * (PROSE_RUN words or more) end on its left and start on its right, one on each side at least
 * and three in all, with GUTTER_MIN_EM of white between them; no run crosses that white from
 * the nearest of them above the region to the nearest below; and the region's runs on either
 * side keep baselines of their own (under half of those on the side with fewer stand within
 * 0.2 em of a baseline on the other). Two lists of short links set side by side in the page's
 * columns are then no rows, as under a column rule; a table's rows run across the gap on common
 * baselines, and a table inside one column, or across a one-column page, has running text
 * crossing its gutters.
 */
function textGutter(region: AlignedRegion, runs: readonly (Box & { words: readonly Word[] })[], size: number): number | undefined {
  const inside = runs.filter((r) => r.y0 >= region.y0 - 1 && r.y1 <= region.y1 + 1 && r.x0 >= region.x0 - 1 && r.x1 <= region.x1 + 1).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const tried = new Set<number>();
  for (let i = 1; i < inside.length; i++) {
    const a = inside[i - 1] as Box;
    const b = inside[i] as Box;
    if (Math.abs(a.y0 - b.y0) > 0.5 * size || b.x0 <= a.x1) continue;
    // Running text ending in the gap on its left, starting in it on its right.
    const left = runs.filter((r) => r.words.length >= PROSE_RUN && r.x1 > a.x1 - 1 && r.x1 < b.x0);
    const right = runs.filter((r) => r.words.length >= PROSE_RUN && r.x0 > a.x1 && r.x0 < b.x0 + 1);
    if (left.length === 0 || right.length === 0 || left.length + right.length < 3) continue;
    const g0 = Math.max(...left.map((r) => r.x1));
    const g1 = Math.min(...right.map((r) => r.x0));
    if (g1 - g0 < GUTTER_MIN_EM * size) continue;
    const x = Math.round((g0 + g1) / 2);
    if (tried.has(x)) continue;
    tried.add(x);
    const flank = [...left, ...right];
    const above = Math.max(...flank.filter((r) => r.y1 <= region.y0 + 1).map((r) => r.y1));
    const below = Math.min(...flank.filter((r) => r.y0 >= region.y1 - 1).map((r) => r.y0));
    const top = Number.isFinite(above) ? above : region.y0;
    const bottom = Number.isFinite(below) ? below : region.y1;
    if (runs.some((r) => r.x0 < x && r.x1 > x && r.y1 > top && r.y0 < bottom)) continue;
    // A table's rows run across the gap: most runs on the side with fewer stand on the baseline
    // of a run on the other. Two columns set side by side keep their own.
    const lefts = inside.filter((r) => r.x1 <= x);
    const rights = inside.filter((r) => r.x0 >= x);
    const [few, many] = lefts.length <= rights.length ? [lefts, rights] : [rights, lefts];
    const paired = few.filter((r) => many.some((o) => Math.abs(o.y1 - r.y1) <= 0.2 * size)).length;
    if (paired >= 0.5 * few.length) continue;
    return x;
  }
  return undefined;
}

/**
 * Runs of table-like lines (borderless.ts), parted at the page's column rules: a vertical line
 * (a rule between columns, the fold of a spread printed on one sheet, the edge of a panel painted
 * behind a column) over half the page's height that runs through a region from its top to its
 * bottom, or the white gutter between two columns of running text (textGutter). A table found
 * by alignment alone lies within one column; lines of two columns that happen to share
 * baselines are no rows, so each side is searched by itself.
 */
function columnRegions(page: PageModel, words: readonly Word[], size: number, rules: readonly Line[]): AlignedRegion[] {
  const dividers = (pageLines(page)?.vertical ?? []).filter((v) => v.to - v.from >= COLUMN_RULE * page.height);
  const runs = textLines(words, size).flatMap((l) => l.chunks);
  const out: AlignedRegion[] = [];
  const search = (ws: readonly Word[], depth: number): void => {
    for (const region of borderlessRegions(ws, size, rules)) {
      const divider = dividers.find((v) => v.at > region.x0 && v.at < region.x1 && v.from <= region.y0 && v.to >= region.y1)?.at ?? (depth > 4 ? undefined : textGutter(region, runs, size));
      if (divider === undefined || depth > 4) {
        out.push(region);
        continue;
      }
      const inside = ws.filter((w) => centreIn(w, region));
      search(inside.filter((w) => (w.x0 + w.x1) / 2 < divider), depth + 1);
      search(inside.filter((w) => (w.x0 + w.x1) / 2 >= divider), depth + 1);
    }
  };
  search(words, 0);
  return out;
}

/** How far under a word's baseline (in its ems) an underline lies, at most. */
const UNDERLINE_DROP = 0.35;

/**
 * A rule that underlines words (a link, an emphasis): it lies just under a line's baseline and
 * runs from a word's start to a word's end on that line (within a point). It marks text, it
 * rules no row: a browser underlines every link, and a cell's links are not the table's rules.
 */
function underline(rule: Line, byBaseline: readonly Word[], maxSize: number): boolean {
  // The words whose baseline may lie within reach of the rule, found by bisection: a page of
  // thousands of rules over thousands of words is not searched pairwise.
  let lo = 0;
  let hi = byBaseline.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((byBaseline[mid] as Word).baseline < rule.at - UNDERLINE_DROP * maxSize) lo = mid + 1;
    else hi = mid;
  }
  let starts = false;
  let ends = false;
  for (let i = lo; i < byBaseline.length; i++) {
    const w = byBaseline[i] as Word;
    if (w.baseline > rule.at + 0.5) break;
    if (rule.at > w.baseline + UNDERLINE_DROP * w.size) continue;
    starts ||= Math.abs(w.x0 - rule.from) <= 1;
    ends ||= Math.abs(w.x1 - rule.to) <= 1;
    if (starts && ends) return true;
  }
  return false;
}

/** Borderless tables with no rule to start from, among the words no other table took. */
function borderlessTables(page: PageModel, found: readonly PdfTable[]): PdfTable[] {
  const size = medianSize(page.words);
  const free = page.words.filter((w) => !found.some((t) => centreIn(w, t)));
  const byBaseline = [...page.words].sort((a, b) => a.baseline - b.baseline);
  const maxSize = byBaseline.reduce((m, w) => Math.max(m, w.size), 0);
  const rules = (pageLines(page)?.horizontal ?? []).filter((r) => !underline(r, byBaseline, maxSize));
  const out: PdfTable[] = [];
  for (const region of columnRegions(page, free, size, rules)) {
    if (found.some((t) => overlaps(t, region))) continue;
    const table = alignedCandidate(page, region, size, { aligned: true });
    if (table) out.push(table);
  }
  return out;
}

/**
 * Column heads set just above a ruled grid that has none inside it (no bold in its first row):
 * the line right above the frame, within a line space, whose words each fall inside one of the
 * grid's columns and fill at least two (a slanted head by where it starts). A caption runs
 * across the columns and is left out.
 */
function headAbove(page: PageModel, frame: Box, xs: readonly number[], cells: readonly GridCell[], size: number): GridCell[] | undefined {
  if (cells.some((c) => c.row === 0 && c.words.some((w) => w.bold))) return undefined;
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  // A head set on a slant over a narrow column (rotated words) stands over the column its foot
  // is in (the box's lower left, half an em in: the ascent leans left of the origin): the box
  // leans over the columns to its right.
  const anchored = (w: Word): Word => (w.rotated ? { ...w, x0: Math.min(w.x1, w.x0 + 0.5 * w.size), x1: Math.min(w.x1, w.x0 + w.size) } : w);
  const lines = wordLines(wordsIn(page.words, { x0, x1, y0: frame.y0 - 3 * size, y1: frame.y0 }).map(anchored));
  const line = lines[lines.length - 1];
  if (!line || frame.y0 - Math.max(...line.map((w) => w.y1)) > size) return undefined;
  const column = (w: Word): number => xs.findIndex((x, i) => i + 1 < xs.length && w.x0 >= x - 1 && w.x1 <= (xs[i + 1] as number) + 1);
  const columns = line.map(column);
  if (columns.some((c) => c < 0) || new Set(columns).size < 2) return undefined;
  const y0 = Math.min(...line.map((w) => w.y0)) - 1;
  const head: GridCell[] = xs.slice(0, -1).map((x, c) => ({ row: 0, col: c, rowSpan: 1, colSpan: 1, x0: x, x1: xs[c + 1] as number, y0, y1: frame.y0, words: [], text: '' }));
  fillCells(head, line, { xs, ys: [y0, frame.y0] });
  return head;
}

/** Share of the page's words, and of its width and height, a page border holds. */
const BORDER_WORDS = 0.8;
const BORDER_EXTENT = 0.6;

/**
 * A frame round the page's text (a brochure's border): it holds most of the page's words and
 * spans most of its width and height. No table is laid out by it; a table inside it is still
 * found by its own rules or its alignment.
 */
function pageBorder(page: PageModel, frame: Box, inFrame: readonly Word[]): boolean {
  return inFrame.length >= BORDER_WORDS * page.words.length && frame.x1 - frame.x0 >= BORDER_EXTENT * page.width && frame.y1 - frame.y0 >= BORDER_EXTENT * page.height;
}

function ruledTables(page: PageModel): PdfTable[] {
  const lines = pageLines(page);
  if (!lines) return [];
  const out: PdfTable[] = [];
  const size = medianSize(page.words);
  const loose: Line[] = [];
  const seeds: AlignedRegion[] = [];
  for (const frame of stackFrames(frames(lines), 3 * size, page.words, size)) {
    // A drawing's outlines crossing (drawing.ts): its words are labels, not cells.
    if (overDrawing(frame, page.fills)) continue;
    if (frame.vertical.length === 0) {
      loose.push(...frame.horizontal);
      continue;
    }
    const inFrame = wordsIn(page.words, frame);
    const grid = frameGrid(frame, inFrame, lines.strokedVertical);
    const cells = grid ? gridCells(grid) : [];
    if (grid) fillCells(cells, inFrame, grid);
    let laid = grid ? compact({ rows: grid.ys.length - 1, cols: grid.xs.length - 1, cells }, true) : undefined;
    // A form's boxes, each a label over blank room to fill in (form-boxes.ts): its words are text,
    // and no table is sought among them.
    if (laid && formBoxes(laid)) continue;
    if (grid && laid && (acceptable(laid) || singleColumnTable(laid))) {
      let box: Box = frame;
      // Heads underlined column by column above the grid (underlined.ts), else the line right above.
      const underlined = underlinedHead(page.words, lines.horizontal, frame, grid.xs, size);
      let head = underlined ?? headAbove(page, frame, grid.xs, cells, size);
      // Heads over groups of columns above the column heads taken from above (group-heads.ts).
      const headWords = !underlined && head ? head.flatMap((c) => c.words) : [];
      const groups = headWords.length > 0 ? groupHeads(page.words, Math.min(...headWords.map((w) => w.y0)), grid.xs, size) : undefined;
      if (groups && head) head = [...groups, ...head.map((c) => ({ ...c, row: c.row + 1 }))];
      const headRowCount = head ? Math.max(...head.map((c) => c.row)) + 1 : 0;
      const rows = grid.ys.length - 1 + headRowCount;
      const below = rowBelow(page.words, page.fills, frame, grid.xs, grid.ys, rows, size);
      if (head || below) {
        const all = [...(head ?? []), ...cells.map((c) => ({ ...c, row: c.row + headRowCount })), ...(below ?? [])];
        laid = compact({ rows: rows + (below ? 1 : 0), cols: grid.xs.length - 1, cells: all }, true);
        box = { ...frame, y0: head ? Math.min(...head.map((c) => c.y0)) : frame.y0, y1: below ? Math.max(...below.map((c) => c.y1)) : frame.y1 };
      }
      // Group heads over column heads, both taken from above the grid, are its header rows.
      out.push(toPdfTable(page, box, laid, groups ? Math.max(headerRows(laid), headRowCount) : headerRows(laid)));
      continue;
    }
    // A panel holding a text box per cell (boxes.ts): the boxes are the grid.
    const boxed = grid ? boxGridTable(frame, page.fills, inFrame) : undefined;
    if (boxed && acceptable(boxed)) {
      out.push(toPdfTable(page, frame, boxed, headerRows(boxed)));
      continue;
    }
    // A border drawn round the page's text is decoration: its words are read as the page's,
    // tables among them found by alignment alone, as on an unframed page.
    if (pageBorder(page, frame, inFrame)) continue;
    // Lines that form no grid of their own (an open frame, rows ruled, columns aligned): the
    // text decides, once the tables ruled across have been found.
    seeds.push({ x0: frame.x0, x1: frame.x1, y0: frame.y0, y1: frame.y1, rules: frame.horizontal });
  }
  for (const region of ruleStacks(page, loose, size)) {
    if (out.some((t) => overlaps(t, region))) continue;
    const aligned = region.rules.length >= 2 ? (headOverHeavyRule(page, region, size) ?? alignedCandidate(page, region, size)) : undefined;
    if (aligned) out.push(aligned);
    else seeds.push(region);
  }
  // Last, the borderless tables around what is left: they must not take rows of the tables above.
  for (const seed of seeds) {
    if (out.some((t) => overlaps(t, seed))) continue;
    const table = grownCandidate(page, seed, out, size, lines.horizontal) ?? (seed.y1 - seed.y0 > size ? alignedCandidate(page, seed, size) : undefined);
    if (table) out.push(table);
  }
  return out;
}

/**
 * A borderless table around a rule or an open frame (grow.ts): at least three rows. A rule
 * shorter than a few ems (an underline, a footnote separator's stub) seeds nothing.
 */
function grownCandidate(page: PageModel, seed: AlignedRegion, found: readonly PdfTable[], size: number, horizontal: readonly Line[]): PdfTable | undefined {
  if (seed.x1 - seed.x0 < 8 * size) return undefined;
  const free = page.words.filter((w) => !found.some((t) => centreIn(w, t)));
  // Grown from a head rule (a head sitting on a lone rule): another table's head rule below
  // stops the growth, and so does a line set larger than the rows (twoHeadRules, grow.ts).
  const only = seed.rules.length === 1 ? seed.rules[0] : undefined;
  const headed = only !== undefined && headOnRule(page, only, size);
  const nextHeads = headed ? horizontal.filter((r) => r.at > seed.y1 + size && Math.min(r.to, seed.x1) - Math.max(r.from, seed.x0) >= 0.5 * (seed.x1 - seed.x0) && headOnRule(page, r, size)) : [];
  const region = grownRegion(seed, seed.rules, free, size, { headed, nextHeads });
  if (!region || found.some((t) => overlaps(t, region))) return undefined;
  const table = alignedCandidate(page, region, size);
  return table && table.rows >= 3 ? table : undefined;
}

/** The page's tables, top to bottom. */
export function findTables(page: PageModel): PdfTable[] {
  if (page.words.length === 0) return [];
  try {
    const ruled = ruledTables(page);
    return [...ruled, ...borderlessTables(page, ruled)].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  } finally {
    indexes.delete(page.words);
  }
}
