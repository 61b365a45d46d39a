/**
 * Footnotes measured against the text above them (docs/pdf.md, Layout: Footnotes), on pages
 * built in the test. A page of long notes under a few lines of larger running text reads the
 * notes after the text; but running text set in the page's body size under an abstract set
 * larger is no note area — it has no numbered note — and stays where it stands (an article's
 * first column under its abstract used to move to the end of the page, after the next column).
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readInput } from '../helpers/read-input.ts';
import { helveticaWidth, placedTextPdf, type PlacedText } from './pdf-placed-text.ts';

const WORDS = 'the committee heard how the archive was kept and what each reader made of the letters it held'.split(' ');

/** `count` lines of text in `size` filling `width` points, each opening with its tag and number ("B07"). */
function prose(tag: string, count: number, width: number, size: number): string[] {
  const lines: string[] = [];
  let k = 0;
  for (let i = 0; i < count; i++) {
    let line = `${tag}${String(i + 1).padStart(2, '0')}`;
    while (helveticaWidth(`${line} ${WORDS[k % WORDS.length]}`, size) <= width - 4) line += ` ${WORDS[k++ % WORDS.length]}`;
    lines.push(line);
  }
  return lines;
}

async function order(runs: PlacedText[]): Promise<string[]> {
  const result = await readPdf(readInput('pdf', placedTextPdf(runs), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return [...(result.document.querySelector('section')?.children ?? [])].map((e) => (e.textContent ?? '').trim().slice(0, 3));
}

describe('pdf layout: notes measured against the text above them', () => {
  it('keeps running text under a larger abstract in place: no numbered note, no note area', async () => {
    const runs: PlacedText[] = [];
    // The abstract, 12 pt, over the left column; under it, in the lower part of the page, the
    // left column's 9 pt text; the right column's 9 pt text beside both.
    prose('A', 4, 250, 12).forEach((text, i) => runs.push({ text, x: 50, y: 470 + i * 15, size: 12, width: 250 }));
    prose('B', 16, 240, 9).forEach((text, i) => runs.push({ text, x: 50, y: 560 + i * 11, size: 9, width: 240 }));
    prose('C', 30, 240, 9).forEach((text, i) => runs.push({ text, x: 310, y: 470 + i * 11, size: 9, width: 240 }));
    expect(await order(runs)).toEqual(['A01', 'B01', 'C01']);
  });

  it('reads numbered notes set in the page body size under a few lines of larger text after the text', async () => {
    const runs: PlacedText[] = [];
    // Left column: four lines of 11 pt running text, then long 9 pt notes, the first numbered.
    // Right column: 11 pt running text down to the notes' height, then its own notes.
    prose('T', 4, 220, 11).forEach((text, i) => runs.push({ text, x: 50, y: 480 + i * 13, size: 11, width: 220 }));
    const notes = prose('N', 14, 200, 9);
    runs.push({ text: '34', x: 50, y: 550, size: 9 });
    notes.forEach((text, i) => runs.push({ text, x: 70, y: 550 + i * 11, size: 9, width: 200 }));
    prose('R', 6, 220, 11).forEach((text, i) => runs.push({ text, x: 320, y: 480 + i * 13, size: 11, width: 220 }));
    prose('S', 10, 200, 9).forEach((text, i) => runs.push({ text, x: 340, y: 570 + i * 11, size: 9, width: 200 }));
    runs.push({ text: '35', x: 320, y: 570, size: 9 });
    const read = await order(runs);
    // The running text of both columns first, then the notes.
    expect(read.indexOf('T01')).toBeLessThan(read.indexOf('R01'));
    expect(read.indexOf('R01')).toBeLessThan(read.findIndex((p) => p.startsWith('34')));
    expect(read.indexOf('R01')).toBeLessThan(read.findIndex((p) => p.startsWith('35')));
  });
});
