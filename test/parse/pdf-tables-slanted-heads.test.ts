/**
 * Slanted column heads (src/parse/readers/pdf/tables/index.ts, headAbove): heads set at an angle
 * over narrow columns of figures lean over the columns to their right; each stands over the
 * column it starts in, so the line right above a ruled grid is its head row. On olmOCR-bench's
 * discoverworld page (both tables) and on a grid built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, helveticaA4, rowTexts as texts } from './pdf-table-fixtures.ts';

const XS = [50, 200, 230, 260, 290];
const YS = [130, 144, 158];

/** One A4 page: a ruled grid, a head line over it whose figure heads are set at 45°, and a body. */
function slantedPdf(): Buffer {
  const rules = [
    ...YS.map((y) => `${XS[0] as number} ${HEIGHT - y} m ${XS[XS.length - 1] as number} ${HEIGHT - y} l S`),
    ...XS.map((x) => `${x} ${HEIGHT - (YS[0] as number)} m ${x} ${HEIGHT - (YS[YS.length - 1] as number)} l S`),
  ];
  const at = (t: string, x: number, y: number): string => `BT /F1 8 Tf ${x} ${HEIGHT - y} Td (${t}) Tj ET`;
  const slanted = (t: string, x: number, y: number): string => `BT /F1 8 Tf 0.7071 0.7071 -0.7071 0.7071 ${x} ${HEIGHT - y} Tm (${t}) Tj ET`;
  const text = [
    at('Unit Test Topic', 52, 126),
    slanted('Procedure', 204, 126), slanted('Completion', 234, 126), slanted('Knowledge', 264, 126),
    at('Pick-and-place object', 52, 140), at('0.90', 205, 140), at('0.80', 235, 140), at('0.60', 265, 140),
    at('Move through doors', 52, 154), at('0.58', 205, 154), at('0.20', 235, 154), at('0.25', 265, 154),
  ];
  return helveticaA4(`0.5 w\n${[...rules, ...text].join('\n')}\n`);
}

describe('PDF tables: slanted column heads over a ruled grid', () => {
  it('takes a head line with heads set at 45° as the grid\'s head row, each head over the column it starts in', async () => {
    const tables = findTables(await firstPage(slantedPdf()));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([
      ['Unit Test Topic', 'Procedure', 'Completion', 'Knowledge'],
      ['Pick-and-place object', '0.90', '0.80', '0.60'],
      ['Move through doors', '0.58', '0.20', '0.25'],
    ]);
  });

  it('gives both discoverworld tables their slanted heads', async () => {
    const [first, second] = findTables(await firstPage(readCorpus('pdf', 'olmocr', 'pdfs', 'discoverworld_crazy_table4.pdf')));
    // Under the models' names, each centred over its group of columns (group-heads.ts).
    expect(texts(first as PdfTable)[1]).toEqual(['#', 'Topic', 'Task', ...Array<string[]>(3).fill(['Procedure', 'Completion', 'Knowledge']).flat()]);
    expect(texts(second as PdfTable)[1]).toEqual(['#', 'Unit Test Topic', ...Array<string[]>(3).fill(['Procedure', 'Completion']).flat()]);
  });
});
