/**
 * Columns set as close as a word space (src/parse/readers/pdf/tables/aligned.ts, startGutters):
 * a browser prints a table with no CSS a few points between cells, so a cell's last word stands
 * as near the next cell's first as two words of a phrase. The columns show where every body line
 * starts a word at the same x (within a point), three lines or more, the words starting
 * there differing. Starts that only come near one another, or one form repeated, part nothing.
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { firstPageModel, helveticaA4, rowTexts, type TextRun, textRunOps } from './pdf-table-fixtures.ts';

/** A head line in bold and four rows, cells flush left at 50, 91, 111.6 and 145.5 (gaps of 2.8 pt after the widest cells, Helvetica 8 pt). */
function closeTable(shift = 0): TextRun[] {
  const rows: [string, string, string, string][] = [
    ['Python', '1991', 'Dynamic', 'General purpose'],
    ['Rust', '2015', 'Static', 'Systems programming'],
    ['TypeScript', '2012', 'Static', 'Web development'],
    ['Go', '2009', 'Static', 'Cloud infrastructure'],
  ];
  const xs = [50, 91, 111.6, 145.5];
  const runs: TextRun[] = [['Language', 50, 100, true], ['Year', 91, 100, true], ['Typing', 111.6, 100, true], ['Primary Use', 145.5, 100, true]];
  rows.forEach((cells, r) => cells.forEach((text, c) => runs.push([text, (xs[c] as number) + (c > 0 && r % 2 === 1 ? shift : 0), 112 + 12 * r])));
  return runs;
}

describe('PDF tables: columns set as close as a word space', () => {
  it('finds the table where every row starts its cells at the same x', async () => {
    const tables = findTables(await firstPageModel(helveticaA4(textRunOps(closeTable()).join('\n'))));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as NonNullable<(typeof tables)[0]>)).toEqual([
      ['Language', 'Year', 'Typing', 'Primary Use'],
      ['Python', '1991', 'Dynamic', 'General purpose'],
      ['Rust', '2015', 'Static', 'Systems programming'],
      ['TypeScript', '2012', 'Static', 'Web development'],
      ['Go', '2009', 'Static', 'Cloud infrastructure'],
    ]);
  });

  it('finds no such columns where the starts only come near one another (1.5 pt apart)', async () => {
    const tables = findTables(await firstPageModel(helveticaA4(textRunOps(closeTable(1.5)).join('\n'))));
    const cols = tables.map((t) => t.cols);
    expect(cols.every((c) => c < 4)).toBe(true);
  });
});
