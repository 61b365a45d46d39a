/**
 * Column heads told apart by what they hold (tables/figure-heads.ts): a first row of words on one
 * line over a body of figures is the head row, where no rule, weight or case sets it off. Built
 * grids for the rule's edges, and olmOCR-bench's discoverworld tables, whose heads (set on a
 * slant, neither bold nor ruled off) now head their columns.
 */
import { describe, expect, it } from 'vitest';
import type { Word } from '../../src/parse/readers/pdf/page-model.ts';
import type { GridCell, LaidOutTable } from '../../src/parse/readers/pdf/tables/grid.ts';
import { headerRows } from '../../src/parse/readers/pdf/tables/header.ts';
import { findTables, tableHtml } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel } from './pdf-table-fixtures.ts';

function grid(rows: string[][], { stackedHead = false } = {}): LaidOutTable {
  const cells: GridCell[] = [];
  rows.forEach((texts, r) => {
    texts.forEach((text, c) => {
      const words: Word[] = text
        .split(' ')
        .filter((t) => t !== '')
        .map((t, i) => {
          const y = 20 * r + (stackedHead && r === 0 ? 12 * i : 0);
          return { text: t, x0: 100 * c + 10 * i, x1: 100 * c + 10 * i + 8, y0: y, y1: y + 10, size: 10, font: 'F1', bold: false, italic: false, order: 0, rotated: false, baseline: y + 8 };
        });
      cells.push({ row: r, col: c, rowSpan: 1, colSpan: 1, text, words, x0: 100 * c, x1: 100 * c + 90, y0: 20 * r, y1: 20 * r + 18 });
    });
  });
  return { rows: rows.length, cols: rows[0]?.length ?? 0, cells };
}

describe('PDF tables: column heads over figures', () => {
  const body = [
    ['DCLM', '3.71T', '21.32T'],
    ['arXiv', '20.8B', '77.2B'],
    ['Wikipedia', '3.7B', '16.2B'],
  ];

  it('a first row of words over figures is the head row', () => {
    expect(headerRows(grid([['Source', 'Tokens', 'Bytes'], ...body]))).toBe(1);
  });

  it('a first row of figures, or over words, or stacked over two lines, stays in the body', () => {
    expect(headerRows(grid([['Total', '3.90T', '22.38T'], ...body]))).toBe(0);
    expect(headerRows(grid([['Source', 'Kind', 'Note'], ['DCLM', 'web pages', 'filtered'], ['arXiv', 'papers', 'all'], ['Wikipedia', 'encyclopedia', 'dump']]))).toBe(0);
    expect(headerRows(grid([['Source one', 'Tokens two', 'Bytes three'], ...body], { stackedHead: true }))).toBe(0);
  });

  it("heads discoverworld's two tables with their slanted metric names", async () => {
    const tables = findTables(await firstPageModel(readCorpus('pdf', 'olmocr', 'pdfs', 'discoverworld_crazy_table4.pdf')));
    expect(tables.length).toBe(2);
    // Under a head row of the models' names, each over its group of columns (group-heads.ts).
    expect(tableHtml(tables[0] as never)).toMatch(/^<table><thead><tr>(?:<th[^>]*>[^<]*<\/th>)+<\/tr><tr><th>#<\/th><th>Topic<\/th><th>Task<\/th><th>Procedure<\/th>/u);
    expect(tableHtml(tables[1] as never)).toMatch(/^<table><thead><tr>(?:<th[^>]*>[^<]*<\/th>)+<\/tr><tr><th>#<\/th><th>Unit Test Topic<\/th><th>Procedure<\/th>/u);
  });
});
