/**
 * A page laid out in ruled panels is no table (src/parse/readers/pdf/tables/index.ts, panels): a
 * grid of two rows or fewer whose cells holding paragraphs (fifty words or more, two sentences or
 * more) hold most of its words — docling's redp5110_sampled back cover: blurbs beside a shaded
 * side panel, a band under a rule. A table whose cells are paragraphs over more rows (a
 * comparison of laws, one paragraph to a cell) stays a table.
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel as firstPage, gridRuleOps, ruledPdf, type TextRun, tablesOnPage } from './pdf-table-fixtures.ts';

/** Lines of running text: three sentences, about sixty words, set in lines of 7 words 10 pt apart. */
function paragraph(x: number, y: number, seed: string): TextRun[] {
  const words = `${seed} describes the approval that is needed before the purchase of land. It applies to every buyer from abroad and to companies they control. The agency may refuse or attach conditions to the purchase when the land lies near a border or holds water that the public uses every day.`.split(' ');
  const lines: TextRun[] = [];
  for (let i = 0; i * 7 < words.length; i++) lines.push([words.slice(i * 7, i * 7 + 7).join(' '), x, y + 10 * i]);
  return lines;
}

describe('PDF tables: a page laid out in ruled panels', () => {
  it('finds no table on redp5110\'s back cover (page 18), its tables elsewhere kept', async () => {
    const bytes = readCorpus('pdf', 'docling', 'redp5110_sampled.pdf');
    expect(await tablesOnPage(bytes, 18)).toEqual([]);
    expect(await tablesOnPage(bytes, 12)).toHaveLength(1);
  });

  it('finds no table in a ruled grid of two rows whose cells are paragraphs', async () => {
    const xs = [50, 200, 400];
    const ys = [100, 200, 300];
    const runs: TextRun[] = [['Highlights', 54, 110], ...paragraph(204, 110, 'This paper'), ['Contact', 54, 210], ...paragraph(204, 210, 'The team')];
    expect(findTables(await firstPage(ruledPdf(gridRuleOps(xs, ys), runs)))).toEqual([]);
  });

  it('finds the table when the paragraphs stand in rows of entries (a head row and three rows)', async () => {
    const xs = [50, 200, 400];
    const ys = [100, 115, 215, 315, 415];
    const runs: TextRun[] = [
      ['Jurisdiction', 54, 110], ['Restrictions', 204, 110],
      ['Argentina', 54, 125], ...paragraph(204, 125, 'The law'),
      ['Australia', 54, 225], ...paragraph(204, 225, 'The act'),
      ['Austria', 54, 325], ...paragraph(204, 325, 'The code'),
    ];
    const tables = findTables(await firstPage(ruledPdf(gridRuleOps(xs, ys), runs)));
    expect(tables).toHaveLength(1);
    expect(tables[0]?.rows).toBe(4);
  });
});
