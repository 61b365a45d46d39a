import { describe, expect, it } from 'vitest';
import { pageList, pagesPhrase } from '../../src/parse/readers/pdf/errors.ts';
import { findFurniture } from '../../src/parse/readers/pdf/furniture.ts';
import { joinLine, linesOf, paragraphsOf, type TextRun } from '../../src/parse/readers/pdf/text-layout.ts';
import { expandLigatures } from '../../src/parse/readers/pdf/text-normalise.ts';

/** A run at (x, y) in a font of `size` points, roughly half a point wide per character per point. */
function run(text: string, x: number, y: number, size = 10, extra: Partial<TextRun> = {}): TextRun {
  return { text, transform: [size, 0, 0, size, x, y], width: text.length * size * 0.5, height: size, hasEOL: false, font: 'f1', ...extra };
}

describe('text layout: lines', () => {
  it('joins runs on one baseline, adding a space only where there is a gap', () => {
    const lines = linesOf([run('Hello', 72, 700), run('world', 72 + 25 + 3, 700), run('!', 72 + 25 + 3 + 25, 700)]);
    expect(lines.map((l) => l.text)).toEqual(['Hello world!']);
  });

  it('keeps superscripts on their line and splits where the baseline moves', () => {
    const lines = linesOf([run('Andreas Gal', 120, 644.9, 11), run('∗', 175.4, 648.8, 8), run(', Brendan Eich', 180, 644.9, 11), run('Mozilla', 120, 620, 11)]);
    expect(lines.map((l) => l.text)).toEqual(['Andreas Gal∗, Brendan Eich', 'Mozilla']);
    expect(lines[0]?.baseline).toBe(644.9);
  });

  it("honours pdf.js's end-of-line marks and drops empty runs", () => {
    const lines = linesOf([run('cell one', 72, 500, 10, { hasEOL: true }), run('', 150, 500), run('cell two', 150, 500)]);
    expect(lines.map((l) => l.text)).toEqual(['cell one', 'cell two']);
  });

  it('groups rotated text along its own direction', () => {
    // Text turned 90° counter-clockwise: it advances up the page, lines stack to the right.
    const up = (text: string, x: number, y: number): TextRun => ({ text, transform: [0, 10, -10, 0, x, y], width: text.length * 5, height: 10, hasEOL: false, font: 'f1' });
    const lines = linesOf([up('rotated', 100, 100), up('label', 100, 140), up('next line', 112, 100)]);
    expect(lines.map((l) => l.text)).toEqual(['rotated label', 'next line']);
  });
});

describe('text layout: paragraphs', () => {
  const body = (texts: string[], top: number, step = 12) => texts.map((t, i) => run(t, 72, top - i * step, 10, { hasEOL: true }));

  it('splits on a gap larger than the usual line spacing and on a change of type', () => {
    const runs = [run('A Heading', 72, 720, 16, { hasEOL: true, font: 'bold' }), ...body(['First line of the', 'paragraph.'], 696), ...body(['Second para-', 'graph here.'], 660)];
    expect(paragraphsOf(linesOf(runs)).map((p) => p.text)).toEqual(['A Heading', 'First line of the paragraph.', 'Second paragraph here.']);
  });

  it('starts a paragraph at a bullet and when the text moves up the page (a new column)', () => {
    const runs = [...body(['Intro line', '• first item', 'continues', '• second item'], 700), ...body(['top of column two'], 700)];
    expect(paragraphsOf(linesOf(runs)).map((p) => p.text)).toEqual(['Intro line', '• first item continues', '• second item', 'top of column two']);
  });

  it('undoes hyphenation before a lower-case letter only', () => {
    expect(joinLine('more difficult to com-', 'pile than')).toBe('more difficult to compile than');
    expect(joinLine('the COVID-', '19 pandemic')).toBe('the COVID-19 pandemic');
    expect(joinLine('we call it Trace-', 'Monkey')).toBe('we call it Trace-Monkey');
    expect(joinLine('a dash -', 'then more')).toBe('a dash - then more');
    expect(joinLine('soft\u00AD', 'ware')).toBe('software');
  });

  it('spells out ligatures and Arabic presentation forms but keeps superscripts', () => {
    expect(expandLigatures('\uFB01nd the e\uFB03cient \uFB02ow')).toBe('find the efficient flow');
    expect(expandLigatures('\uFEDF\uFECC\uFEAE\uFE91\uFEF4\uFE94')).toBe('لعربية');
    expect(expandLigatures('x² ½')).toBe('x² ½');
  });
});

describe('page lists in warnings', () => {
  it('names pages and ranges', () => {
    expect(pageList([3])).toBe('3');
    expect(pageList([3, 5])).toBe('3 and 5');
    expect(pageList([1, 2, 3, 4, 7, 9])).toBe('1–4, 7 and 9');
    expect(pageList([1, 2, 5])).toBe('1, 2 and 5');
    expect(pageList(Array.from({ length: 30 }, (_, i) => i * 2 + 1))).toBe('1, 3, 5, 7, 9, 11, 13, 15, 17, 19 and 20 more');
    expect(pagesPhrase([4], 'is blank.', 'are blank.')).toBe('Page 4 is blank.');
    expect(pagesPhrase([4, 5, 6], 'is blank.', 'are blank.')).toBe('Pages 4–6 are blank.');
  });
});

describe('running headers and footers', () => {
  const page = (n: number, texts: [string, number][]) => ({
    bottom: 0,
    top: 792,
    paragraphs: texts.map(([text, y]) => ({ text: text.replace('#', String(n)), top: y, bottom: y, size: 10 })),
  });

  it('marks text repeated in the top or bottom band of most pages, digits ignored', () => {
    const pages = [1, 2, 3, 4].map((n) =>
      page(n, [
        ['Annual Report 2024', 760],
        [`Body text that differs on page ${'x'.repeat(n)}`, 500],
        ['Page # of 4', 30],
      ]),
    );
    const marks = findFurniture(pages);
    expect(marks.map((m) => [...m.header])).toEqual([[0], [0], [0], [0]]);
    expect(marks.map((m) => [...m.footer])).toEqual([[2], [2], [2], [2]]);
  });

  it('marks nothing in a document of fewer than three pages, or for text in mid-page', () => {
    const two = [1, 2].map((n) => page(n, [['Header', 760], ['Page #', 30]]));
    expect(findFurniture(two).every((m) => m.header.size === 0 && m.footer.size === 0)).toBe(true);
    const middle = [1, 2, 3].map((n) => page(n, [['Same sentence', 400]]));
    expect(findFurniture(middle).every((m) => m.header.size === 0 && m.footer.size === 0)).toBe(true);
  });
});
