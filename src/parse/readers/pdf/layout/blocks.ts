/**
 * Lines in reading order → blocks (paragraph-sized units). A new block starts where a
 * typographer would see one: the text jumps (another column or region), the gap above is
 * clearly wider than the usual line spacing, the type changes (size, or bold against regular),
 * a list marker opens the line, the line is indented after a full line (first-line indent),
 * the line above ended short with a sentence end, or stood over the line as a side head (short,
 * in italic over roman); in a tagged PDF, where the structure element
 * changes (another block role, or artifact against content).
 */
import type { Box } from '../page-model.ts';
import { lineText } from './inline.ts';
import type { Line } from './lines.ts';
import { listMarker, SECTION_NUMBER } from './markers.ts';
import { mostlyArtifact, otherStructure, roleOfWords } from './roles.ts';

export interface Block extends Box {
  lines: Line[];
  /** The font of most characters. */
  font: string;
  /** The main font size (most characters). */
  size: number;
  bold: boolean;
  /** The block is an entry of a table of contents (contents.ts): never a heading. */
  contents?: boolean;
  /**
   * A side head: a short line set wholly in italic, title-cased and ending no sentence, standing
   * right over a paragraph set in roman at its size ("Elastic Stop Nut" over "The elastic stop
   * nut is…"), parted from it here.
   */
  sideHead?: boolean;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function overlapsHorizontally(a: Box, b: Box): boolean {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
}

/** The usual gap between consecutive lines of running text, in font sizes. */
function usualGap(lines: readonly Line[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1] as Line;
    const line = lines[i] as Line;
    if (!overlapsHorizontally(prev, line) || Math.abs(prev.size - line.size) > 0.15 * line.size) continue;
    const gap = (line.y0 - prev.y1) / line.size;
    if (gap > -0.2 && gap < 1.5) gaps.push(gap);
  }
  return median(gaps) ?? 0.3;
}

export function blockOf(lines: Line[]): Block {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let bold = true;
  // The size carrying most characters, the font of most words (a block has few of each).
  const sizes: number[] = [];
  const sizeChars: number[] = [];
  const fonts: string[] = [];
  const fontWords: number[] = [];
  for (const l of lines) {
    if (l.x0 < x0) x0 = l.x0;
    if (l.y0 < y0) y0 = l.y0;
    if (l.x1 > x1) x1 = l.x1;
    if (l.y1 > y1) y1 = l.y1;
    bold &&= l.bold;
    let n = 0;
    for (const w of l.words) n += w.text.length;
    const si = sizes.indexOf(l.size);
    if (si < 0) {
      sizes.push(l.size);
      sizeChars.push(n);
    } else sizeChars[si] = (sizeChars[si] as number) + n;
    const fi = fonts.indexOf(l.font);
    if (fi < 0) {
      fonts.push(l.font);
      fontWords.push(l.words.length);
    } else fontWords[fi] = (fontWords[fi] as number) + l.words.length;
  }
  let best = 0;
  for (let i = 1; i < sizes.length; i++) if ((sizeChars[i] as number) > (sizeChars[best] as number)) best = i;
  let bestFont = 0;
  for (let i = 1; i < fonts.length; i++) if ((fontWords[i] as number) > (fontWords[bestFont] as number)) bestFont = i;
  return { x0, y0, x1, y1, lines, size: sizes[best] ?? 0, font: fonts[bestFont] ?? '', bold };
}

function structureOf(line: Line): { role: string | undefined; artifact: boolean } {
  return { role: roleOfWords(line.words), artifact: mostlyArtifact([line]) };
}

