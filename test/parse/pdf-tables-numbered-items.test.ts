/**
 * Items numbered across a grid are a list, not a table (src/parse/readers/pdf/tables/
 * numbered-items.ts): olmOCR-bench's mathfuncs pages (cards "1. Euler's Identity", "2. Pythagorean
 * Theorem", … in a ruled 2 × 2 grid, numbered along the rows or down the columns) and grids built
 * here; a table whose rows are numbered in its first column stays a table.
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel, gridRuleOps, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const XS = [50, 250, 450];
/** Rows as tall as their two lines (taller ones, with room under the text, would be form boxes). */
const YS = [100, 126, 152];

/** A ruled 2 × 2 grid, each cell a title line over a line of text. */
function cardsPdf(titles: readonly string[]): Buffer {
  const runs = titles.flatMap((title, i): TextRun[] => {
    const x = (XS[i % 2] as number) + 4;
    const y = (YS[Math.floor(i / 2)] as number) + 10;
    return [[title, x, y, true], ['a line of text about it', x, y + 10]];
  });
  return ruledPdf(gridRuleOps(XS, YS), runs);
}

describe('PDF tables: items numbered across a grid', () => {
  it('reads cards numbered along the rows as text', async () => {
    expect(findTables(await firstPageModel(cardsPdf(['1. Euler identity', '2. Pythagoras', '3. Calculus', '4. Maxwell'])))).toEqual([]);
  });

  it('reads cards numbered down the columns as text', async () => {
    expect(findTables(await firstPageModel(cardsPdf(['1. Euler identity', '3. Calculus', '2. Pythagoras', '4. Maxwell'])))).toEqual([]);
  });

  it('keeps a grid whose numbers do not run on, or whose cells are not all numbered, a table', async () => {
    expect(findTables(await firstPageModel(cardsPdf(['1. Euler identity', '4. Maxwell', '2. Pythagoras', '7. Fourier'])))).toHaveLength(1);
    expect(findTables(await firstPageModel(cardsPdf(['1. Euler identity', 'Pythagoras', '2. Calculus', 'Maxwell'])))).toHaveLength(1);
  });

  it('reads the mathfuncs pages’ cards as text', async () => {
    for (const pdf of ['mathfuncs.pdf', 'mathfuncs_colswitch.pdf']) {
      expect(findTables(await firstPageModel(readCorpus('pdf', 'olmocr', 'pdfs', pdf)))).toEqual([]);
    }
  });
});
