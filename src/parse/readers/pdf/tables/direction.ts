/**
 * A table set in a right-to-left script (Arabic, Hebrew, …) reads its columns from the right:
 * its first column, the row labels, is the rightmost one, and a reader (or HTML's `<tr>` order)
 * takes the cells right to left. The grid is laid out left to right on the page, so such a table's
 * columns are mirrored: a cell at column c spanning s columns goes to `cols - c - s`.
 *
 * Right to left when most of the letters of the table's cells are in a right-to-left script (a
 * table of Persian labels with Latin figures or dates is; an English table quoting an Arabic
 * name is not).
 */
interface GridCell {
  col: number;
  colSpan: number;
  text: string;
}

const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/gu;
const LETTER = /\p{L}/gu;

export function rightToLeft(cells: readonly { text: string }[]): boolean {
  let letters = 0;
  let rtl = 0;
  for (const cell of cells) {
    letters += cell.text.match(LETTER)?.length ?? 0;
    rtl += cell.text.match(RTL_LETTER)?.length ?? 0;
  }
  return letters > 0 && rtl > 0.5 * letters;
}

/** The cells in reading order of a right-to-left table (see the file comment). */
export function mirrorColumns<C extends GridCell>(cells: readonly C[], cols: number): C[] {
  return cells.map((c) => ({ ...c, col: cols - c.col - c.colSpan }));
}
