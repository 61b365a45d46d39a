/**
 * Running lines by their place (layout/furniture.ts): in a document of two pages or more, a
 * one-row line in the top (bottom) band, set no larger than the text and standing two of its
 * sizes clear of the text under (over) it, is a running head (foot) when every page holds such a
 * line on the same baseline in the same size — a word processor's header area, whatever each
 * page's words say ("Section 1 – odd page header", then "Section 2 – even page header"). A line
 * there on one page only, a one-page document's line, a body's first line close over its text
 * and a title set larger than the text stay text. A body may be a table: a head over a page
 * that holds only a table is furniture too.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readInput } from '../helpers/read-input.ts';
import { buildPdf } from '../helpers/hostile-files.ts';
import { placedTextPages, type PlacedText } from './pdf-placed-text.ts';
import { A4_HEIGHT, gridRuleOps, textRunOps, type TextRun } from './pdf-table-fixtures.ts';

/** A page of body text: a few one-line paragraphs from y = 100, 24 pt apart (space after each). */
function body(page: number, top = 100): PlacedText[] {
  return [0, 1, 2, 3].map((k) => ({ text: `Paragraph ${page}.${k + 1} of the body text`, x: 72, y: top + 24 * k, size: 12 }));
}

async function read(pages: PlacedText[][]): Promise<{ furniture: string[]; text: string }> {
  const result = await readPdf(readInput('pdf', placedTextPages(pages), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  const furniture = [...result.document.querySelectorAll('header[data-furniture], footer[data-furniture]')].map((e) => `${e.tagName.toLowerCase()} ${(e.textContent ?? '').trim()}`);
  const text = [...result.document.querySelectorAll('p, h1, h2, h3, h4, h5, h6')].map((e) => (e.textContent ?? '').trim()).join(' | ');
  return { furniture, text };
}

describe('pdf layout: running lines by their place', () => {
  it('heads and feet on the same baseline of every page are furniture, whatever their words', async () => {
    const { furniture, text } = await read([
      [{ text: 'Section 1 - odd page header', x: 72, y: 46, size: 12 }, ...body(1), { text: 'Section 1 - odd page footer', x: 72, y: 800, size: 12 }],
      [{ text: 'Section 2 - even page header', x: 72, y: 46, size: 12 }, ...body(2), { text: 'Section 2 - even page footer', x: 72, y: 800, size: 12 }],
    ]);
    expect(furniture).toEqual(['header Section 1 - odd page header', 'footer Section 1 - odd page footer', 'header Section 2 - even page header', 'footer Section 2 - even page footer']);
    expect(text).toContain('Paragraph 1.1 of the body text');
    expect(text).toContain('Paragraph 2.4 of the body text');
  });

  it('a line at that place on one page only stays text', async () => {
    const { furniture, text } = await read([[{ text: 'A first page header', x: 72, y: 46, size: 12 }, ...body(1)], body(2)]);
    expect(furniture).toEqual([]);
    expect(text).toContain('A first page header');
  });

  it("a one-page document's line stays text", async () => {
    const { furniture, text } = await read([[{ text: 'The only page header', x: 72, y: 46, size: 12 }, ...body(1)]]);
    expect(furniture).toEqual([]);
    expect(text).toContain('The only page header');
  });

  it("a line that is each page's only text stays text: it is the page's body (a fresh clone's hostile-limits test found it dropped)", async () => {
    const only = (n: number): PlacedText[] => [{ text: `The only line of page ${n}`, x: 72, y: 46, size: 12 }];
    const { furniture, text } = await read([only(1), only(2), only(3)]);
    expect(furniture).toEqual([]);
    expect(text).toBe('The only line of page 1 | The only line of page 2 | The only line of page 3');
  });

  it("the body's first line at the top of every page, close over its text, stays text", async () => {
    const { furniture, text } = await read([body(1, 60), body(2, 60)]);
    expect(furniture).toEqual([]);
    expect(text).toContain('Paragraph 1.1 of the body text');
    expect(text).toContain('Paragraph 2.1 of the body text');
  });

  it('a title set larger than the text at the top of every page stays text (a slide title)', async () => {
    const { furniture, text } = await read([
      [{ text: 'First slide title', x: 72, y: 50, size: 24 }, ...body(1)],
      [{ text: 'Second slide title', x: 72, y: 50, size: 24 }, ...body(2)],
    ]);
    expect(furniture).toEqual([]);
    expect(text).toContain('First slide title');
    expect(text).toContain('Second slide title');
  });

  it('a head over a page whose body is a table, its rule drawn right under the head, is furniture', async () => {
    // Each page: a running head at 8 pt, a hairline 3 pt under it that is also the top rule of a
    // ruled table filling the page (the table's box reaches up to the head); no other text.
    const page = (n: number): string => {
      const xs = [72, 222, 372, 522];
      const ys = [52, 72, 92, 112, 132, 152];
      const cells: TextRun[] = [];
      for (let r = 0; r < 5; r++) for (let c = 0; c < 3; c++) cells.push([`Cell ${n}.${r + 1}.${c + 1}`, xs[c] as number, (ys[r] as number) + 14]);
      return `0.5 w\n${[...gridRuleOps(xs, ys), ...textRunOps([[`Annual accounts - running head`, 72, 49]]), ...textRunOps(cells)].join('\n')}\n`;
    };
    const content = (ops: string) => {
      const stream = Buffer.from(ops, 'latin1');
      return Buffer.concat([Buffer.from(`<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream')]);
    };
    const bytes = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [5 0 R 7 0 R] /Count 2 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 ${A4_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents 6 0 R >>`,
      content(page(1)),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 ${A4_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents 8 0 R >>`,
      content(page(2)),
    ]);
    const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    expect(result.document.querySelectorAll('table')).toHaveLength(2);
    const furniture = [...result.document.querySelectorAll('header[data-furniture]')].map((e) => (e.textContent ?? '').trim());
    expect(furniture).toEqual(['Annual accounts - running head', 'Annual accounts - running head']);
  });
});
