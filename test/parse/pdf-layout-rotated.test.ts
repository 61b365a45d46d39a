/**
 * Rotated text (margin stamps, vertical labels) is read apart from the page's upright text: up
 * the left margin, left of all the text (an arXiv identifier along a preprint's left edge), it
 * is met before the page's text; elsewhere (a note in the right margin) after it.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { layoutDocument } from '../../src/parse/readers/pdf/layout/index.ts';
import type { PageModel, Word } from '../../src/parse/readers/pdf/page-model.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

function word(text: string, x0: number, y0: number, rotated = false): Word {
  const x1 = rotated ? x0 + 10 : x0 + 6 * text.length;
  const y1 = rotated ? y0 + 6 * text.length : y0 + 10;
  return { text, x0, x1, y0, y1, size: 10, font: 'F1', bold: false, italic: false, order: 0, rotated, baseline: y1 - 2 };
}

function page(stampX: number): PageModel {
  const words: Word[] = [];
  ['The first line of the page', 'and the second line of it'].forEach((line, i) => {
    let x = 100;
    for (const w of line.split(' ')) {
      words.push(word(w, x, 100 + 14 * i));
      x += 6 * w.length + 4;
    }
  });
  words.push(word('arXiv:2312.15166v2', stampX, 300, true));
  return { number: 1, width: 595, height: 842, words, rules: [], fills: [], images: [], links: [], source: 'text' };
}

describe('pdf layout: rotated text', () => {
  it('reads rotated text left of all the text before it, and rotated text elsewhere after it', () => {
    expect(layoutDocument([page(30)])).toMatch(/^<section data-page="1"><p>arXiv:2312\.15166v2<\/p><p>The first line/u);
    expect(layoutDocument([page(500)])).toMatch(/second line of it<\/p><p>arXiv:2312\.15166v2<\/p><\/section>$/u);
  });

  it('reads the arXiv stamp of a real preprint page first (bench 01030000000185, a tuning page)', async () => {
    const result = await readPdf(readInput('pdf', readCorpus('pdf-bench', 'pdfs', '01030000000185.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    expect(result.document.querySelector('section')?.firstElementChild?.textContent).toMatch(/^arXiv:2312\.15166v2 \[cs\.CL\]/u);
  });
});
