/**
 * A column of bullets is a list, not a table's column (issue 16, lists round on office
 * documents): tables/aligned.ts `listLike` turns down a borderless table whose first column holds
 * only bullets or item numbers. Lists inside a table's cells (docling's text_document_03, printed
 * by LibreOffice) stand their bullets in a column, and where an item's row holds two items' lines
 * the column's cell reads "• •": every mark in it must be a bullet, not the cell as one.
 */
import { describe, expect, it } from 'vitest';
import type { GridCell, LaidOutTable } from '../../src/parse/readers/pdf/tables/grid.ts';
import { listLike } from '../../src/parse/readers/pdf/tables/aligned.ts';

function table(rows: readonly (readonly string[])[]): LaidOutTable {
  const cells: GridCell[] = rows.flatMap((row, r) =>
    row.map((text, c) => ({ row: r, col: c, rowSpan: 1, colSpan: 1, words: [], text, x0: c * 100, x1: c * 100 + 90, y0: r * 20, y1: r * 20 + 12 })),
  );
  return { rows: rows.length, cols: Math.max(...rows.map((r) => r.length)), cells };
}

describe('pdf tables: a first column of bullets', () => {
  it('is a list when each of its cells holds list marks only, one or several', () => {
    expect(listLike(table([['•', 'Cell 1 item 1'], ['•', 'Cell 2 item 1']]))).toBe(true);
    expect(listLike(table([['• •', 'Cell 1 item 1 Cell 1 item 2'], ['•', 'Cell 2 item 1']]))).toBe(true);
    expect(listLike(table([['1.', 'First'], ['2.', 'Second']]))).toBe(true);
  });

  it('is a table column when a cell holds a word', () => {
    expect(listLike(table([['• •', 'Cell 1 item 1'], ['• note', 'Cell 2 item 1']]))).toBe(false);
    expect(listLike(table([['Year', 'Sales'], ['2024', '10']]))).toBe(false);
    // several numbers in one cell (a contents list set beside its entries) stay the table finder's
    expect(listLike(table([['1. 2. 3.', 'Contents Foreword Preface'], ['4.', 'Introduction']]))).toBe(false);
  });
});
