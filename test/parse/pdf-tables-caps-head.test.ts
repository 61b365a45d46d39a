/**
 * Column heads set in capitals over a body that is not (header.ts): the head row of a table
 * whose heads differ from the body by case alone, neither bold nor ruled off. On the PDF/UA
 * reference invoice (opendataloader-pdf's corpus), with olmOCR's discoverworld table as the
 * control (its head row in mixed case is found by the figures under it, not by case).
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

  it('finds no head by case alone in a first row in mixed case', async () => {
    // discoverworld's first row ("# | Topic | Task | Procedure …", mixed case) is its head by the
    // figures under it (figure-heads.ts), not by case: without that rule it stays in the body.
    const [t] = await tablesOf('pdf', 'olmocr', 'pdfs', 'discoverworld_crazy_table4.pdf');
    if (!t) throw new Error('no table');
    // Under the models' names over their groups of columns (group-heads.ts), also header cells.
    expect(t.cells.filter((c) => c.header && c.row === 1).map((c) => c.text).slice(0, 4)).toEqual(['#', 'Topic', 'Task', 'Procedure']);
    expect(t.cells.some((c) => c.header && c.text === 'Proteomics')).toBe(false);
  });
});
