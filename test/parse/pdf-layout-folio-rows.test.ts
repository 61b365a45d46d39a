/**
 * A running line that carries the page number is furniture on any page (layout/furniture.ts):
 * the number may stand between the line's parts ("Journal | site   1   March 2014 | Volume 8"),
 * and a running head set as separate blocks along the number's row ("400   BRITISH HUSBANDRY.
 * [Ch. XIX.") goes with it; a row placed by its middle counts as the page's first line even when
 * its foot sits just past the band. A running line without a number on a one-page document stays
 * text (nothing says it runs), unless it is set at most half the size of the page's text, alone
 * in the top band. A page number closing a page whose text ends early (centred, under
 * everything, two lines clear) is furniture outside the band too. A row of numbers only (a
 * chart's axis) is no running line. The running lines bound the type area: what the band holds
 * above the head or below the foot (a download stamp, a producer's line) is furniture with them.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { layoutDocument } from '../../src/parse/readers/pdf/layout/index.ts';
import type { PageModel, Word } from '../../src/parse/readers/pdf/page-model.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

function words(text: string, x: number, y: number, size = 10): Word[] {
  const out: Word[] = [];
  for (const w of text.split(' ')) {
    const width = 0.5 * size * w.length;
    out.push({ text: w, x0: x, x1: x + width, y0: y, y1: y + size, size, font: 'F1', bold: false, italic: false, order: 0, rotated: false, baseline: y + 0.8 * size });
    x += width + 0.3 * size;
  }
  return out;
}

function page(runs: [string, number, number, number?][]): PageModel {
  const body: [string, number, number, number?][] = [
    ['The body of the page runs here across the measure', 60, 200],
    ['and goes on for a second line of the same paragraph', 60, 214],
  ];
  return { number: 1, width: 595, height: 842, words: [...body, ...runs].flatMap(([t, x, y, size]) => words(t, x, y, size)), rules: [], fills: [], images: [], links: [], source: 'text' };
}

const furniture = (html: string): string[] => [...html.matchAll(/<(header|footer) data-furniture="\w+">(.*?)<\/\1>/gu)].map((m) => (m[2] as string).replace(/<[^>]+>/gu, ''));

describe('pdf layout: running lines carrying the page number', () => {
  it('a footer with the number between its parts is furniture', () => {
    const html = layoutDocument([page([['Journal of Tests | www.example.org', 60, 790], ['7', 295, 790], ['March 2014 | Volume 8 | Issue 3', 380, 790]])]);
    expect(furniture(html).join(' ')).toMatch(/Journal of Tests.*7.*Volume 8/u);
    expect(html).toContain('<p>The body of the page');
  });

  it('a running head of several parts beside the number is furniture, however long in all', () => {
    const html = layoutDocument([page([['400', 60, 50], ['THE BRITISH HUSBANDRY OF THE NORTH', 200, 50], ['[Ch. XIX. Manures.', 460, 50]])]);
    const head = furniture(html).join(' ');
    for (const part of ['400', 'THE BRITISH HUSBANDRY OF THE NORTH', '[Ch. XIX. Manures.']) expect(head).toContain(part);
    expect(html).toContain('<p>The body of the page');
  });

  it('without a number, or with a long part, the line stays text', () => {
    const plain = layoutDocument([page([['Journal of Tests | www.example.org', 60, 790], ['March 2014 | Volume 8 | Issue 3', 380, 790]])]);
    expect(furniture(plain)).toEqual([]);
    const long = layoutDocument([page([['one two three four five six seven eight nine ten', 60, 790], ['7', 400, 790]])]);
    expect(furniture(long)).toEqual([]);
  });

  it("on olmOCR-bench pages: the PLOS footer and the cropped book page's running head", async () => {
    const options = { options: { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] } };
    const plos = await readPdf(readInput('pdf', readCorpus('pdf', 'olmocr', 'pdfs', 'headers_footers', 'ff0f0b22c55d8b90dd77d153f48e144fc9db_pg2.pdf'), options));
    const plosFooter = [...plos.document.querySelectorAll('[data-furniture]')].map((e) => e.textContent).join(' ');
    expect(plosFooter).toContain('PLOS Neglected Tropical Diseases | www.plosntds.org');
    expect(plosFooter).toContain('March 2014 | Volume 8 | Issue 3 | e2748');
    const book = await readPdf(readInput('pdf', readCorpus('pdf', 'olmocr', 'pdfs', 'small_page_size.pdf'), options));
    const bookHead = [...book.document.querySelectorAll('[data-furniture]')].map((e) => e.textContent).join(' ');
    for (const part of ['400', 'BRITISH HUSBANDRY.', '[Ch. XIX.']) expect(bookHead).toContain(part);
    expect(book.document.querySelector('section')?.textContent).toContain('Since the use of bones');
  });

  it('a page number closing a short page is furniture; off-centre, or with text under it, it stays', () => {
    expect(furniture(layoutDocument([page([['62', 292, 500]])]))).toEqual(['62']);
    expect(furniture(layoutDocument([page([['62', 60, 500]])]))).toEqual([]);
    expect(furniture(layoutDocument([page([['62', 292, 500], ['A note set under the number.', 60, 560]])]))).toEqual([]);
    expect(furniture(layoutDocument([page([['62', 292, 222]])]))).toEqual([]);
  });

  it('closes the NVIDIA statement page of olmOCR-bench (earnings.pdf, "62" mid-page under the notes)', async () => {
    const options = { options: { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] } };
    const earnings = await readPdf(readInput('pdf', readCorpus('pdf', 'olmocr', 'pdfs', 'earnings.pdf'), options));
    expect([...earnings.document.querySelectorAll('[data-furniture]')].map((e) => e.textContent)).toEqual(['62']);
    expect(earnings.document.querySelector('table')).not.toBeNull();
  });

  it('a line alone in the top band at half the text size or less is a running head; larger, it stays', () => {
    const small = layoutDocument([page([['Journal of Tests, volume 8', 240, 40, 5]])]);
    expect(furniture(small)).toEqual(['Journal of Tests, volume 8']);
    const body = layoutDocument([page([['Journal of Tests, volume 8', 240, 40, 7]])]);
    expect(furniture(body)).toEqual([]);
    const two = layoutDocument([page([['Journal of Tests, volume 8', 240, 40, 5], ['A second line in the band', 60, 60]])]);
    expect(furniture(two)).toEqual([]);
  });

  it("drops the small running head of olmOCR-bench's BYU page (10 pt over 27–32 pt text)", async () => {
    const options = { options: { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] } };
    const byu = await readPdf(readInput('pdf', readCorpus('pdf', 'olmocr', 'pdfs', 'headers_footers', 'ff518b1240a66978f22035528ccb029450b5_pg2.pdf'), options));
    expect(byu.document.querySelector('header[data-furniture]')?.textContent).toBe('Woodworth et al.: Brief Notices');
  });

  it('a row of numbers only in the band is a chart axis, not a folio; a spread head with two numbers is one', () => {
    expect(furniture(layoutDocument([page([['0', 100, 790], ['5', 200, 790], ['10', 300, 790], ['15', 400, 790]])]))).toEqual([]);
    const spread = furniture(layoutDocument([page([['208', 60, 40], ['Global Study on Legal Aid', 240, 40], ['209', 520, 40]])])).join(' ');
    expect(spread).toContain('Global Study on Legal Aid');
  });

  it('a stamp over a running head, or a line under a foot, in the band is furniture with it', () => {
    const html = layoutDocument([page([['Downloaded from example.org on July 12, 2017', 150, 20], ['Advocacy in Action', 60, 45], ['447', 520, 45]])]);
    expect(furniture(html).join(' ')).toContain('Downloaded from example.org');
    const foot = layoutDocument([page([['page 3 / 3', 280, 770], ['Powered by a PDF library', 240, 815, 7]])]);
    expect(furniture(foot).join(' ')).toContain('Powered by a PDF library');
    // Without a running line to bound the type area, the stamp stays text.
    const alone = layoutDocument([page([['Downloaded from example.org on July 12, 2017', 150, 20]])]);
    expect(furniture(alone)).toEqual([]);
  });

  it('reads the axis of a chart at the foot of bench page 01030000000040 (a tuning page) as text', async () => {
    const options = { options: { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] } };
    const page40 = await readPdf(readInput('pdf', readCorpus('pdf-bench', 'pdfs', '01030000000040.pdf'), options));
    expect(page40.document.querySelector('[data-furniture]')).toBeNull();
    expect(page40.document.querySelector('section')?.textContent).toContain('0 5 10 15 20');
  });
});
