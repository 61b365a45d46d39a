/**
 * Listed rows (src/parse/readers/pdf/tables/listed.ts): a ruled row whose first cell lists
 * entries line for line, each with its values on its baseline, is a row per entry; a label
 * wrapped to its cell's measure, or cells of wrapped words, stay one row. On a corpus page
 * (opendataloader-pdf's Bialetti income statement, ruled only around its totals) and on ruled
 * grids built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel as firstPage, gridRuleOps, onlyTable, rowTexts as texts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

type Run = TextRun;

/** One A4 page: a ruled grid (column edges xs, row edges ys, top-down) and the runs in Helvetica 8 pt. */
const gridPdf = (xs: readonly number[], ys: readonly number[], runs: readonly Run[]): Buffer => ruledPdf(gridRuleOps(xs, ys), runs);

const XS = [50, 200, 270, 340];
const YS = [100, 114, 148, 172];
const HEAD: Run[] = [['Item', 52, 110, true], ['2015', 222, 110, true], ['2016', 292, 110, true]];
/** The last ruled row: a total, one line. */
const TOTAL: Run[] = [['Total', 52, 164], ['8.509', 222, 164], ['10.808', 288, 164]];

describe('PDF tables: entries listed line for line in a ruled row', () => {
  it('parts a row whose first cell lists entries, each with its values on its line, into a row per entry', async () => {
    const t = await onlyTable(
      gridPdf(XS, YS, [
        ...HEAD,
        ['1) Revenue', 52, 124], ['120.062', 215, 124], ['124.406', 285, 124],
        ['a) from subsidiaries', 58, 134], ['1.942', 222, 134], ['117', 292, 134],
        ['Grants', 52, 144], ['0', 232, 144], ['0', 302, 144],
        ...TOTAL,
      ]),
    );
    expect([t.rows, t.cols]).toEqual([5, 3]);
    expect(texts(t)).toEqual([
      ['Item', '2015', '2016'],
      ['1) Revenue', '120.062', '124.406'],
      ['a) from subsidiaries', '1.942', '117'],
      ['Grants', '0', '0'],
      ['Total', '8.509', '10.808'],
    ]);
  });

  it('keeps an entry whose label has lines without values, and gives them rows of their own', async () => {
    const t = await onlyTable(
      gridPdf(XS, YS, [...HEAD, ['From Subsidiaries', 52, 124], ['From Associates', 52, 134], ['Other', 52, 144], ['3.027', 222, 144], ['2.996', 292, 144], ...TOTAL]),
    );
    expect(texts(t).slice(1, 4)).toEqual([['From Subsidiaries', '', ''], ['From Associates', '', ''], ['Other', '3.027', '2.996']]);
  });

  it('keeps a label wrapped to its cell\'s measure, and cells of wrapped words, as one row', async () => {
    const wrapped = await onlyTable(
      gridPdf(XS, YS, [...HEAD, ['Income from associated undertakings', 52, 124], ['Abroad', 52, 134], ['3.027', 222, 124], ['2.996', 292, 124], ...TOTAL]),
    );
    expect(texts(wrapped)[1]).toEqual(['Income from associated undertakings Abroad', '3.027', '2.996']);
    const words = await onlyTable(
      gridPdf(XS, YS, [...HEAD, ['Alpha', 52, 124], ['Beta', 52, 134], ['a model of', 212, 124], ['tables seen', 212, 134], ['12', 292, 124], ['14', 292, 134], ...TOTAL]),
    );
    expect(texts(words)[1]).toEqual(['Alpha Beta', 'a model of tables seen', '12 14']);
  });

  it('reads the Bialetti income statement line for line, each item with its values', async () => {
    const t = findTables(await firstPage(readCorpus('pdf', 'opendataloader-pdf', 'issue-336-conto-economico-bialetti.pdf')))[0] as PdfTable;
    const rows = texts(t);
    expect(rows[2]).toEqual(['1) Ricavi delle vendite e delle prestazioni', '120.062.000', '124.406.000', '115.322.000', '82.776.000']);
    expect(rows[3]).toEqual(['2) Variazione rimanenze prodotti in corso di lavor., semilavorati e finiti', '1.942.000', '117.000', '2.538.000', '-3.970.000']);
    expect(rows).toContainEqual(['a) Salari, stipendi', '6.820.000', '5.868.000', '5.899.000', '6.847.000']);
    expect(rows).toContainEqual(['Altri proventi finanziari', '57.000', '461.000', '1.466.000', '635.000']);
    // Sub-items with no values anywhere stay one row.
    expect(rows).toContainEqual(['Imprese controllate Imprese collegate Altri', '', '', '', '']);
    expect(t.cols).toBe(5);
  });
});
