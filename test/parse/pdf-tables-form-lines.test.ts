/**
 * A form's numbered lines, led by dots to their box numbers, are text, not a table
 * (src/parse/readers/pdf/tables/leaders.ts): on the prefilled Form 1040 of pdf.js's corpus, and on
 * ruled grids built here — a statement whose leaders run to amounts stays a table.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel, gridRuleOps, pageModel, rowTexts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const XS = [50, 300, 330, 420];
const YS = [100, 114, 128, 142, 156, 170];
const LABELS = ['Wages, salaries, tips, etc. . . . . . . . .', 'Taxable interest . . . . . . . . . . . .', 'Ordinary dividends . . . . . . . . . . .', 'Alimony received . . . . . . . . . . . .', 'Business income or (loss) . . . . . . .'];
const BOXES = ['7', '8a', '9a', '11', '12'];

/** A ruled grid of five lines: a label with its leader, the box number, and `amounts` in the last column. */
function formPdf(amounts: readonly string[]): Buffer {
  const runs: TextRun[] = LABELS.flatMap((label, i): TextRun[] => {
    const y = (YS[i] as number) + 10;
    const amount = amounts[i];
    return [[label, 52, y], [BOXES[i] as string, 305, y], ...(amount ? [[amount, 340, y] as TextRun] : [])];
  });
  return ruledPdf(gridRuleOps(XS, YS), runs);
}

describe('PDF tables: a form’s lines led by dots to their box numbers', () => {
  it('reads the lines as text when the last column is left blank to fill in', async () => {
    expect(findTables(await firstPageModel(formPdf([])))).toEqual([]);
  });

  it('keeps a statement whose leaders run to amounts a table', async () => {
    const tables = findTables(await firstPageModel(formPdf(['47,250', '1,136', '876', '680', '2,532'])));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)[1]).toEqual(['Taxable interest . . . . . . . . . . . .', '8a', '1,136']);
  });

  it("reads Form 1040's income lines as text", async () => {
    const bytes = readCorpus('pdf', 'pdfjs', 'prefilled_f1040.pdf');
    const cells = findTables(await pageModel(bytes, 1)).flatMap((t) => t.cells.map((c) => c.text));
    expect(cells.some((c) => c.includes('Wages, salaries, tips'))).toBe(false);
    // The dependents' heads stay a table (the form's one tagged Table).
    expect(cells.some((c) => c.includes('Dependent’s social security number'))).toBe(true);
  });
});
