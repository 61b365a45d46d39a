/**
 * Stacked values (src/parse/readers/pdf/tables/stacked.ts): a ruled row holding a column of
 * values line for line beside one-line labels set between them is that many rows, the labels
 * spanning them. On a corpus page (docling's 2305.03393v1-pg9, whose ground truth parts the
 * rows so) and on ruled grids built here.
 */
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { gridRuleOps, onlyTable, rowTexts as texts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

type Run = TextRun;

/** One A4 page: a ruled grid (column edges xs, row edges ys, top-down) and the runs in Helvetica 8 pt. */
const gridPdf = (xs: readonly number[], ys: readonly number[], runs: readonly Run[]): Buffer => ruledPdf(gridRuleOps(xs, ys), runs);

const XS = [50, 150, 250, 350, 450];
const YS = [100, 116, 142, 168];
const HEAD: Run[] = [['Model', 52, 111, true], ['Format', 152, 111, true], ['Score', 252, 111, true], ['Time', 352, 111, true]];

describe('PDF tables: stacked values in a ruled row', () => {
  it('parts a row of values stacked line for line into rows, the label set between them spanning them', async () => {
    const t = await onlyTable(
      gridPdf(XS, YS, [
        ...HEAD,
        ['Large', 52, 132], ['OTSL', 152, 127], ['0.965', 252, 127], ['2.73', 352, 127], ['HTML', 152, 137], ['0.969', 252, 137], ['5.39', 352, 137],
        ['Small', 52, 158], ['OTSL', 152, 153], ['0.938', 252, 153], ['1.97', 352, 153], ['HTML', 152, 163], ['0.952', 252, 163], ['3.77', 352, 163],
      ]),
    );
    expect([t.rows, t.cols]).toEqual([5, 4]);
    expect(texts(t)).toEqual([
      ['Model', 'Format', 'Score', 'Time'],
      ['Large', 'OTSL', '0.965', '2.73'],
      ['HTML', '0.969', '5.39'],
      ['Small', 'OTSL', '0.938', '1.97'],
      ['HTML', '0.952', '3.77'],
    ]);
    expect(t.cells.find((c) => c.text === 'Large')).toMatchObject({ row: 1, col: 0, rowSpan: 2 });
  });

  it('keeps a row whose label stands at the top beside the stacks (a list in a cell), and a row of wrapped words, whole', async () => {
    const t = await onlyTable(
      gridPdf(XS, YS, [
        ...HEAD,
        ['Large', 52, 127], ['OTSL', 152, 127], ['0.965', 252, 127], ['2.73', 352, 127], ['HTML', 152, 137], ['0.969', 252, 137], ['5.39', 352, 137],
        ['Small', 52, 158], ['a model of', 152, 153], ['the kind', 252, 153], ['seen before', 352, 153], ['tables', 152, 163], ['we read', 252, 163], ['here', 352, 163],
      ]),
    );
    expect([t.rows, t.cols]).toEqual([3, 4]);
    expect(texts(t)[1]).toEqual(['Large', 'OTSL HTML', '0.965 0.969', '2.73 5.39']);
    expect(texts(t)[2]).toEqual(['Small', 'a model of tables', 'the kind we read', 'seen before here']);
  });

  it('parts the OTSL/HTML rows of docling\'s 2305.03393v1-pg9, the layer counts spanning each pair', async () => {
    const t = await onlyTable(readCorpus('pdf', 'docling', '2305.03393v1-pg9.pdf'));
    expect([t.rows, t.cols]).toEqual([10, 8]);
    expect(texts(t)[2]).toEqual(['6', '6', 'OTSL', '0.965', '0.934', '0.955', '0.88', '2.73']);
    expect(texts(t)[3]).toEqual(['HTML', '0.969', '0.927', '0.955', '0.857', '5.39']);
    expect(t.cells.filter((c) => c.row === 2 && c.col < 2).map((c) => c.rowSpan)).toEqual([2, 2]);
  });
});
