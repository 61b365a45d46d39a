/**
 * Table-of-contents entries on a page built in the test: bold chapter entries and regular
 * section entries, each with its page number flush right at one edge, a few points from the
 * longest titles. Entries are a list, not headings, however bold.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { helveticaWidth, placedTextPdf, type PlacedText } from './pdf-placed-text.ts';

const ENTRIES: [title: string, page: string, chapter: boolean][] = [
  ['1 Introduction', '1', true],
  ['1.1 Background', '2', false],
  ['1.2 Scope of this report', '4', false],
  ['2 Methods', '7', true],
  ['2.1 Survey design', '8', false],
  ['2.2 Interviews', '11', false],
  ['3 Findings', '15', true],
  ['3.1 Online content', '16', false],
  ['3.2 Offline messages', '21', false],
  ['4 Recommendations', '27', true],
  ['References', '33', true],
];

/** The contents: a 20 pt bold title, then the entries with their page numbers flush right at `edge`. */
function contentsPage(edge: number): Buffer {
  const runs: PlacedText[] = [{ text: 'Contents', x: 72, y: 90, size: 20, bold: true }];
  let y = 130;
  for (const [title, page, chapter] of ENTRIES) {
    runs.push({ text: title, x: chapter ? 72 : 86, y, bold: chapter });
    runs.push({ text: page, x: edge - helveticaWidth(page, 10), y, bold: chapter });
    y += chapter ? 22 : 16;
  }
  return placedTextPdf(runs);
}

describe('pdf layout: table of contents', () => {
  it('makes no heading of bold chapter entries whose page numbers stand flush right close to the titles', async () => {
    const result = await readPdf(readInput('pdf', contentsPage(200), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const headings = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim());
    expect(headings).toEqual(['Contents']);
    const text = result.document.querySelector('section')?.textContent ?? '';
    for (const [title] of ENTRIES) expect(text).toContain(title);
  });

  it('reads dot leaders set as spaced dots as one run of dots, each entry on its line (pdf-bench 01030000000018)', async () => {
    const result = await readPdf(readInput('pdf', readCorpus('pdf-bench', 'pdfs', '01030000000018.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const text = result.document.querySelector('section')?.textContent ?? '';
    expect(text).not.toMatch(/(?:\. ){4}/u);
    expect(text).toMatch(/Foreword to the 2021 Edition \.{10,} xi/u);
    expect(text).toMatch(/The Lost Homeland \.{10,} 5/u);
  });
});
