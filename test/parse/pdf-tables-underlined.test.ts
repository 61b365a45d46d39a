/**
 * Column heads underlined above a grid (src/parse/readers/pdf/tables/underlined.ts): heads set
 * over a ruled grid, each over a short rule whose ends fall on the grid's column lines (a head
 * over several columns over a rule broken at the gutters), are the grid's head rows, each head
 * spanning the columns of its rule. On olmOCR-bench's earnings page and on grids built here.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, gridRuleOps, rowTexts as texts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

type Run = TextRun;

const XS = [50, 200, 270, 340];
const YS = [130, 144, 158];

/** One A4 page: a ruled grid, short rules [x0, x1, y] above it, and the runs in Helvetica 8 pt. */
function headedPdf(pieces: readonly [number, number, number][], runs: readonly Run[]): Buffer {
  const rules = [...gridRuleOps(XS, YS), ...pieces.map(([a, b, y]) => `${a} ${HEIGHT - y} m ${b} ${HEIGHT - y} l S`)];
  return ruledPdf(rules, runs);
}

const BODY: Run[] = [['Cost of revenue', 52, 140], ['178', 250, 140], ['141', 320, 140], ['Research', 52, 154], ['3,423', 242, 154], ['2,532', 312, 154]];
const HEADS: Run[] = [['Year Ended', 252, 108, true], ['2024', 222, 118, true], ['2023', 292, 118, true]];

describe('PDF tables: column heads underlined above a grid', () => {
  it('takes the underlined heads as head rows, a head over a broken rule spanning its pieces\' columns', async () => {
    const pieces: [number, number, number][] = [[200, 268, 111], [272, 340, 111], [200, 268, 121], [272, 340, 121]];
    const [t] = findTables(await firstPage(headedPdf(pieces, [...HEADS, ...BODY])));
    expect(texts(t as PdfTable)).toEqual([
      ['', 'Year Ended'],
      ['', '2024', '2023'],
      ['Cost of revenue', '178', '141'],
      ['Research', '3,423', '2,532'],
    ]);
    expect((t as PdfTable).cells.find((c) => c.text === 'Year Ended')).toMatchObject({ colSpan: 2, header: true });
  });

  it('leaves heads above the grid alone when their rules do not end on its column lines', async () => {
    const pieces: [number, number, number][] = [[210, 260, 111], [280, 330, 111], [210, 260, 121], [280, 330, 121]];
    const [t] = findTables(await firstPage(headedPdf(pieces, [...HEADS, ...BODY])));
    expect(texts(t as PdfTable).flat()).not.toContain('Year Ended');
  });

  it('gives the earnings page its heads: "Year Ended" over the three years, each year over its column', async () => {
    const [t] = findTables(await firstPage(readCorpus('pdf', 'olmocr', 'pdfs', 'earnings.pdf')));
    const rows = texts(t as PdfTable);
    expect(rows.slice(0, 2)).toEqual([
      ['', 'Year Ended'],
      ['', 'Jan 26, 2025', 'Jan 28, 2024', 'Jan 29, 2023'],
    ]);
    expect(rows).toContainEqual(['Sales, general and administrative', '1,136', '876', '680']);
  });
});
