/**
 * Heads in the right column of a two-column page (issue 16, bench:paper's headings round): a
 * head stands in one baseline band with the other column's line, and where that line is a loose
 * justified one, parted at its wide word spaces into short pieces, the band holds three short
 * lines — which the heading finder took for a row of cells. The head is set larger or bolder
 * than those pieces and off their baseline: it is a heading. Beside it, the case the test must
 * leave alone: three labels of one type a little off one baseline (a diagram's) stay cells.
 * And heads broken over two lines: a title centred across both columns (its second line pulled
 * in on both sides, no first-line indent), a column head whose lines stand wider apart than the
 * text's leading (the line broke because the next word did not fit: one head); two heads one
 * over the other, the second's first word fitting on the first's line, stay two. And a bold run
 * filling a line of a paragraph, its last word broken by a hyphen: no heading.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readInput } from '../helpers/read-input.ts';
import { helveticaWidth, placedTextPdf, type PlacedText } from './pdf-placed-text.ts';

const WORDS = 'the survey asked each person how often they had seen such content and what they made of it afterwards'.split(' ');
const LEADING = 13;
const TOP = 80;
const COLUMN = 230;
const LEFT = 50;
const RIGHT = 310;

/** `count` lines of 10 pt running text filling the column, from word `k`. */
function prose(count: number, k0 = 0): string[] {
  const lines: string[] = [];
  let k = k0;
  for (let i = 0; i < count; i++) {
    let line = WORDS[k++ % WORDS.length] as string;
    while (helveticaWidth(`${line} ${WORDS[k % WORDS.length]}`, 10) <= COLUMN - 4) line += ` ${WORDS[k++ % WORDS.length]}`;
    lines.push(line);
  }
  return lines;
}

/**
 * A two-column page: the left column's running text, its eighth line a loose justified one set
 * as three pieces far apart ("reduced release", "cycles", "from"); in the right column a
 * paragraph, then `head` (its size and weight), its baseline `offset` points below the loose
 * line's, then another paragraph.
 */
function page(head: { text: string; size: number; bold: boolean }, offset: number): Buffer {
  const runs: PlacedText[] = [];
  prose(20).forEach((text, i) => {
    const y = TOP + i * LEADING;
    if (i === 7) {
      runs.push({ text: 'reduced release', x: LEFT, y });
      runs.push({ text: 'cycles', x: LEFT + 130, y });
      runs.push({ text: 'from', x: LEFT + COLUMN - helveticaWidth('from', 10), y });
    } else runs.push({ text, x: LEFT, y, width: i % 6 === 5 ? undefined : COLUMN });
  });
  prose(6, 5).forEach((text, i) => runs.push({ text, x: RIGHT, y: TOP + i * LEADING, width: i === 5 ? undefined : COLUMN }));
  runs.push({ text: head.text, x: RIGHT, y: TOP + 7 * LEADING + offset, size: head.size, ...(head.bold ? { bold: true } : {}) });
  prose(8, 9).forEach((text, i) => runs.push({ text, x: RIGHT, y: TOP + 9 * LEADING + i * LEADING, width: i === 7 ? undefined : COLUMN }));
  return placedTextPdf(runs);
}

async function headings(bytes: Buffer): Promise<string[]> {
  const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => (h.textContent ?? '').trim());
}

describe('pdf layout: a head beside the other column’s loose line', () => {
  it('reads a 12 pt bold head as a heading though the line beside it is parted into short pieces', async () => {
    expect(await headings(page({ text: 'Results', size: 12, bold: true }, 5))).toEqual(['Results']);
  });

  it('reads a 10.5 pt bold head off the text’s baseline as a heading too', async () => {
    expect(await headings(page({ text: 'Related Posts', size: 10.5, bold: true }, 2))).toEqual(['Related Posts']);
  });

  it('keeps three labels of one type a little off one baseline as cells of a row, no heading', async () => {
    const runs: PlacedText[] = [];
    prose(6).forEach((text, i) => runs.push({ text, x: LEFT, y: TOP + i * LEADING, width: i === 5 ? undefined : COLUMN }));
    // A diagram's three bold labels across the page, 3 pt apart in height.
    runs.push({ text: 'Blockchain', x: LEFT, y: TOP + 8 * LEADING, size: 12, bold: true });
    runs.push({ text: 'Next AI', x: LEFT + 170, y: TOP + 8 * LEADING + 3, size: 12, bold: true });
    runs.push({ text: 'Edge Computing', x: LEFT + 340, y: TOP + 8 * LEADING + 1.5, size: 12, bold: true });
    prose(6, 3).forEach((text, i) => runs.push({ text, x: LEFT, y: TOP + (10 + i) * LEADING, width: i === 5 ? undefined : COLUMN }));
    expect(await headings(placedTextPdf(runs))).toEqual([]);
  });
});

