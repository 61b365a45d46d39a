/**
 * Currency signs set apart: a financial statement sets "$" flush left in a column and its
 * figure flush right ("$      178"), so gutters (or the shading's edges) make the signs a column
 * of their own. The sign belongs to the figure: a column holding nothing but currency signs (two
 * or more, the other cells empty) joins the column to its right, each sign leading the figure
 * beside it ("$ 178"), and a cell spanning the two keeps its text.
 */
import { dropColumn, type GridCell, type LaidOutTable } from './grid.ts';

const CURRENCY = /^[$€£¥₹]$/u;

/** The table with every column of currency signs joined to the figures on its right. */
export function joinCurrencyColumns(t: LaidOutTable): LaidOutTable {
  let table = t;
  for (let k = table.cols - 2; k >= 0; k--) {
    const signs = table.cells.filter((c) => c.col === k && c.colSpan === 1 && c.text !== '');
    if (signs.length < 2 || !signs.every((c) => c.rowSpan === 1 && CURRENCY.test(c.text))) continue;
    // Nothing may end in the column coming from the left (a head over both columns may), and
    // each sign has a cell beside it.
    if (table.cells.some((c) => c.col < k && c.col + c.colSpan === k + 1)) continue;
    const beside = new Map<GridCell, GridCell>();
    for (const sign of signs) {
      const figure = table.cells.find((d) => d.col === k + 1 && d.row === sign.row && d.rowSpan === 1);
      if (figure) beside.set(figure, sign);
    }
    if (beside.size !== signs.length) continue;
    const cells = table.cells.map((c) => {
      const sign = beside.get(c);
      return sign ? { ...c, words: [...sign.words, ...c.words], text: c.text === '' ? sign.text : `${sign.text} ${c.text}` } : c;
    });
    // The signs' cells go with their column; a cell spanning it keeps its text.
    table = dropColumn({ ...table, cells }, k);
  }
  return table;
}