const SENTENCE_END = /[.!?:;"”’)]$/u;
/** A gap of more than this many font sizes ends a code listing (one blank line does not). */
const CODE_BLANK_LINES = 2.5;

function entryOf(lines: Line[], entries: ReadonlySet<Line>): Block {
  const block = blockOf(lines);
  return lines.some((l) => entries.has(l)) ? { ...block, contents: true } : block;
}

/**
 * `entries`: the page's table-of-contents entries (contents.ts); a block holding one is marked.
 * (Parting every entry into a block of its own was tried: bench:pdf's checking half fell, MHS
 * 0.845 → 0.834, so entries keep the paragraph breaks the type gives them.)
 */
export function blocksOf(ordered: readonly Line[], entries: ReadonlySet<Line> = new Set()): Block[] {
  const blocks: Block[] = [];
  const gap = usualGap(ordered);
  const textSize = median(ordered.map((l) => l.size)) ?? 0;
  let current: Line[] = [];
  let right = -Infinity;
  let isItem = false;
  let sideHead = false;
  ordered.forEach((line, index) => {
    const prev = current[current.length - 1];
    let starts = prev === undefined;
    const text = lineText(line);
    let marker = listMarker(text);
    // A dash at the start of a line inside a running sentence is a range or a minus ("51 / - 99").
    if (marker && prev && /^[-–—]/u.test(text) && !/[.:;!?]$/u.test(lineText(prev)) && listMarker(lineText(current[0] as Line)) === undefined) marker = undefined;
    if (prev) {
      const size = Math.max(prev.size, line.size);
      const space = line.y0 - prev.y1;
      const sizeChange = Math.abs(prev.size - line.size) / size;
      const jumped = !overlapsHorizontally(prev, line) || line.y1 < prev.y0 + 0.2 * size;
      const wide = space > Math.max((gap + 0.45) * size, gap * 1.8 * size) && !headBrokenOver(prev, line, ordered, textSize);
      const typeChanged = sizeChange > 0.12 || prev.bold !== line.bold || (sizeChange > 0.05 && prev.font !== line.font);
      const indent = line.x0 - prev.x0;
      const firstLine = current.length === 1 || Math.abs(prev.x0 - (current[0] as Line).x0) < 0.5 * size;
      // A hanging indent (the next line stays indented too) continues the block.
      const next = ordered[index + 1];
      const hanging = next !== undefined && Math.abs(next.x0 - line.x0) < 0.5 * size && next.y0 > line.y0;
      const indented = !isItem && firstLine && !hanging && !centredUnder(line, prev, size) && indent > 0.8 * size && indent < 5 * size && (Math.abs(line.x1 - Math.max(right, prev.x1)) < 1.5 * size || SENTENCE_END.test(lineText(prev)));
      const endedShort = current.length >= 2 && prev.x1 < right - 3 * size && SENTENCE_END.test(lineText(prev));
      // A short numbered first line ("4.3.2 Alignment Tuning") above a full one is a heading.
      const numberedShort = current.length === 1 && prev.row !== line.row && SECTION_NUMBER.test(prev.words[0]?.text ?? '') && prev.x1 < line.x1 - 4 * size;
      // A short first line set a size larger than the line under it, not ending a sentence,
      // is a title over its text, though the sizes differ too little to count as a change of
      // type inside a paragraph.
      const titleAbove = current.length === 1 && prev.row !== line.row && prev.size > line.size && sizeChange > 0.05 && prev.x1 < line.x1 - 4 * size && !SENTENCE_END.test(lineText(prev));
      // A head over a head a step smaller (a word processor's Heading 1 at 14 pt over its
      // Heading 2 at 13): a first line set larger than the line under it, ending no sentence,
      // with more white between them than a paragraph's leading leaves (half an em).
      const headOverHead = current.length === 1 && prev.row !== line.row && prev.size > line.size && sizeChange > 0.05 && space > 0.5 * line.size && !SENTENCE_END.test(lineText(prev));
      // A short title-cased line wholly in italic over a line in roman of its size, ending no
      // sentence, is a side head over its paragraph.
      const italicAbove = current.length === 1 && prev.row !== line.row && sizeChange <= 0.12 && isSideHeadLine(prev, line, size);
      // Cells of one row read in a row (a borderless table, a form) stay one block.
      const sameRow = line.row === prev.row && line.x0 >= prev.x1;
      // Tagged PDF: another structure element (role, or artifact against content) is another block.
      const structure = otherStructure(structureOf(prev), structureOf(line));
      // Code (fixed pitch on both lines) runs on through indents, short lines and markers-like
      // text ("- x", "1 for (…"): only a jump, a wide gap or a change of type ends it.
      const code = prev.monospace && line.monospace;
      const pitchChanged = prev.monospace !== line.monospace;
      // A blank line inside a listing (between two functions) is part of it.
      // Indentation moves code lines sideways (a closing brace shares no x with the line above):
      // only a move up (the next column) is a jump.
      starts = code
        ? structure || line.y1 < prev.y0 + 0.2 * size || space > CODE_BLANK_LINES * size || typeChanged
        : structure || pitchChanged || (!sameRow && (jumped || wide || typeChanged || marker !== undefined || indented || endedShort || numberedShort || titleAbove || headOverHead || italicAbove));
      // The side head stands right over its paragraph: no jump, no wider gap than the leading.
      if (italicAbove && starts && !jumped && !wide) sideHead = true;
    }
    if (starts && current.length > 0) {
      blocks.push(sideHead ? { ...entryOf(current, entries), sideHead: true } : entryOf(current, entries));
      sideHead = false;
      current = [];
      right = -Infinity;
    }
    if (current.length === 0) isItem = marker !== undefined;
    current.push(line);
    right = Math.max(right, line.x1);
  });
  if (current.length > 0) blocks.push(entryOf(current, entries));
  return numbersToTitles(blocks);
}

/**
 * A line centred under the line above it, pulled in on both sides by about as much (a display
 * line broken before the measure is full, set centred: a spanning title's second line), is the
 * same text going on, not a paragraph's first-line indent. The line above ends no sentence.
 */
function centredUnder(line: Line, prev: Line, size: number): boolean {
  if (prev.row === line.row || line.size !== prev.size || SENTENCE_END.test(lineText(prev))) return false;
  const centre = (l: Line) => (l.x0 + l.x1) / 2;
  return line.x0 > prev.x0 + 0.5 * size && line.x1 < prev.x1 - 0.5 * size && Math.abs(centre(line) - centre(prev)) <= 0.5 * size;
}

/**
 * A head broken over two lines with more white between them than the text's leading (an inline
 * box in the head's line, or the head's own line height): the two lines are one head when they
 * are set in one type — larger than the page's text (`textSize`) or bold —, start at one left
 * edge, stand within an em of each other, the upper ends no sentence and the lower line's first
 * word would not have fitted at the upper line's end within its column's measure (the right end
 * of the lines starting at that edge): the line broke there because the word did not fit.
 */
function headBrokenOver(prev: Line, line: Line, ordered: readonly Line[], textSize: number): boolean {
  const size = line.size;
  if (prev.row === line.row || prev.size !== size || prev.bold !== line.bold || prev.font !== line.font || prev.monospace || line.monospace) return false;
  if (!(line.bold || size >= 1.1 * textSize) || Math.abs(line.x0 - prev.x0) > 0.5 * size) return false;
  if (line.y0 - prev.y1 > size || SENTENCE_END.test(lineText(prev))) return false;
  const first = line.words[0];
  if (first === undefined) return false;
  const column = ordered.filter((l) => l !== prev && l !== line && Math.abs(l.x0 - prev.x0) <= 0.5 * size);
  if (column.length === 0) return false;
  const measure = Math.max(...column.map((l) => l.x1));
  return prev.x1 + 0.25 * size + (first.x1 - first.x0) > measure;
}

/** Words of a side head at most (a title, not a sentence in italic). */
const SIDE_HEAD_WORDS = 10;

/**
 * `line` is a side head over `under`: every word in italic, none of `under`'s; title-cased (a
 * capital first), ten words or fewer, ending no sentence; short of `under`'s end by four ems.
 */
function isSideHeadLine(line: Line, under: Line, size: number): boolean {
  if (!line.italic || under.words.some((w) => w.italic) || line.monospace) return false;
  const text = lineText(line).trim();
  return /^\p{Lu}/u.test(text) && !/[.,;:!?]$/u.test(text) && text.split(/\s+/u).length <= SIDE_HEAD_WORDS && line.x1 < under.x1 - 4 * size;
}

/**
 * A section number set on a line of its own over its title ("III." over "Regulatory
 * cholesterol", in the same weight, a size apart, flush left with it, close under it) is the
 * title's number: the two blocks are one. The title is short and ends no sentence.
 */
function numbersToTitles(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const number = blocks[i] as Block;
    const title = blocks[i + 1];
    const only = number.lines.length === 1 ? number.lines[0] : undefined;
    const last = title?.lines[title.lines.length - 1];
    if (
      only &&
      title &&
      last &&
      only.words.length === 1 &&
      SECTION_NUMBER.test(only.words[0]?.text ?? '') &&
      !title.contents &&
      title.lines.length <= 2 &&
      number.bold === title.bold &&
      Math.abs(number.size - title.size) <= 0.25 * Math.max(number.size, title.size) &&
      Math.abs(number.x0 - title.x0) < 0.5 * title.size &&
      title.y0 > number.y0 &&
      title.y0 - number.y1 < title.size &&
      !SENTENCE_END.test(lineText(last))
    ) {
      out.push(blockOf([...number.lines, ...title.lines]));
      i++;
      continue;
    }
    out.push(number);
  }
  return out;
}
