/**
 * A form's boxes are no table (a tax return's "Your first name and initial | Last name | Your
 * social security number"): each box holds a label at its top and leaves the room below it blank,
 * to be filled in. A table's row is as tall as its fullest cell needs; a form's row is as tall as
 * the handwriting it waits for, in every box.
 *
 * Form boxes when three rows in four or more of those holding text (two or more) have a label
 * at the top of each box: in each of the row's cells with text, one line of text, the blank below
 * it at least one and a half times its size and more than twice the blank above it (text centred
 * in a tall row has as much above as below; a cell of several lines is an entry, not a label).
 * Cells spanning rows are left out.
 */
import type { LaidOutTable } from './grid.ts';

/** Blank below a form box's label, at least, in sizes of its text. */
const ROOM_BELOW = 1.5;
/** Share of the rows with text, at least, whose boxes all leave that room. */
const FORM_ROWS = 0.75;

export function formBoxes(t: LaidOutTable): boolean {
  let rows = 0;
  let roomy = 0;
  for (let r = 0; r < t.rows; r++) {
    const cells = t.cells.filter((c) => c.row === r && c.rowSpan === 1 && c.words.length > 0);
    if (cells.length === 0) continue;
    rows++;
    const room = cells.every((c) => {
      // A label: one line (a table's cell of several lines, short of its row, is no label).
      const baselines = c.words.map((w) => w.baseline);
      if (Math.max(...baselines) - Math.min(...baselines) > 0.5 * Math.max(...c.words.map((w) => w.size))) return false;
      const top = Math.min(...c.words.map((w) => w.y0));
      const below = c.y1 - Math.max(...c.words.map((w) => w.y1));
      return below >= ROOM_BELOW * Math.max(...c.words.map((w) => w.size)) && below > 2 * (top - c.y0);
    });
    if (room) roomy++;
  }
  return rows >= 2 && roomy >= FORM_ROWS * rows;
}
