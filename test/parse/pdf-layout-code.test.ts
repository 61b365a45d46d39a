/**
 * Code listings (src/parse/readers/pdf/layout/code.ts): lines in a fixed-pitch font are a
 * `<pre><code>` block whose words stand at their columns. Where the listing's grid is wider than
 * the font's advance (LaTeX's listings with fixed columns: each glyph centred in a cell of about
 * 0.6 em), the pitch is fitted to where the words start, so the cells' margins, which the viewer
 * reads as spaces ("add (a ,"), part nothing. On docling's code_and_formula.pdf and on a page
 * built here.
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { A4_HEIGHT as HEIGHT, helveticaA4 } from './pdf-table-fixtures.ts';

function read(bytes: Buffer): Promise<ReadResult> {
  return readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
}

function listings(result: ReadResult): string[] {
  return [...result.document.querySelectorAll('pre > code')].map((c) => c.textContent ?? '');
}

const PROGRAM = ['function add(a, b) {', '    return a + b;', '}', 'console.log(add(3, 5));'];

/**
 * The program in Courier 9 pt (advance 5.4 pt) on a grid of `cell` points, as LaTeX's listings
 * sets it: each glyph centred in its cell, a line drawn as one TJ whose offsets move from glyph
 * to glyph. A gap between glyphs of more than a tenth of the type size is taken by the viewer for a
 * space, so on cells of 6.4 pt every glyph is a word of its own.
 */
function gridListingPdf(cell: number): Buffer {
  const advance = 5.4;
  const ops: string[] = [];
  PROGRAM.forEach((line, i) => {
    const parts: string[] = [];
    let first: number | undefined;
    let at = 0;
    for (const m of line.matchAll(/\S/g)) {
      const x = 72 + (m.index ?? 0) * cell + (cell - advance) / 2;
      if (first === undefined) first = x;
      else parts.push(String(Math.round((-(x - at) * 1000) / 9)));
      parts.push(`(${m[0].replace(/[()\\]/g, '\\$&')})`);
      at = x + advance;
    }
    ops.push(`BT /F3 9 Tf ${(first ?? 72).toFixed(2)} ${HEIGHT - (120 + 11 * i)} Td [${parts.join(' ')}] TJ ET`);
  });
  return helveticaA4([`BT /F1 10 Tf 72 ${HEIGHT - 100} Td (Listing 1: a program.) Tj ET`, ...ops].join('\n'));
}

describe('PDF layout: code listings on a grid wider than the font', () => {
  it('reads docling\'s code_and_formula listing with its spacing and indentation', async () => {
    const result = await read(readCorpus('pdf', 'docling', 'code_and_formula.pdf'));
    expect(listings(result)).toEqual([PROGRAM.join('\n')]);
  });

  it('fits the grid of a listing whose glyphs are centred in wider cells (Courier on 6.2 and 6.4 pt cells)', async () => {
    expect(listings(await read(gridListingPdf(6.2)))).toEqual([PROGRAM.join('\n')]);
    expect(listings(await read(gridListingPdf(6.4)))).toEqual([PROGRAM.join('\n')]);
  });

  it('keeps the font\'s own advance when the words sit on it (Courier on 5.4 pt cells)', async () => {
    expect(listings(await read(gridListingPdf(5.4)))).toEqual([PROGRAM.join('\n')]);
  });

  it('keeps the spaces of fixed-pitch words that lie on no grid (olmOCR\'s small_page_size: a scan\'s text layer in a fixed-pitch face)', async () => {
    const text = listings(await read(readCorpus('pdf', 'olmocr', 'pdfs', 'small_page_size.pdf'))).join('\n');
    // The words stand where the scan's words stood: a gap under a column's width is still a space.
    expect(text).toContain('less than four or live-fold its former bulk.');
    expect(text).toContain('requiring a less quantity of bones annually, from its increased fertility and');
    expect(text).not.toMatch(/quantityofbones|increasedfertility/);
  });
});
