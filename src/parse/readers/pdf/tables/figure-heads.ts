/**
 * Column heads told apart by what they hold, where no rule, weight or case sets them off: a
 * first row of words on one line (two cells or more hold text, none a figure, some a word) over
 * a body of figures (at least half of the body's non-empty cells are figures) is the head row.
 * A first row of stacked lines is left alone: it may be rows the grid has yet to part.
 * A figure: digits with the signs and separators figures carry ("3.71T", "$ 1,136", "(12.5 %)",
 * "0.87"), at most one letter (a unit or a scale).
 */
import type { LaidOutTable } from './grid.ts';

export function isFigure(text: string): boolean {
  const t = text.trim();
  if (!/\d/u.test(t)) return false;
  const letters = t.match(/\p{L}/gu)?.length ?? 0;
  return letters <= 1 && /^[\p{N}\p{Sc}\s.,:%()+±×\-−–—/\p{L}*†‡]+$/u.test(t);
}

/** Whether the first row is column heads over a body of figures. */
export function wordsOverFigures(t: LaidOutTable): boolean {
  if (t.cols < 2 || t.rows < 3) return false;
  const head = t.cells.filter((c) => c.row === 0 && c.text.trim() !== '');
  if (head.length < 2 || head.some((c) => isFigure(c.text)) || !head.some((c) => /\p{L}/u.test(c.text))) return false;
  const oneLine = (words: readonly { baseline: number; size: number }[]): boolean => words.every((w) => Math.abs(w.baseline - (words[0]?.baseline ?? w.baseline)) <= 0.5 * w.size);
  if (!head.every((c) => oneLine(c.words))) return false;
  const body = t.cells.filter((c) => c.row >= 1 && c.text.trim() !== '');
  return body.length > 0 && body.filter((c) => isFigure(c.text)).length >= 0.5 * body.length;
}
