/**
 * Heads parted by a gutter (src/parse/readers/pdf/tables/ruled.ts, partedAt): a ruled grid whose
 * column lines stop under the head row still has a head over each column when the head row's
 * text is parted at each missing line by a gutter ("2015   2016   2017"); a head that is one
 * phrase over several columns spans them. On a corpus page (opendataloader-pdf's Bialetti income
 * statement) and on grids built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, onlyTable, rowTexts as texts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

type Run = TextRun;

/**
 * One A4 page: a ruled grid (column edges xs, row edges ys, top-down) whose inner column lines
 * but the first start at the second row edge (the head row drawn without them: the row label's
 * line runs through it), and the runs in Helvetica 8 pt.
 */
function openHeadPdf(xs: readonly number[], ys: readonly number[], runs: readonly Run[]): Buffer {
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const y0 = ys[0] as number;
  const y1 = ys[ys.length - 1] as number;
  const rules = [
    ...ys.map((y) => `${x0} ${HEIGHT - y} m ${x1} ${HEIGHT - y} l S`),
    ...xs.map((x, i) => `${x} ${HEIGHT - (i <= 1 || i === xs.length - 1 ? y0 : (ys[1] as number))} m ${x} ${HEIGHT - y1} l S`),
  ];
  return ruledPdf(rules, runs);
}

const XS = [50, 200, 270, 340, 410];
const YS = [100, 114, 128, 142, 156];
const BODY: Run[] = [
  ['Revenue', 52, 124], ['120.062', 215, 124], ['124.406', 285, 124], ['115.322', 355, 124],
  ['Costs', 52, 138], ['63.441', 218, 138], ['68.164', 288, 138], ['64.520', 358, 138],
  ['Result', 52, 152], ['8.509', 221, 152], ['10.808', 288, 152], ['2.622', 361, 152],
];

describe('PDF tables: heads parted by a gutter where the head row has no column lines', () => {
  it('gives each column its head when the heads stand apart, each over its column', async () => {
    const t = await onlyTable(openHeadPdf(XS, YS, [['Income statement', 90, 110, true], ['2015', 226, 110, true], ['2016', 296, 110, true], ['2017', 366, 110, true], ...BODY]));
    expect([t.rows, t.cols]).toEqual([4, 4]);
    expect(texts(t)[0]).toEqual(['Income statement', '2015', '2016', '2017']);
    expect(t.cells.filter((c) => c.row === 0).map((c) => c.colSpan)).toEqual([1, 1, 1, 1]);
  });

  it('keeps a head that is one phrase over the columns as one cell spanning them', async () => {
    const t = await onlyTable(openHeadPdf(XS, YS, [['Income statement', 90, 110, true], ['Year ended 31 December, in thousands', 232, 110, true], ...BODY]));
    expect(texts(t)[0]).toEqual(['Income statement', 'Year ended 31 December, in thousands']);
    expect(t.cells.find((c) => c.row === 0 && c.col === 1)).toMatchObject({ colSpan: 3 });
  });

  it('parts the years of the Bialetti income statement, whose head row is drawn without column lines', async () => {
    const tables = findTables(await firstPage(readCorpus('pdf', 'opendataloader-pdf', 'issue-336-conto-economico-bialetti.pdf')));
    const t = tables[0] as PdfTable;
    expect(texts(t)[0]).toEqual(['CONTO ECONOMICO', '2015', '2016', '2017', '2018']);
    expect(texts(t)[1]).toEqual(['A) VALORE DELLA PRODUZIONE', '124.504.000', '127.608.000', '120.915.000', '80.579.000']);
  });
});
