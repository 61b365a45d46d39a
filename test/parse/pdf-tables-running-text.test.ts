/**
 * A column of running text is no table (src/parse/readers/pdf/tables/index.ts, runningText):
 * when a column's cells are the lines of a paragraph — a long cell not ending a sentence and the
 * cell under it going on in lower case, three times or more — the grid is a page's columns of
 * text, not a table. On docling's table_mislabeled_as_picture (a two-column questionnaire) and
 * on a grid built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, helveticaA4, rowTexts as texts } from './pdf-table-fixtures.ts';

const XS = [50, 120, 420];
const YS = [100, 114, 128, 142, 156, 170];

/** One A4 page: a ruled grid of two columns, a short label beside each line of the second. */
function gridPdf(lines: readonly string[]): Buffer {
  const rules = [
    ...YS.map((y) => `${XS[0] as number} ${HEIGHT - y} m ${XS[XS.length - 1] as number} ${HEIGHT - y} l S`),
    ...XS.map((x) => `${x} ${HEIGHT - (YS[0] as number)} m ${x} ${HEIGHT - (YS[YS.length - 1] as number)} l S`),
  ];
  const text = lines.flatMap((l, i) => [`BT /F1 8 Tf 52 ${HEIGHT - (110 + 14 * i)} Td (Item ${i + 1}) Tj ET`, `BT /F1 8 Tf 122 ${HEIGHT - (110 + 14 * i)} Td (${l}) Tj ET`]);
  return helveticaA4(`0.5 w\n${[...rules, ...text].join('\n')}\n`);
}

describe('PDF tables: a column of running text', () => {
  it('finds no table where a column\'s rows are the lines of one paragraph', async () => {
    const paragraph = [
      'They conduct or organize training sessions for all the',
      'providers of legal aid, including both staff and private',
      'lawyers and paralegals who take cases in the regions of',
      'the country where no office of the provider stands',
      'and where no court sits during the whole of the year.',
    ];
    expect(findTables(await firstPage(gridPdf(paragraph)))).toEqual([]);
  });

  it('keeps a grid whose rows each hold a sentence of their own', async () => {
    const sentences = [
      'They conduct or organize training sessions for staff.',
      'They coordinate appointments of private practitioners.',
      'They supervise, coach or mentor private practitioners.',
      'They work in parallel to State funded practitioners.',
      'Other providers, to be specified by the respondent.',
    ];
    const tables = findTables(await firstPage(gridPdf(sentences)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)[0]).toEqual(['Item 1', sentences[0]]);
  });

  it('reads the questionnaire\'s two columns of questions as text, its grid of checkboxes as a table', async () => {
    const tables = findTables(await firstPage(readCorpus('pdf', 'docling', 'table_mislabeled_as_picture.pdf')));
    const cells = tables.flatMap((t) => texts(t)).flat();
    expect(cells.some((c) => c.includes('They work in parallel'))).toBe(false);
    expect(cells).toContain('Persons with disabilities');
  });
});
