/**
 * A cell's text from the words inside it: lines top to bottom, words left to right, lines joined
 * by a space, a word broken by a hyphen at a line's end joined again.
 */
import type { Box, Word } from '../page-model.ts';

export function centreIn(w: Box, b: Box): boolean {
  const x = (w.x0 + w.x1) / 2;
  const y = (w.y0 + w.y1) / 2;
  return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
}

/** Words → lines: sorted by baseline, a new line where the baseline moves by more than half a size. */
export function wordLines(words: readonly Word[]): Word[][] {
  const sorted = [...words].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  const lines: Word[][] = [];
  let line: Word[] = [];
  let baseline = Number.NEGATIVE_INFINITY;
  for (const w of sorted) {
    // Superscripts sit a little higher on the same line: half the larger size keeps them in.
    if (line.length > 0 && w.baseline - baseline > 0.5 * Math.max(w.size, line[0]?.size ?? 0)) {
      lines.push(line);
      line = [];
    }
    if (line.length === 0) baseline = w.baseline;
    line.push(w);
  }
  if (line.length > 0) lines.push(line);
  for (const l of lines) l.sort((a, b) => a.x0 - b.x0);
  return lines;
}

/** One line's words: a space where there is a gap, none where pieces touch (a footnote mark). */
export function lineText(line: readonly Word[]): string {
  let text = '';
  let end = Number.NEGATIVE_INFINITY;
  for (const w of line) {
    if (text !== '' && w.x0 - end > 0.12 * w.size) text += ' ';
    text += w.text;
    end = w.x1;
  }
  return text;
}

/** Lines joined by spaces; "infor-" + "mation" → "information" (a lower-case letter follows). */
export function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const l of lines) {
    if (text === '') text = l;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(l)) text = text.slice(0, -1) + l;
    else text += ` ${l}`;
  }
  return text;
}

export function cellText(words: readonly Word[]): string {
  return joinLines(wordLines(words).map(lineText));
}
