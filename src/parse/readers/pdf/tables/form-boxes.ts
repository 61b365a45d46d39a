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
 *
 * A form's boxes hold labels, the values are written in later; a grid with a column of figures
 * — three body rows or more holding only a number each (a table numbering its rows "1", "2",
 * "3", a column of amounts) — holds values, and is a table however tall its rows: a word
 * processor's table with a fixed row height sets each row's text at the top of a tall row.
 */
import type { LaidOutTable } from './grid.ts';

/** Blank below a form box's label, at least, in sizes of its text. */
const ROOM_BELOW = 1.5;
/** Share of the rows with text, at least, whose boxes all leave that room. */
const FORM_ROWS = 0.75;

/** A figure: a number, signed or in brackets, with a currency sign or a per cent. */
const FIGURE = /^[(\-\u2212+]?[$€£]?\d[\d.,]*%?\)?$/u;
/** Body rows, at least, of a column of figures. */
const FIGURE_ROWS = 3;

/** A column whose filled cells under the first row, three or more, are figures only. */
function figureColumn(t: LaidOutTable): boolean {
  for (let c = 0; c < t.cols; c++) {
    const body = t.cells.filter((x) => x.col === c && x.colSpan === 1 && x.row > 0 && x.text !== '');
    if (body.length >= FIGURE_ROWS && body.every((x) => FIGURE.test(x.text))) return true;
  }
  return false;
}

export function formBoxes(t: LaidOutTable): boolean {
  if (figureColumn(t)) return false;
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
