/**
 * A ruled grid of a form's boxes, each a label at its top over blank room to fill in, is text,
 * not a table (src/parse/readers/pdf/tables/form-boxes.ts): on the prefilled Form 1040 of pdf.js's
 * corpus and on grids built here — the same labels centred in their rows, or a row whose fullest
 * cell fills it, stay a table — and a grid whose column of figures holds values, not labels (a
 * word processor's table with tall rows numbering its rows), stays a table.
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel, gridRuleOps, onlyTable, pageModel, rowTexts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const XS = [50, 200, 320, 420];
/** Rows 30 pt tall: room for handwriting under 8 pt labels. */
const YS = [100, 130, 160, 190];
const LABELS = [
  ['Your first name and initial', 'Last name', 'Social security number'],
  ['Spouse first name and initial', 'Last name', 'Spouse security number'],
  ['Home address', 'City or town', 'Apt. no.'],
];

/** The labels, each `drop` points below its box's top edge (the baseline), in the grid. */
function boxesPdf(drop: number, extra: readonly TextRun[] = []): Buffer {
  const runs = LABELS.flatMap((row, r) => row.map((text, c): TextRun => [text, (XS[c] as number) + 2, (YS[r] as number) + drop]));
  return ruledPdf(gridRuleOps(XS, YS), [...runs, ...extra]);
}

describe('PDF tables: a form’s boxes to fill in', () => {
  it('reads labels set at the top of tall boxes as text', async () => {
    expect(findTables(await firstPageModel(boxesPdf(8)))).toEqual([]);
  });

  it('keeps the same grid a table when its text is centred in the rows', async () => {
    expect(findTables(await firstPageModel(boxesPdf(18)))).toHaveLength(1);
  });

  it('keeps the grid a table when a cell of each row fills it', async () => {
    const filling: TextRun[] = [0, 1, 2].flatMap((r): TextRun[] => [0, 1, 2].map((k): TextRun => [`line ${k + 1} of the entry`, 322, (YS[r] as number) + 17 + 9 * k]));
    const relabel = LABELS.map((row) => row.slice(0, 2));
    const runs = relabel.flatMap((row, r) => row.map((text, c): TextRun => [text, (XS[c] as number) + 2, (YS[r] as number) + 8]));
    expect(findTables(await firstPageModel(ruledPdf(gridRuleOps(XS, YS), [...runs, ...filling])))).toHaveLength(1);
  });

  it('keeps a grid of tall rows a table when a column numbers its rows', async () => {
    // A word processor's table with a fixed row height (LibreOffice printing word-extractor's
    // test17.docx): each row's text at the top of a row 30 pt tall, a column of row numbers.
    const xs = [50, 80, 300, 380];
    const ys = [100, 130, 160, 190, 220];
    const rows = [
      ['', 'Entry', 'Kind'],
      ['1', 'In eleifend velit vitae libero.', 'Lorem'],
      ['2', 'Cras fringilla ipsum magna.', 'Ipsum'],
      ['3', 'Aliquam erat volutpat.', 'Lorem'],
    ];
    const runs = rows.flatMap((row, r) => row.flatMap((text, c): TextRun[] => (text ? [[text, (xs[c] as number) + 2, (ys[r] as number) + 8]] : [])));
    const table = await onlyTable(ruledPdf(gridRuleOps(xs, ys), runs));
    expect(rowTexts(table)).toEqual(rows);
    // the same grid with words in that column is a form's boxes again
    const worded = rows.map((row, r) => (r === 0 ? row : [`Box ${'abc'[r - 1]}`, ...row.slice(1)]));
    const wordedRuns = worded.flatMap((row, r) => row.flatMap((text, c): TextRun[] => (text ? [[text, (xs[c] as number) + 2, (ys[r] as number) + 8]] : [])));
    expect(findTables(await firstPageModel(ruledPdf(gridRuleOps(xs, ys), wordedRuns)))).toEqual([]);
  });

  it("reads Form 1040's name and address boxes as text", async () => {
    const cells = findTables(await pageModel(readCorpus('pdf', 'pdfjs', 'prefilled_f1040.pdf'), 1)).flatMap((t) => t.cells.map((c) => c.text));
    expect(cells.some((c) => c.includes('Your first name and initial'))).toBe(false);
    expect(cells.some((c) => c.includes('Dependent’s social security number'))).toBe(true);
  });
});
