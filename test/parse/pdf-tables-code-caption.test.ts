/**
 * A code listing under its caption is no table (src/parse/readers/pdf/tables/index.ts,
 * codeListing): lines set in a fixed-pitch font, aligned to tab stops, with a caption in the text
 * face on the first line ("Example 3-9 Creating a mask on the TAX_ID column"), stay a code block.
 * On docling's redp5110_sampled (page 13) and on a page built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, helveticaA4, tablesOnPage } from './pdf-table-fixtures.ts';

/** One A4 page: a rule above and one below (a listing's frame lines), a Helvetica caption and Courier lines. */
function listingPdf(caption: boolean): Buffer {
  const line = (font: string, t: string, x: number, y: number): string => `BT /${font} 9 Tf ${x} ${HEIGHT - y} Td (${t}) Tj ET`;
  const content = [
    '0.5 w 55 ' + (HEIGHT - 90) + ' m 400 ' + (HEIGHT - 90) + ' l S 55 ' + (HEIGHT - 162) + ' m 400 ' + (HEIGHT - 162) + ' l S',
    ...(caption ? [line('F1', 'Example 3-9 Creating a mask on the column', 60, 100)] : []),
    line('F3', 'CREATE MASK', 60, 120), line('F3', 'HR.MASK_TAX_ID', 160, 120),
    line('F3', 'ON', 60, 132), line('F3', 'HR.EMPLOYEES AS E', 160, 132),
    line('F3', 'FOR COLUMN', 60, 144), line('F3', 'TAX_ID', 160, 144),
    line('F3', 'RETURN', 60, 156), line('F3', 'CASE', 160, 156),
  ].join('\n');
  return helveticaA4(content);
}

describe('PDF tables: a code listing under its caption', () => {
  it('finds no table in a listing set in Courier, with or without a caption in Helvetica above it', async () => {
    expect(findTables(await firstPage(listingPdf(false)))).toEqual([]);
    expect(findTables(await firstPage(listingPdf(true)))).toEqual([]);
  });

  it('finds no table in redp5110\'s Example 3-9 (page 13), its other tables kept', async () => {
    const bytes = readCorpus('pdf', 'docling', 'redp5110_sampled.pdf');
    expect(await tablesOnPage(bytes, 13)).toEqual([]);
    expect((await tablesOnPage(bytes, 12)).length).toBe(1);
  });
});
