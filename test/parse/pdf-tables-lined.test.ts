/**
 * Rows drawn by the text (src/parse/readers/pdf/tables/lined.ts): where a ruled grid rules its
 * rows in some columns only, a column holding one line per row, each on its row's baseline and
 * starting an entry of its own, is parted along the rows; a wrapped label's next line is not.
 * On grids built here and on a corpus page (olmOCR-bench's discoverworld table, whose shaded
 * value cells draw the rows and whose task column is unruled).
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, onlyTable, rowTexts as texts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

type Run = TextRun;

const XS = [50, 200, 270, 340];
const YS = [100, 114, 124, 134, 144];

/**
 * One A4 page: a grid whose column lines run top to bottom, whose first and last rules and the
 * head's rule run across, and whose other row rules cover the value columns only (x 200–340).
 */
function partlyRuledPdf(runs: readonly Run[]): Buffer {
  const x0 = XS[0] as number;
  const x1 = XS[XS.length - 1] as number;
  const across = [YS[0], YS[1], YS[YS.length - 1]] as number[];
  const rules = [
    ...across.map((y) => `${x0} ${HEIGHT - y} m ${x1} ${HEIGHT - y} l S`),
    ...YS.slice(2, -1).map((y) => `${XS[1] as number} ${HEIGHT - y} m ${x1} ${HEIGHT - y} l S`),
    ...XS.map((x) => `${x} ${HEIGHT - (YS[0] as number)} m ${x} ${HEIGHT - (YS[YS.length - 1] as number)} l S`),
  ];
  return ruledPdf(rules, runs);
}

const HEAD: Run[] = [['Task', 52, 110, true], ['2015', 222, 110, true], ['2016', 292, 110, true]];
const VALUES: Run[] = [['0.42', 222, 121], ['0.40', 292, 121], ['0.44', 222, 131], ['0.20', 292, 131], ['0.43', 222, 141], ['0.38', 292, 141]];

describe('PDF tables: rows drawn by the text where the rules leave a column out', () => {
  it('parts an unruled column holding one entry per row, each on its row\'s baseline', async () => {
    const t = await onlyTable(partlyRuledPdf([...HEAD, ['Slope only', 52, 121], ['Linear fit', 52, 131], ['Quadratic fit', 52, 141], ...VALUES]));
    expect([t.rows, t.cols]).toEqual([4, 3]);
    expect(texts(t)).toEqual([
      ['Task', '2015', '2016'],
      ['Slope only', '0.42', '0.40'],
      ['Linear fit', '0.44', '0.20'],
      ['Quadratic fit', '0.43', '0.38'],
    ]);
  });

  it('keeps a label whose next line goes on in lower case as one cell over its rows', async () => {
    const t = await onlyTable(partlyRuledPdf([...HEAD, ['Income from associated', 52, 121], ['undertakings abroad', 52, 131], ['Other income', 52, 141], ...VALUES]));
    expect(t.cells.find((c) => c.col === 0 && c.row === 1)).toMatchObject({ rowSpan: 2, text: 'Income from associated undertakings abroad' });
    expect(t.cells.find((c) => c.col === 0 && c.row === 3)).toMatchObject({ rowSpan: 1, text: 'Other income' });
  });

  it('parts the discoverworld table\'s unruled task cells and stacked figures along the rows its shading draws', async () => {
    const [t] = findTables(await firstPage(readCorpus('pdf', 'olmocr', 'pdfs', 'discoverworld_crazy_table4.pdf')));
    const rows = texts(t as PdfTable);
    // "Slope only" beside its number, the next task in the next row; no cell holds a stack of figures.
    expect(rows.find((r) => r.includes('Slope only'))?.[0]).toBe('10');
    expect(rows.some((r) => r[0] === '11')).toBe(true);
    expect(rows.flat().some((c) => /^0\.00 0\.00/.test(c))).toBe(false);
  });
});
