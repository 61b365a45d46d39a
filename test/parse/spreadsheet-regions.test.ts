/**
 * The tables of a sheet (src/parse/readers/spreadsheet/regions.ts): several tables on one sheet
 * come out as several tables, a title above a table as a paragraph over it with the real header
 * row as the header, and what belongs to a table (a totals row under a spacer row, a stray value
 * beside it) stays with it. On corpus workbooks and on workbooks SheetJS writes here.
 */
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { readSpreadsheet } from '../../src/parse/readers/spreadsheet/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

type Cell = string | number | null;

function workbook(rows: Cell[][], merges: XLSX.Range[] = []): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows.map((r) => r.map((v) => (v === null ? undefined : v))));
  sheet['!merges'] = merges;
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Data');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** The blocks after each heading: a table as its rows of cell texts (header first), a paragraph as its text. */
function blocks(result: ReadResult): (string | string[][])[] {
  const out: (string | string[][])[] = [];
  for (const node of result.document.body.children) {
    if (node.tagName === 'P') out.push(node.textContent ?? '');
    if (node.tagName === 'TABLE') out.push([...node.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
  }
  return out;
}

const read = (bytes: Buffer) => readSpreadsheet(readInput('xlsx', bytes));

describe('spreadsheet tables: one sheet, several tables', () => {
  it('parts tables set side by side and one under another shifted to the right (docling xlsx_01 Sheet2)', async () => {
    const result = await readSpreadsheet(readInput('xlsx', readCorpus('office', 'xlsx', 'docling-xlsx_01.xlsx')));
    const h2 = [...result.document.querySelectorAll('h2')].find((h) => h.textContent === 'Sheet2');
    const tables: Element[] = [];
    for (let n = h2?.nextElementSibling; n && n.tagName !== 'H2'; n = n.nextElementSibling) if (n.tagName === 'TABLE') tables.push(n);
    const heads = tables.map((t) => [...(t.querySelector('tr')?.children ?? [])].map((c) => c.textContent));
    expect(heads).toEqual([
      ['col-1', 'col-2', 'col-3', 'col-4'],
      ['col-1', 'col-2', 'col-3'],
      ['col-1', 'col-2', 'col-3'],
    ]);
    expect(tables.map((t) => t.querySelectorAll('tr').length)).toEqual([9, 5, 5]);
  });

  it('reads a merged title over the header as a paragraph, and the header row as the header (stanley_cups)', async () => {
    const result = await readSpreadsheet(readInput('xlsx', readCorpus('office', 'xlsx', 'kreuzberg-stanley_cups.xlsx')));
    const [title, table] = blocks(result);
    expect(title).toBe('Stanley Cups');
    expect((table as string[][])[0]).toEqual(['Team', 'Location', 'Stanley Cups']);
    expect(result.document.querySelector('table thead')?.textContent).toBe('TeamLocationStanley Cups');
  });

  it('parts tables at blank rows and columns, titles and notes as paragraphs', async () => {
    const rows: Cell[][] = [
      ['Sales by region', null, null, null, null, null],
      ['Region', 'Q1', 'Q2', null, 'Rep', 'Calls'],
      ['North', 10, 12, null, 'Ann', 5],
      ['South', 7, 9, null, 'Bob', 8],
      [null, null, null, null, null, null],
      ['Figures in thousands.', null, null, null, null, null],
    ];
    const result = await read(workbook(rows));
    expect(blocks(result)).toEqual([
      'Sales by region',
      [
        ['Region', 'Q1', 'Q2'],
        ['North', '10', '12'],
        ['South', '7', '9'],
      ],
      [
        ['Rep', 'Calls'],
        ['Ann', '5'],
        ['Bob', '8'],
      ],
      'Figures in thousands.',
    ]);
  });

  it('keeps a totals row under a spacer row, and a stray value beside a table, with the table', async () => {
    const rows: Cell[][] = [
      ['Item', 'Cost', null, null],
      ['Paper', 4, null, 'checked'],
      ['Ink', 6, null, null],
      [null, null, null, null],
      ['Total', 10, null, null],
    ];
    const result = await read(workbook(rows));
    const all = blocks(result);
    expect(all).toHaveLength(1);
    const table = all[0] as string[][];
    expect(table[0]).toEqual(['Item', 'Cost', '', '']);
    expect(table[1]).toEqual(['Paper', '4', '', 'checked']);
    expect(table.at(-1)).toEqual(['Total', '10', '', '']);
  });

  it('keeps one table whose header is grouped by merged cells (no title)', async () => {
    const rows: Cell[][] = [
      ['Region', '2023', null, '2024', null],
      [null, 'H1', 'H2', 'H1', 'H2'],
      ['North', 1, 2, 3, 4],
    ];
    const merges = [XLSX.utils.decode_range('B1:C1'), XLSX.utils.decode_range('D1:E1'), XLSX.utils.decode_range('A1:A2')];
    const result = await read(workbook(rows, merges));
    expect(result.document.querySelectorAll('table')).toHaveLength(1);
    expect(result.document.querySelectorAll('thead tr')).toHaveLength(2);
    expect(result.document.querySelector('p')).toBeNull();
  });

  it('leaves a sheet of thousands of scattered cells as one grid (a pattern, not a page of tables)', async () => {
    const rows: Cell[][] = Array.from({ length: 120 }, (_, r) => Array.from({ length: 60 }, (_, c) => (r % 2 === 0 && c % 2 === 0 ? `${r}:${c}` : null)));
    const started = Date.now();
    const result = await read(workbook(rows));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.document.querySelectorAll('table')).toHaveLength(1);
  });
});
