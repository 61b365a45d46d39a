/**
 * Code listings: lines set wholly in a fixed-pitch font (the font says so, or its name), two or
 * more of them in a block, are program text, not prose. A typesetter sets code line by line,
 * indentation meaningful, so the block becomes `<pre><code>` with its line breaks kept and its
 * indentation rebuilt from the fixed pitch: a line starting n character widths right of the
 * block's left edge starts with n spaces, and every word stands at its own column (pieces of one
 * token drawn apart join up). A blank line inside a listing does not end it.
 * Symbol fonts (bullets, stars) are often fixed-pitch too: a block needs letters or digits.
 *
 * The pitch is the grid the words start on, not the glyphs' own width: a listing set on a grid
 * wider than its font's advance (LaTeX's listings with fixed columns centre each character in a
 * cell of about 0.6 em while the glyphs advance 0.52 em) has glyphs narrower than their
 * columns, and the gaps the viewer reads as spaces ("add (a ," for "add(a,") are the cells'
 * margins. There the pitch is fitted to where the words start (pitch(), below).
 */
import { escapeHtml } from '../../../document.ts';
import type { Word } from '../page-model.ts';
import type { Block } from './blocks.ts';
import type { Line } from './lines.ts';

/** Lines a listing needs: one fixed-pitch line is an address or a term in running text. */
const MIN_CODE_LINES = 2;
/** Indentation deeper than this many characters is a position, not an indent (a margin note). */
const MAX_INDENT_CHARS = 60;
/** Fixed-pitch faces advance between these shares of the type size (Inconsolata 0.5, cmtt 0.525, Courier 0.6, a listing's grid 0.6–0.63). */
const PITCH_MIN_EM = 0.45;
const PITCH_MAX_EM = 0.75;
/** Candidate pitches are tried in steps of this share of the type size. */
const PITCH_STEP_EM = 0.001;
/** Word starts a fitted pitch needs: fewer say nothing about a grid (a listing of one word a line). */
const MIN_FIT_STARTS = 4;
/** Words of this many characters or more show the advance (a lone comma's box is narrow). */
const MIN_ADVANCE_CHARS = 3;
/** The words' advances agree when the median is within this share of the widest. */
const ADVANCES_AGREE = 0.98;
/** Words start on a grid when their starts lie this near its columns (mean squared distance, in columns²: a tenth of a column on average). */
const ON_GRID = 0.01;
/**
 * Where a word's column falls inside the word before it, a gap of at least this many pitches is
 * still a space: a character's width on a grid (a narrower gap is a cell's margin), half of one
 * where the words lie on no grid.
 */
const INK_SPACE_PITCH = 0.9;
const INK_SPACE_OFF_GRID = 0.5;

/** A block's column width, and whether its words start on that grid. */
interface Pitch {
  width: number;
  grid: boolean;
}

export function isCodeBlock(block: Block): boolean {
  return block.lines.length >= MIN_CODE_LINES && block.lines.every((l) => l.monospace) && block.lines.some((l) => l.words.some((w) => /[\p{L}\p{N}]/u.test(w.text)));
}

/** The glyphs' advance: the median width per character of the block's words of two characters or more (a lone comma's box is narrow). */
function glyphPitch(lines: readonly Line[]): number {
  const widths: number[] = [];
  for (const l of lines) for (const w of l.words) if (w.text.length > 1) widths.push((w.x1 - w.x0) / w.text.length);
  if (widths.length === 0) for (const l of lines) for (const w of l.words) if (w.text.length > 0) widths.push((w.x1 - w.x0) / w.text.length);
  widths.sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)] ?? 1;
}

/**
 * How far the words start from whole columns at this pitch: the mean squared distance of each
 * start from its nearest column, a word whose column falls inside the word before it counting
 * as far as can be (half a column).
 */
function gridMisfit(lines: readonly Line[], left: number, width: number): number {
  let sum = 0;
  let n = 0;
  for (const line of lines) {
    let end = -Infinity;
    for (const w of line.words) {
      const at = (w.x0 - left) / width;
      const column = Math.round(at);
      const off = column < end ? 0.5 : Math.abs(at - column);
      sum += off * off;
      n += 1;
      end = Math.max(end, column) + [...w.text].length;
    }
  }
  return n === 0 ? 0 : sum / n;
}

/**
 * The block's pitch. Where the words start on the grid of their glyphs' advance, that advance.
 * Where they do not — the words disagree about the advance (a word drawn as a run of its own
 * spans more per character than words the viewer cut out of a run at the gaps it took for
 * spaces), or their starts fall between that grid's columns — the glyphs are not the grid: the
 * pitch is the width, from the widest advance a word shows up to 0.75 of the type size, that
 * puts the word starts nearest whole columns; where no wider width does better, the words lie
 * on no grid (the glyphs' advance, and the spacing the ink shows).
 */
function pitch(lines: readonly Line[], left: number): Pitch {
  const glyphs = glyphPitch(lines);
  let widest = glyphs;
  for (const l of lines) for (const w of l.words) if ([...w.text].length >= MIN_ADVANCE_CHARS) widest = Math.max(widest, (w.x1 - w.x0) / [...w.text].length);
  const sizes = lines.flatMap((l) => l.words.map((w) => w.size)).sort((a, b) => a - b);
  const size = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const starts = lines.reduce((n, l) => n + l.words.length, 0);
  if (size <= 0 || starts < MIN_FIT_STARTS) return { width: glyphs, grid: false };
  const glyphMisfit = gridMisfit(lines, left, glyphs);
  if (glyphs >= ADVANCES_AGREE * widest && glyphMisfit <= ON_GRID) return { width: glyphs, grid: true };
  let best = glyphs;
  let bestMisfit = glyphMisfit;
  for (let width = Math.max(ADVANCES_AGREE * widest, PITCH_MIN_EM * size); width <= PITCH_MAX_EM * size; width += PITCH_STEP_EM * size) {
    const misfit = gridMisfit(lines, left, width);
    if (misfit < bestMisfit) {
      best = width;
      bestMisfit = misfit;
    }
  }
  // No wider width puts the starts nearer whole columns: fixed-pitch glyphs set where a scan's
  // words stood (an OCR text layer in Courier), not a listing. The spacing the ink shows.
  return { width: best, grid: best !== glyphs };
}

const spaces = (n: number): string => ' '.repeat(Math.max(0, Math.min(MAX_INDENT_CHARS, n)));

/**
 * A line of code: each word at its column, (x − the block's left edge) / pitch, so indentation
 * and alignment survive and pieces of one token drawn apart join up; a word whose column falls
 * inside the word before it follows it directly, unless the ink shows a gap of a character.
 */
function lineCode(line: Line, left: number, { width, grid }: Pitch): string {
  let out = '';
  let prev: Word | undefined;
  for (const w of line.words) {
    const column = Math.min(out.length + MAX_INDENT_CHARS, Math.round((w.x0 - left) / width));
    if (column > out.length) out += spaces(column - out.length);
    else if (prev && w.x0 - prev.x1 >= (grid ? INK_SPACE_PITCH : INK_SPACE_OFF_GRID) * width && !out.endsWith(' ')) out += ' ';
    out += w.text;
    prev = w;
  }
  return out;
}

export function codeHtml(block: Block): string {
  const at = pitch(block.lines, block.x0);
  const text = block.lines.map((l) => lineCode(l, block.x0, at)).join('\n');
  return `<pre><code>${escapeHtml(text)}</code></pre>`;
}
