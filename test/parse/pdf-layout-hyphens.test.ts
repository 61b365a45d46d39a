/**
 * End-of-line hyphens (layout/inline.ts joinLine): a syllable break parts a word of letters and
 * is undone before a lower-case letter ("com-" + "pile" → "compile"); after a part holding a
 * figure the hyphen is the word's own and stays ("407f-" + "a055" → "407f-a055", "3d-" +
 * "raytrace" → "3d-raytrace"), as it does before a capital or a digit ("COVID-" + "19").
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { joinLine } from '../../src/parse/readers/pdf/layout/index.ts';
import { readInput } from '../helpers/read-input.ts';
import { placedTextPdf } from './pdf-placed-text.ts';

describe('pdf layout: end-of-line hyphens', () => {
  it('joins a syllable break and keeps the hyphen of an identifier or a name with a figure', () => {
    expect(joinLine('the tools com-', 'pile it')).toBe('the tools compile it');
    expect(joinLine('the key d2ae-407f-', 'a055-2167576f39a1 is')).toBe('the key d2ae-407f-a055-2167576f39a1 is');
    expect(joinLine('benchmarks 3d-', 'raytrace and')).toBe('benchmarks 3d-raytrace and');
    expect(joinLine('during COVID-', '19 times')).toBe('during COVID-19 times');
  });

  it('reads an identifier broken at its hyphen over two lines of a paragraph as one', async () => {
    const bytes = placedTextPdf([
      { text: 'The record is kept under the key d2ae-407f-', x: 72, y: 100, size: 10 },
      { text: 'a055-2167576f39a1 while the tools com-', x: 72, y: 112, size: 10 },
      { text: 'pile the rest of the text in a second pass.', x: 72, y: 124, size: 10 },
    ]);
    const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const text = (result.document.body.textContent ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('the key d2ae-407f-a055-2167576f39a1 while');
    expect(text).toContain('the tools compile the rest');
  });
});
