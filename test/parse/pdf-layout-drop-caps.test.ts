/**
 * Drop caps on a page built in the test: a letter set four lines tall whose baseline sits on the
 * fourth line beside it. The letter begins the first line; a large single letter with only one
 * line beside it (a heading "A" before its text) is left alone.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readInput } from '../helpers/read-input.ts';
import { placedTextPdf, type PlacedText } from './pdf-placed-text.ts';

async function text(runs: PlacedText[]): Promise<string> {
  const result = await readPdf(readInput('pdf', placedTextPdf(runs), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return (result.document.querySelector('section')?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('pdf layout: drop caps', () => {
  it('reads a drop cap as the first letter of the line beside its top', async () => {
    const lines = ['nce upon a time there was a parser', 'that read every page it was given', 'and never lost the first letter of', 'a chapter set in a large initial.', 'The text goes on under the letter.'];
    const runs: PlacedText[] = [{ text: 'O', x: 72, y: 100 + 3 * 14, size: 52 }];
    lines.forEach((t, i) => runs.push({ text: t, x: i < 4 ? 116 : 72, y: 100 + i * 14 }));
    const page = await text(runs);
    expect(page).toContain('Once upon a time there was a parser that read every page it was given');
    expect(page).not.toMatch(/O a chapter|\bnce upon/u);
  });

  it('leaves a large letter with a single line beside it alone', async () => {
    const page = await text([
      { text: 'A', x: 72, y: 120, size: 30 },
      { text: 'first appendix, its text on one line', x: 100, y: 120 },
      { text: 'Then a paragraph under it, set in the body size of the page.', x: 72, y: 150 },
    ]);
    expect(page).not.toContain('Afirst');
  });
});
