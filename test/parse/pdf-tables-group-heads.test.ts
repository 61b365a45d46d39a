/**
 * Heads over groups of columns (src/parse/readers/pdf/tables/group-heads.ts): a line above the
 * column heads taken from above a ruled grid, each of its heads centred over a run of columns,
 * is a header row of heads spanning those columns. On olmOCR-bench's discoverworld table and on
 * ruled grids built here; heads not centred over their columns stay text.
 */
import { describe, expect, it } from 'vitest';
import { findTables, tableHtml, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel, gridRuleOps, onlyTable, rowTexts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const XS = [50, 100, 140, 180, 220, 260];
const YS = [100, 114, 128, 142];
const HEADS: TextRun[] = [['Task', 52, 97], ['Proc.', 102, 97], ['Comp.', 142, 97], ['Proc.', 182, 97], ['Comp.', 222, 97]];
const BODY: TextRun[] = ['Clustering', 'Regression', 'Translation'].flatMap((task, r): TextRun[] => [
  [task, 52, (YS[r] as number) + 10],
  ...[0, 1, 2, 3].map((c): TextRun => [`0.${r}${c}`, (XS[c + 1] as number) + 4, (YS[r] as number) + 10]),
]);

/** "ReACT" (26.2 pt wide in Helvetica 8) and "Plan" (16.0 pt) with their left edges at x1 and x2. */
const groupPdf = (x1: number, x2: number): Buffer => ruledPdf(gridRuleOps(XS, YS), [['ReACT', x1, 86], ['Plan', x2, 86], ...HEADS, ...BODY]);

describe('PDF tables: heads over groups of columns', () => {
  it('makes a line of heads centred over runs of columns a header row spanning them', async () => {
    // "ReACT" centred over 100–180, "Plan" over 180–260.
    const t = await onlyTable(groupPdf(140 - 13.1, 220 - 8));
    expect(rowTexts(t).slice(0, 3)).toEqual([
      ['', 'ReACT', 'Plan'],
      ['Task', 'Proc.', 'Comp.', 'Proc.', 'Comp.'],
      ['Clustering', '0.00', '0.01', '0.02', '0.03'],
    ]);
    expect(t.cells.filter((c) => c.row === 0).map((c) => c.colSpan)).toEqual([1, 2, 2]);
    expect(tableHtml(t)).toContain('<thead><tr><th></th><th colspan="2">ReACT</th><th colspan="2">Plan</th></tr><tr><th>Task</th>');
  });

  it('leaves heads set flush left over their columns, centred over none, out of the table', async () => {
    const t = await onlyTable(groupPdf(102, 182));
    expect(rowTexts(t)[0]).toEqual(['Task', 'Proc.', 'Comp.', 'Proc.', 'Comp.']);
    expect(t.rows).toBe(4);
  });

  it("heads discoverworld's metric names with the model each group belongs to", async () => {
    const [t] = findTables(await firstPageModel(readCorpus('pdf', 'olmocr', 'pdfs', 'discoverworld_crazy_table4.pdf')));
    const first = rowTexts(t as PdfTable)[0];
    expect(first).toEqual(['', '', '', 'ReACT', 'Plan+Execute', 'Hypothesizer']);
    expect((t as PdfTable).cells.filter((c) => c.row <= 1).every((c) => c.header)).toBe(true);
  });
});
