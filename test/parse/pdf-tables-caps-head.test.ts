/**
 * Column heads set in capitals over a body that is not (header.ts): the head row of a table
 * whose heads differ from the body by case alone, neither bold nor ruled off. On the PDF/UA
 * reference invoice (opendataloader-pdf's corpus), with olmOCR's discoverworld table as the
 * control (its first row, "Proteomics | Clustering", is a body row in mixed case; the earnings
 * page once was, until its underlined heads above the grid became its head rows).
 */
import { describe, expect, it } from 'vitest';
import { findTables, tableHtml, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel } from './pdf-table-fixtures.ts';

async function tablesOf(...parts: string[]): Promise<PdfTable[]> {
  return findTables(await firstPageModel(readCorpus(...parts)));
}

describe('PDF tables: column heads in capitals', () => {
  it('makes the invoice\'s ITEM / DESCRIPTION / … row the head row', async () => {
    const [t] = await tablesOf('pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf');
    if (!t) throw new Error('no table');
    expect(t.cells.filter((c) => c.header).map((c) => c.text)).toEqual(['ITEM', 'DESCRIPTION', 'QUANTITY', 'PRICE (€)', 'AMOUNT (€)']);
    expect(tableHtml(t)).toMatch(/^<table><thead><tr><th>ITEM<\/th>.*<\/tr><\/thead><tbody><tr><td>1<\/td><td>Super Kite<\/td>/);
  });

  it('leaves a first row in mixed case in the body', async () => {
    const [t] = await tablesOf('pdf', 'olmocr', 'pdfs', 'discoverworld_crazy_table4.pdf');
    if (!t) throw new Error('no table');
    expect(t.cells.some((c) => c.header)).toBe(false);
  });
});
