/**
 * A border drawn round the page's text lays out no table (src/parse/readers/pdf/tables/index.ts,
 * pageBorder): docling's redp5110_sampled brochure page (a sidebar of labels and icons beside
 * running text, in a frame round the page) had been read as a 12 × 2 table. A ruled table inside
 * such a border is still found by its own rules.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel as firstPage, gridRuleOps, rowTexts, ruledPdf, type TextRun, tablesOnPage } from './pdf-table-fixtures.ts';

/** A page border (40..555 × 40..800) round a sidebar label and lines of running text beside it. */
const BORDER = gridRuleOps([40, 555], [40, 800]);
const SIDEBAR: TextRun[] = [
  ['Highlights', 60, 100],
  ...Array.from({ length: 12 }, (_, i): TextRun => [`line ${i + 1} of the running text that goes on across the measure of the column`, 200, 100 + 12 * i]),
  ['Contact', 60, 160],
];

describe('PDF tables: a border round the page', () => {
  it('finds no table on redp5110\'s brochure page (page 3)', async () => {
    expect(await tablesOnPage(readCorpus('pdf', 'docling', 'redp5110_sampled.pdf'), 3)).toEqual([]);
  });

  it('lays out no table by a border round a sidebar and its text', async () => {
    expect(findTables(await firstPage(ruledPdf(BORDER, SIDEBAR)))).toEqual([]);
  });

  it('still finds a ruled table inside the border', async () => {
    const grid = gridRuleOps([60, 200, 300], [300, 315, 330, 345]);
    const cells: TextRun[] = [['Item', 64, 311], ['Count', 204, 311], ['Bolt', 64, 326], ['12', 204, 326], ['Nut', 64, 341], ['14', 204, 341]];
    const tables = findTables(await firstPage(ruledPdf([...BORDER, ...grid], [...SIDEBAR, ...cells])));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)).toEqual([['Item', 'Count'], ['Bolt', '12'], ['Nut', '14']]);
  });
});
