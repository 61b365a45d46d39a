/**
 * A form's numbered lines are no table (a tax return: "Wages, salaries, tips, etc. Attach
 * Form(s) W-2 . . . . . . | 7", the label led by a dot leader to the number of the box where the
 * amount goes). Ruled into boxes, they lay out as a grid, but a dot leader leads the eye along
 * a line of text to its reference, as in a table of contents (borderless.ts contentsLike); the
 * lines stay text.
 *
 * Form lines when half the rows or more hold a dot leader (four dots or more, spaced or not), a
 * column holds box numbers only ("7", "8a", "15b": one or two figures and a letter at most),
 * three or more of them, and no cell holds an amount (a figure of three digits or more, or with
 * a separator or a currency sign). A statement whose leaders run to amounts ("1,136", "$ 4,737"),
 * with or without a column of note numbers, stays a table.
 */
import type { LaidOutTable } from './grid.ts';

const LEADER = /(?:\.\s?){4,}/u;
const BOX_NUMBER = /^\d{1,2}[a-z]?$/u;
/** A figure of three digits or more, or with a decimal or thousands separator, signed or in brackets. */
const AMOUNT = /^[-−($€£¥\s]*(?:\d{1,3}(?:[,.\s]\d{3})+(?:[.,]\d+)?|\d+[.,]\d+|\d{3,})\)?%?$/u;
/** Box numbers, at least, in the column of them. */
const MIN_BOXES = 3;

export function formLines(t: LaidOutTable): boolean {
  const leaderRows = new Set(t.cells.filter((c) => LEADER.test(c.text)).flatMap((c) => Array.from({ length: c.rowSpan }, (_, i) => c.row + i)));
  if (leaderRows.size < 0.5 * t.rows) return false;
  if (t.cells.some((c) => AMOUNT.test(c.text))) return false;
  for (let col = 0; col < t.cols; col++) {
    const texts = t.cells.filter((c) => c.col === col && c.colSpan === 1 && c.text !== '').map((c) => c.text);
    if (texts.length >= MIN_BOXES && texts.every((x) => BOX_NUMBER.test(x))) return true;
  }
  return false;
}
