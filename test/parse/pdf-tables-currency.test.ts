/**
 * Currency signs set apart (src/parse/readers/pdf/tables/currency.ts): a column holding nothing
 * but currency signs joins the figures on its right ("$ 178"); a column where a sign shares the
 * column with other text stays. On olmOCR-bench's earnings page and on ruled grids built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel as firstPage, gridRuleOps, onlyTable, rowTexts as texts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

type Run = TextRun;

const XS = [50, 200, 215, 280, 295, 360];
const YS = [100, 114, 128, 142, 156];

/** One A4 page: a ruled grid and the runs in Helvetica 8 pt. */
const gridPdf = (runs: readonly Run[]): Buffer => ruledPdf(gridRuleOps(XS, YS), runs);

const HEAD: Run[] = [['Item', 52, 110, true], ['2024', 250, 110, true], ['2023', 330, 110, true]];
const FIGURES: Run[] = [['178', 260, 124], ['141', 340, 124], ['3,423', 252, 138], ['2,532', 332, 138], ['4,737', 252, 152], ['3,549', 332, 152]];

describe('PDF tables: a column of currency signs joins the figures beside it', () => {
  it('joins "$" to the figure on its right and drops the column of signs', async () => {
    const t = await onlyTable(gridPdf([...HEAD, ['Cost of revenue', 52, 124], ['$', 203, 124], ['$', 283, 124], ['Research', 52, 138], ['Total', 52, 152], ['$', 203, 152], ['$', 283, 152], ...FIGURES]));
    expect([t.rows, t.cols]).toEqual([4, 3]);
    expect(texts(t)).toEqual([
      ['Item', '2024', '2023'],
      ['Cost of revenue', '$ 178', '$ 141'],
      ['Research', '3,423', '2,532'],
      ['Total', '$ 4,737', '$ 3,549'],
    ]);
  });

  it('keeps a column where the sign shares the column with other text', async () => {
    const t = await onlyTable(gridPdf([...HEAD, ['Cost of revenue', 52, 124], ['$', 203, 124], ['$', 283, 124], ['Research', 52, 138], ['A', 203, 138], ['Total', 52, 152], ['$', 203, 152], ['$', 283, 152], ...FIGURES]));
    expect(t.cols).toBe(4);
    expect(texts(t)[2]).toEqual(['Research', 'A', '3,423', '2,532']);
  });

  it('joins the signs of olmOCR-bench\'s earnings page to their figures', async () => {
    const [t] = findTables(await firstPage(readCorpus('pdf', 'olmocr', 'pdfs', 'earnings.pdf')));
    // Under its three head rows (underlined.ts).
    expect(texts(t as PdfTable).slice(3)).toEqual([
      ['Cost of revenue', '$ 178', '$ 141', '$ 138'],
      ['Research and development', '3,423', '2,532', '1,892'],
      ['Sales, general and administrative', '1,136', '876', '680'],
      ['Total', '$ 4,737', '$ 3,549', '$ 2,710'],
    ]);
  });
});