/** Right-column prose under a head whose last line's top is at `y`, and a left column of prose. */
function columnsUnder(runs: PlacedText[], y: number): void {
  prose(24).forEach((text, i) => runs.push({ text, x: LEFT, y: y + 30 + i * LEADING, width: i % 6 === 5 ? undefined : COLUMN }));
  prose(24, 7).forEach((text, i) => runs.push({ text, x: RIGHT, y: y + 30 + i * LEADING, width: i % 6 === 5 ? undefined : COLUMN }));
}

describe('pdf layout: a head broken over two lines', () => {
  it('reads a title centred over two lines, across both columns, as one heading', async () => {
    const runs: PlacedText[] = [];
    const centre = (LEFT + RIGHT + COLUMN) / 2;
    const first = 'Does the Model and its Inference Parameters Matter';
    const second = 'in Applications: A Case Study for Algebra Tests';
    runs.push({ text: first, x: centre - helveticaWidth(first, 16) / 2, y: 80, size: 16, bold: true });
    runs.push({ text: second, x: centre - helveticaWidth(second, 16) / 2, y: 99, size: 16, bold: true });
    columnsUnder(runs, 99);
    expect(await headings(placedTextPdf(runs))).toEqual([`${first} ${second}`]);
  });

  it('reads a column head whose two lines stand wider apart than the leading as one heading', async () => {
    const runs: PlacedText[] = [];
    prose(12).forEach((text, i) => runs.push({ text, x: LEFT, y: 80 + i * LEADING, width: i % 6 === 5 ? undefined : COLUMN }));
    // "cumbersome" (about 70 pt at 12 pt) does not fit after the first line's 170-odd points in a 230 pt column.
    runs.push({ text: '1. Automation shines a light on', x: LEFT, y: 250, size: 12, bold: true });
    runs.push({ text: 'cumbersome toolchains', x: LEFT, y: 272, size: 12, bold: true });
    columnsUnder(runs, 272);
    expect(await headings(placedTextPdf(runs))).toEqual(['1. Automation shines a light on cumbersome toolchains']);
  });

  it('keeps two heads one over the other as two when the second’s first word fits on the first’s line', async () => {
    const runs: PlacedText[] = [];
    prose(12).forEach((text, i) => runs.push({ text, x: LEFT, y: 80 + i * LEADING, width: i % 6 === 5 ? undefined : COLUMN }));
    runs.push({ text: 'Methods', x: LEFT, y: 250, size: 12, bold: true });
    runs.push({ text: 'Data sources', x: LEFT, y: 272, size: 12, bold: true });
    columnsUnder(runs, 272);
    expect(await headings(placedTextPdf(runs))).toEqual(['Methods', 'Data sources']);
  });
});

describe('pdf layout: a bold line ending in a broken word', () => {
  it('reads a bold run filling a paragraph’s line, its last word hyphenated, as the paragraph’s text', async () => {
    const runs: PlacedText[] = [];
    const lines = prose(14);
    lines.forEach((text, i) => {
      const y = 80 + i * LEADING;
      if (i === 6) runs.push({ text: 'parallel documents arranged side-', x: LEFT, y, bold: true });
      else if (i === 7) runs.push({ text: `by-side. ${text}`.slice(0, text.length), x: LEFT, y, width: COLUMN });
      else runs.push({ text, x: LEFT, y, width: i === 13 ? undefined : COLUMN });
    });
    expect(await headings(placedTextPdf(runs))).toEqual([]);
  });
});
