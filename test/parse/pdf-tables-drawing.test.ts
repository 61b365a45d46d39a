/**
 * Text over a drawing is no table (src/parse/readers/pdf/tables/drawing.ts): where the filled
 * shapes under a frame overlap one another in part more often than there are shapes (an
 * object's parts, a shading drawn as steps), the lines crossing there are the drawing's outlines
 * and the words its labels; they stay in the running text. Tables whose painted boxes tile or
 * nest, or a highlight crossing striped rows, are still tables. On docling's amt_handbook_sample
 * (a cut-away nut with its labels) and on pages built here.
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, gridRuleOps, helveticaA4, rowTexts, textRunOps, type TextRun } from './pdf-table-fixtures.ts';

function read(bytes: Buffer): Promise<ReadResult> {
  return readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
}

const XS = [50, 200, 300, 400];
const YS = [100, 115, 130, 145, 160];
const RUNS: TextRun[] = [
  ['Item', 54, 111], ['Width', 204, 111], ['Height', 304, 111],
  ['Bolt', 54, 126], ['12', 204, 126], ['40', 304, 126],
  ['Nut', 54, 141], ['14', 204, 141], ['9', 304, 141],
  ['Washer', 54, 156], ['20', 204, 156], ['2', 304, 156],
];

/** A filled box, in a grey, given by its top-down corners. */
const box = (x0: number, y0: number, x1: number, y1: number, grey = 0.85): string => `${grey} g ${x0} ${HEIGHT - y1} ${x1 - x0} ${y1 - y0} re f`;

/** The grid and its text, over `fills` drawn first (text in black). */
function pagePdf(fills: readonly string[]): Buffer {
  return helveticaA4(['0.5 w', ...fills, '0 g', ...gridRuleOps(XS, YS), ...textRunOps(RUNS)].join('\n'));
}

describe('PDF tables: text over a drawing', () => {
  it('finds no table among the labels of amt_handbook_sample\'s cut-away nut, and keeps the labels as text', async () => {
    const bytes = readCorpus('pdf', 'docling', 'amt_handbook_sample.pdf');
    expect(findTables(await firstPage(bytes))).toEqual([]);
    const text = (await read(bytes)).document.body.textContent?.replace(/\s+/g, ' ') ?? '';
    for (const label of ['Untightened nut', 'Locking shoulder', 'Threaded nut core', 'Keyway', 'Tightened nut']) expect(text).toContain(label);
    expect((await read(bytes)).document.querySelectorAll('table')).toHaveLength(0);
  });

  it('finds no table where the lines cross over shapes overlapping one another (a shading drawn as steps)', async () => {
    const steps = Array.from({ length: 8 }, (_, i) => box(60 + 6 * i, 102 + i, 260 + 6 * i, 150 + i, 0.9 - 0.02 * i));
    expect(findTables(await firstPage(pagePdf(steps)))).toEqual([]);
    const text = (await read(pagePdf(steps))).document.body.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Washer');
  });

  it('still finds the table over tiled shading, nested highlights, a highlight crossing striped rows, or a patterned background running out of it', async () => {
    const rows = [['Item', 'Width', 'Height'], ['Bolt', '12', '40'], ['Nut', '14', '9'], ['Washer', '20', '2']];
    const striped = [box(50, 115, 400, 130), box(50, 145, 400, 160)];
    const tiled = [box(50, 100, 200, 115), box(200, 100, 300, 115), box(300, 100, 400, 115)];
    const nested = [box(50, 100, 400, 160, 0.95), box(52, 117, 120, 128, 0.8), box(52, 147, 120, 158, 0.8)];
    const crossing = [...striped, box(200, 100, 300, 160, 0.7)];
    // A patterned background: shapes overlapping one another, each running out of the frame.
    const pattern = Array.from({ length: 8 }, (_, i) => box(30 + 40 * i, 80, 130 + 40 * i, 180, 0.95 - 0.01 * i));
    for (const fills of [striped, tiled, nested, crossing, pattern]) {
      const tables = findTables(await firstPage(pagePdf(fills)));
      expect(tables).toHaveLength(1);
      expect(rowTexts(tables[0] as PdfTable)).toEqual(rows);
    }
  });
});
