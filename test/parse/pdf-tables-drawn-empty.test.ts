/**
 * A ruled grid's empty rows and columns (src/parse/readers/pdf/tables/grid.ts `compact`, with
 * `keepDrawn`): a word processor's table of one row pitch keeps a blank row drawn at that pitch
 * and a blank column drawn at least half as wide as the columns holding text (kreuzberg's
 * word_tables.docx printed by LibreOffice: a 5-column grid, its last two columns and three of its
 * rows empty). A grid of many row heights (a form's boxes) drops its empty strips as before.
 */
import { describe, expect, it } from 'vitest';
import { A4_HEIGHT, gridRuleOps, onlyTable, rowTexts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const XS = [72, 174, 276, 378, 459, 540];

/** Runs at the top of row `r` of a grid whose rows start at `ys`, one per filled column. */
function row(ys: readonly number[], r: number, texts: readonly string[]): TextRun[] {
  return texts.flatMap((t, c) => (t === '' ? [] : [[t, (XS[c] as number) + 5, (ys[r] as number) + 11] as TextRun]));
}

describe('PDF tables: empty rows and columns a grid draws', () => {
  it('keeps the blank rows and columns of a grid of one row pitch', async () => {
    const ys = Array.from({ length: 8 }, (_, i) => 100 + 15 * i);
    const runs = [
      ...row(ys, 0, ['Header 0.0', 'Header 0.1', 'Header 0.2']),
      ...row(ys, 1, ['Cell 1.0', 'Cell 1.1', 'Cell 1.2']),
      ...row(ys, 2, ['Cell 2.0', 'Cell 2.1', 'Cell 2.2']),
      ...row(ys, 3, ['Cell 3.0', 'Cell 3.1', 'Cell 3.2']),
      ...row(ys, 6, ['', '', '', '', 'Cell 6.4']),
    ];
    const table = await onlyTable(ruledPdf(gridRuleOps(XS, ys), runs));
    expect(table.cols).toBe(5);
    expect(rowTexts(table)).toEqual([
      ['Header 0.0', 'Header 0.1', 'Header 0.2', '', ''],
      ['Cell 1.0', 'Cell 1.1', 'Cell 1.2', '', ''],
      ['Cell 2.0', 'Cell 2.1', 'Cell 2.2', '', ''],
      ['Cell 3.0', 'Cell 3.1', 'Cell 3.2', '', ''],
      ['', '', '', '', ''],
      ['', '', '', '', ''],
      ['', '', '', '', 'Cell 6.4'],
    ]);
  });

  it('drops the empty strips of a grid whose rows differ in height', async () => {
    const ys = [100, 115, 145, 160, 200, 215, 230];
    const runs = [
      ...row(ys, 0, ['Header 0.0', 'Header 0.1', 'Header 0.2', 'Header 0.3', 'Header 0.4']),
      ...row(ys, 1, ['Cell 1.0', 'Cell 1.1', 'Cell 1.2', 'Cell 1.3', 'Cell 1.4']),
      ...row(ys, 3, ['Cell 3.0', 'Cell 3.1', 'Cell 3.2', 'Cell 3.3', 'Cell 3.4']),
      ...row(ys, 5, ['Cell 5.0', 'Cell 5.1', 'Cell 5.2', 'Cell 5.3', 'Cell 5.4']),
    ];
    const table = await onlyTable(ruledPdf(gridRuleOps(XS, ys), runs));
    expect(rowTexts(table).map((r) => r[0])).toEqual(['Header 0.0', 'Cell 1.0', 'Cell 3.0', 'Cell 5.0']);
  });

  it('reads an empty row no column line crosses as one cell across', async () => {
    const ys = Array.from({ length: 6 }, (_, i) => 100 + 15 * i);
    const top = (y: number): number => A4_HEIGHT - y;
    // every row line across; the outer column lines whole, the inner ones broken over row 3
    const ops = [
      ...ys.map((y) => `72 ${top(y)} m 540 ${top(y)} l S`),
      `72 ${top(100)} m 72 ${top(175)} l S`,
      `540 ${top(100)} m 540 ${top(175)} l S`,
      ...XS.slice(1, -1).flatMap((x) => [`${x} ${top(100)} m ${x} ${top(145)} l S`, `${x} ${top(160)} m ${x} ${top(175)} l S`]),
    ];
    const runs = [
      ...row(ys, 0, ['Header 0.0', 'Header 0.1', 'Header 0.2', 'Header 0.3', 'Header 0.4']),
      ...row(ys, 1, ['Cell 1.0', 'Cell 1.1', 'Cell 1.2', 'Cell 1.3', 'Cell 1.4']),
      ...row(ys, 2, ['Cell 2.0', 'Cell 2.1', 'Cell 2.2', 'Cell 2.3', 'Cell 2.4']),
      ...row(ys, 4, ['Cell 4.0', 'Cell 4.1', 'Cell 4.2', 'Cell 4.3', 'Cell 4.4']),
    ];
    const table = await onlyTable(ruledPdf(ops, runs));
    expect(table.rows).toBe(5);
    const merged = table.cells.filter((c) => c.row === 3);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ col: 0, colSpan: 5, text: '' });
  });
});
