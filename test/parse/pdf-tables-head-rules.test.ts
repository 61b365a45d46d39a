/**
 * Two tables, each ruled under its head, one after the other (kreuzberg's extraction_test.docx
 * printed by LibreOffice): the two rules are not one table's top and bottom rules
 * (src/parse/readers/pdf/tables/index.ts `twoHeadRules`), and each table grows from its head
 * rule down to the next table's head, leaving out the title set over it, and stops at a line set
 * larger than its rows (grow.ts). As the .rtf prints them, each head stands padded above its
 * rule, one row pitch over the first row (`headOnRule`): a head rule still.
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { A4_HEIGHT, firstPageModel, rowTexts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const rule = (y: number): string => `${60} ${A4_HEIGHT - y} m ${400} ${A4_HEIGHT - y} l S`;
const large = (text: string, y: number): string => `BT /F1 11 Tf 60 ${A4_HEIGHT - y} Td (${text}) Tj ET`;
const row = (cells: readonly string[], y: number): TextRun[] => cells.map((c, i): TextRun => [c, 62 + 120 * i, y]);

const FIRST = [
  ['Header 1', 'Header 2', 'Header 3'],
  ['Cell 1A', 'Cell 1B', 'Cell 1C'],
  ['Cell 2A', 'Cell 2B', 'Cell 2C'],
  ['Cell 3A', 'Cell 3B', 'Cell 3C'],
];
const SECOND = [
  ['Product', 'Price', 'Quantity'],
  ['Apple', '$1.00', '10'],
  ['Banana', '$0.50', '20'],
  ['Orange', '$0.75', '15'],
];

function twoTables(title: string): Buffer {
  const runs = [...FIRST.flatMap((r, i) => row(r, 100 + 12 * i + (i > 0 ? 3 : 0))), ...SECOND.flatMap((r, i) => row(r, 170 + 12 * i + (i > 0 ? 3 : 0)))];
  return ruledPdf([rule(102.5), rule(172.5), large(title, 157), large('Third Section', 230)], runs);
}

describe('PDF tables: two tables ruled under their heads', () => {
  it('reads each head rule as its own table, the title and the next heading left out', async () => {
    const tables = findTables(await firstPageModel(twoTables('Another Table')));
    expect(tables.map(rowTexts)).toEqual([FIRST, SECOND]);
  });

  it('keeps a booktabs table whole: a top rule with no head on it, the head rule, the bottom rule', async () => {
    const runs = FIRST.flatMap((r, i) => row(r, 100 + 12 * i + (i > 0 ? 3 : 0)));
    const tables = findTables(await firstPageModel(ruledPdf([rule(89), rule(102.5), rule(142)], runs)));
    expect(tables.map(rowTexts)).toEqual([FIRST]);
  });

  it('keeps a table ruled under its head and at its foot whole: a bottom rule has no row under it', async () => {
    const runs = [...FIRST.flatMap((r, i) => row(r, 100 + 12 * i + (i > 0 ? 3 : 0))), ['After the table comes a sentence of running text.', 62, 160] as TextRun];
    const tables = findTables(await firstPageModel(ruledPdf([rule(102.5), rule(142)], runs)));
    // one table over both rules, its last row kept (how the head above the top rule is read is
    // the stacked rules' business, not this rule's)
    expect(tables).toHaveLength(1);
    const text = rowTexts(tables[0] as NonNullable<(typeof tables)[0]>).flat().join(' ');
    for (const cell of ['1A', '2B', '3C']) expect(text).toContain(cell);
  });

  it('reads a head padded above its rule, one row pitch over the first row, as a head rule', async () => {
    const padded = (headY: number): Buffer => {
      const runs = [...FIRST.flatMap((r, i) => row(r, i === 0 ? headY : 100 + 16 * i)), ...SECOND.flatMap((r, i) => row(r, 190 + 16 * i))];
      return ruledPdf([rule(110), rule(200), large('Another Table', 175), large('Third Section', 280)], runs);
    };
    const cellsOf = (tables: Awaited<ReturnType<typeof findTables>>): string[] => tables.map((t) => rowTexts(t).flat().join(' '));
    const tables = cellsOf(findTables(await firstPageModel(padded(100))));
    expect(tables).toHaveLength(2);
    expect(tables[0]).toContain('Cell 3C');
    expect(tables[0]).not.toMatch(/Apple|Another/u);
    expect(tables[1]).toContain('Orange');
    expect(tables[1]).not.toMatch(/Another|Third/u);
    // the first head further up than a row pitch: not a head rule, the rules stack as before
    expect(cellsOf(findTables(await firstPageModel(padded(95))))).toHaveLength(1);
  });
});
