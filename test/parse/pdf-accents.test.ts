/**
 * Accents drawn as glyphs of their own (issue 16, interleaved characters): TeX sets "á" as the
 * spacing accent "´", then moves back and draws "a" under it, and the text layer read "J´an
 * Min´aˇc", "na¨ıve". A page built in the test draws runs that way; the corpus page is an arXiv
 * paper's acknowledgements.
 */
import { describe, expect, it } from 'vitest';
import { accented, joinAccents } from '../../src/parse/readers/pdf/accents.ts';
import type { Word } from '../../src/parse/readers/pdf/page-model.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { helveticaWidth, placedTextPdf, type PlacedText } from './pdf-placed-text.ts';

async function pageText(bytes: Buffer): Promise<string> {
  const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return (result.document.querySelector('section')?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function word(text: string, x0: number, x1: number, baseline = 100): Word {
  return { text, x0, x1, y0: baseline - 8, y1: baseline + 2, size: 10, font: 'F1', bold: false, italic: false, order: 0, rotated: false, baseline };
}

describe('pdf: accents drawn as glyphs of their own', () => {
  it('composes a spacing accent with the letter drawn back under it, when they make one letter', () => {
    expect(accented('\u00B4', 'a')).toBe('á');
    expect(accented('\u02C7', 'c')).toBe('č');
    expect(accented('\u00A8', '\u0131')).toBe('ï');
    expect(accented('\u02D9', 'q')).toBeUndefined();
    expect(accented('\u00B4', '1')).toBeUndefined();
    const joined = joinAccents([word('J\u00B4', 100, 112), word('an', 107, 120), word('Min\u00B4', 124, 150), word('a\u02C7', 145, 156), word('c', 151, 157)]);
    expect(joined.map((w) => w.text)).toEqual(['Ján', 'Mináč']);
    // An acute set for an apostrophe has nothing drawn back over it: it stays.
    expect(joinAccents([word('it\u00B4', 100, 112), word('s', 112.5, 117)]).map((w) => w.text)).toEqual(['it\u00B4', 's']);
  });

  it('reads the accented letters of a page drawn the way TeX draws them', async () => {
    const runs: PlacedText[] = [];
    let x = 72;
    // Each run ends with the accent; the next starts where the accent starts, drawn back under it.
    for (const run of ['We thank J\u00B4', 'an Min\u00B4', 'ar for the na\u00A8', 'ive question.']) {
      runs.push({ text: run, x, y: 120 });
      x += helveticaWidth(run, 10) - helveticaWidth('\u00B4', 10);
    }
    runs.push({ text: 'Not an accent: it\u00B4s set for an apostrophe.', x: 72, y: 140 });
    const text = await pageText(placedTextPdf(runs));
    expect(text).toContain('We thank Ján Minár for the naïve question.');
    expect(text).toContain('it\u00B4s set for an apostrophe');
  });

  it('reads "Ján Mináč" on an arXiv page set in TeX', async () => {
    const text = await pageText(readCorpus('pdf', 'olmocr', 'pdfs', 'math_2503_04086.pdf'));
    expect(text).toContain('We also thank Ján Mináč for his constant encouragement and support.');
    expect(text).not.toMatch(/[\u00B4\u02C7]/u);
  });
});
