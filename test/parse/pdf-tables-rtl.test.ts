/**
 * A table in a right-to-left script reads its columns from the right
 * (src/parse/readers/pdf/tables/direction.ts): on docling's right_to_left_03 (a tagged PDF whose
 * structure tree gives each row's label first, the rightmost column) and on a Latin table built
 * here, which keeps its left-to-right order.
 */
import { describe, expect, it } from 'vitest';
import { mirrorColumns, rightToLeft } from '../../src/parse/readers/pdf/tables/direction.ts';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel, gridRuleOps, onlyTable, rowTexts, ruledPdf } from './pdf-table-fixtures.ts';

describe('rightToLeft', () => {
  it('is true when most letters are Arabic or Hebrew, figures and Latin words notwithstanding', () => {
    expect(rightToLeft([{ text: 'شماره استاندارد ملی' }, { text: '20300' }, { text: 'ISO' }])).toBe(true);
    expect(rightToLeft([{ text: 'מספר' }, { text: 'שם' }])).toBe(true);
  });

  it('is false for a Latin table quoting an Arabic word, and for figures alone', () => {
    expect(rightToLeft([{ text: 'Name of the standard' }, { text: 'نام' }])).toBe(false);
    expect(rightToLeft([{ text: '1403/09/19' }, { text: '436' }])).toBe(false);
  });

  it('mirrors columns, a spanning cell to the columns it covers from the right', () => {
    expect(mirrorColumns([{ col: 0, colSpan: 1, text: 'a' }, { col: 1, colSpan: 2, text: 'b' }], 3).map((c) => c.col)).toEqual([2, 0]);
  });
});

describe('PDF tables in a right-to-left script', () => {
  it("reads right_to_left_03's tables label first, as its structure tree does", async () => {
    const tables = findTables(await firstPageModel(readCorpus('pdf', 'docling', 'right_to_left_03.pdf')));
    expect(tables).toHaveLength(2);
    const [first, second] = tables.map((t) => rowTexts(t as PdfTable));
    expect(first?.[1]).toEqual(['شماره استاندارد ملی', '20300']);
    expect(first?.[3]).toEqual(['مرجع صادرکننده استاندارد', 'سازمان ملی استاندارد ايران']);
    expect(second?.[2]?.[0]).toContain('شماره جلسه');
    expect(second?.[2]?.[1]).toBe('436');
  });

  it('keeps a Latin table left to right', async () => {
    const t = await onlyTable(
      ruledPdf(gridRuleOps([50, 200, 300], [100, 114, 128, 142]), [
        ['Standard', 52, 110, true],
        ['Number', 202, 110, true],
        ['National standard', 52, 124],
        ['20300', 202, 124],
        ['Issuing body', 52, 138],
        ['INSO', 202, 138],
      ]),
    );
    expect(rowTexts(t)).toEqual([
      ['Standard', 'Number'],
      ['National standard', '20300'],
      ['Issuing body', 'INSO'],
    ]);
  });
});
