/**
 * Code listings: lines set wholly in a fixed-pitch font (the font says so, or its name), two or
 * more of them in a block, are program text, not prose. A typesetter sets code line by line,
 * indentation meaningful, so the block becomes `<pre><code>` with its line breaks kept and its
 * indentation rebuilt from the fixed pitch: a line starting n character widths right of the
 * block's left edge starts with n spaces, and every word stands at its own column (pieces of one
 * token drawn apart join up). A blank line inside a listing does not end it.
 * Symbol fonts (bullets, stars) are often fixed-pitch too: a block needs letters or digits.
 */
import { escapeHtml } from '../../../document.ts';
import type { Word } from '../page-model.ts';
import type { Block } from './blocks.ts';
import type { Line } from './lines.ts';

/** Lines a listing needs: one fixed-pitch line is an address or a term in running text. */
const MIN_CODE_LINES = 2;
/** Indentation deeper than this many characters is a position, not an indent (a margin note). */
const MAX_INDENT_CHARS = 60;

export function isCodeBlock(block: Block): boolean {
  return block.lines.length >= MIN_CODE_LINES && block.lines.every((l) => l.monospace) && block.lines.some((l) => l.words.some((w) => /[\p{L}\p{N}]/u.test(w.text)));
}

/** The fixed pitch: the median advance per character of the block's words of two characters or more (a lone comma's box is narrow). */
function pitch(lines: readonly Line[]): number {
  const widths: number[] = [];
  for (const l of lines) for (const w of l.words) if (w.text.length > 1) widths.push((w.x1 - w.x0) / w.text.length);
  if (widths.length === 0) for (const l of lines) for (const w of l.words) if (w.text.length > 0) widths.push((w.x1 - w.x0) / w.text.length);
  widths.sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)] ?? 1;
}

const spaces = (n: number): string => ' '.repeat(Math.max(0, Math.min(MAX_INDENT_CHARS, n)));

/**
 * A line of code: each word at its column, (x − the block's left edge) / pitch, so indentation
 * and alignment survive and pieces of one token drawn apart join up; words whose columns
 * collide still keep a space where the ink shows a gap of half a pitch.
 */
function lineCode(line: Line, left: number, width: number): string {
  let out = '';
  let prev: Word | undefined;
  for (const w of line.words) {
    const column = Math.min(out.length + MAX_INDENT_CHARS, Math.round((w.x0 - left) / width));
    if (column > out.length) out += spaces(column - out.length);
    else if (prev && w.x0 - prev.x1 > 0.5 * width && !out.endsWith(' ')) out += ' ';
    out += w.text;
    prev = w;
  }
  return out;
}

export function codeHtml(block: Block): string {
  const width = pitch(block.lines);
  const text = block.lines.map((l) => lineCode(l, block.x0, width)).join('\n');
  return `<pre><code>${escapeHtml(text)}</code></pre>`;
}
