/**
 * A table found by alignment alone lies within one column of the page
 * (src/parse/readers/pdf/tables/index.ts columnRegions): lines of two columns parted by a vertical
 * line running the page's height (a column rule, the fold of a spread printed on one sheet) are
 * no rows together. On docling's table_mislabeled_as_picture (a spread: a question's options on
 * the left page beside the right page's grid of checkboxes) and on pages built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT, firstPageModel, helveticaA4, rowTexts, textRunOps, type TextRun } from './pdf-table-fixtures.ts';

const ROWS = [100, 112, 124, 136, 148];
/** The right column's table: a bold head and four rows of a label and two short values. */
const TABLE: TextRun[] = [
  ['Group', 320, 100, true],
  ['Legal aid', 450, 100, true],
  ['CSOs', 520, 100, true],
  ...['Persons with disabilities', 'Children', 'Women', 'Migrants'].flatMap((label, i): TextRun[] => [
    [label, 320, ROWS[i + 1] as number],
    ['Yes', 450, ROWS[i + 1] as number],
    ['No', 520, ROWS[i + 1] as number],
  ]),
];
/** The left column's lines, one phrase each, on the same baselines. */
const LEFT: TextRun[] = ['If your country has a provider', 'Yes, at the national level', 'Yes, at the regional level', 'Yes, at the local level', 'No provider'].map((t, i): TextRun => [t, 60, ROWS[i] as number]);

const page = (rule: string): Buffer => helveticaA4(`0.5 w\n${rule}\n${textRunOps([...LEFT, ...TABLE]).join('\n')}\n`);
const tablesOf = async (bytes: Buffer): Promise<PdfTable[]> => findTables(await firstPageModel(bytes));

describe('PDF tables: a column rule parts the page', () => {
  it('keeps the left column out of the right column’s table across a rule the height of the page', async () => {
    const tables = await tablesOf(page(`300 20 m 300 ${A4_HEIGHT - 20} l S`));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)).toEqual([
      ['Group', 'Legal aid', 'CSOs'],
      ['Persons with disabilities', 'Yes', 'No'],
      ['Children', 'Yes', 'No'],
      ['Women', 'Yes', 'No'],
      ['Migrants', 'Yes', 'No'],
    ]);
  });

  it('without the rule, or with a rule no taller than the table, the lines read across both columns', async () => {
    for (const rule of ['', `300 ${A4_HEIGHT - 90} m 300 ${A4_HEIGHT - 155} l S`]) {
      const tables = await tablesOf(page(rule));
      expect(tables).toHaveLength(1);
      expect(rowTexts(tables[0] as PdfTable)[1]).toContain('Yes, at the national level');
    }
  });

  it("reads table_mislabeled_as_picture's grid of checkboxes without the left page's options", async () => {
    const tables = await tablesOf(readCorpus('pdf', 'docling', 'table_mislabeled_as_picture.pdf'));
    expect(tables).toHaveLength(1);
    const rows = rowTexts(tables[0] as PdfTable);
    expect(rows).toHaveLength(8);
    expect(rows[1]).toEqual(['y', 'Persons with disabilities', '*', '*']);
    expect(rows.flat().join(' ')).not.toContain('Yes, at');
  });
});
