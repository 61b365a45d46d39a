/**
 * Layout analysis on real pages (corpus PDFs): reading order of columns, heading levels,
 * lists, hyphenation, running headers, links. Content is asserted, not whole outputs.
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

function read(...path: string[]): Promise<ReadResult> {
  return readPdf(readInput('pdf', readCorpus(...path), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
}

function texts(result: ReadResult, selector: string): string[] {
  return [...result.document.querySelectorAll(selector)].map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());
}

function sectionText(result: ReadResult, page: number): string {
  return (result.document.querySelector(`section[data-page="${page}"]`)?.textContent ?? '').replace(/\s+/g, ' ');
}

describe('pdf layout: reading order', () => {
  it('reads a two-column page column by column, the full-width title first (tracemonkey.pdf page 1)', async () => {
    const result = await read('pdf', 'pdfjs', 'tracemonkey.pdf');
    const page = sectionText(result, 1);
    const at = (s: string) => {
      const i = page.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    // Left column: abstract, then the start of the introduction; right column: its continuation.
    expect(at('Trace-based Just-in-Time Type Specialization')).toBeLessThan(at('Abstract'));
    expect(at('Abstract')).toBeLessThan(at('Dynamic languages such as JavaScript, Python, and Ruby, are popular'));
    expect(at('the de facto standard for client-side web programming')).toBeLessThan(at('and is used for the application logic of browser-based'));
    // A line of the left column is followed by the next line of the same column, not its neighbour.
    expect(page).toContain('Dynamic languages such as JavaScript are more difficult to compile than statically typed ones. Since no concrete type information');
  });

  it('reads two columns column by column when a paragraph gap lines up across both above a figure (pdf-bench 01030000000041)', async () => {
    // The left column's paragraph gap and the right column's gap before a quote fall at the same
    // height, and a full-width figure below makes a region three ems apart: only that wide gap
    // parts regions, the aligned paragraph gaps do not cut the columns into rows.
    const page = sectionText(await read('pdf-bench', 'pdfs', '01030000000041.pdf'), 1);
    const at = (s: string) => {
      const i = page.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('content towards religious minorities.')).toBeLessThan(at('When asked about how often social media'));
    expect(at('more frequently than men (90%)')).toBeLessThan(at('respondents had seen this content “very'));
    expect(at('community. For example, one participant')).toBeLessThan(at('There were instances when women'));
    expect(at('of condemning the act')).toBeLessThan(at('Figure 3: Frequency of viewing'));
  });

  it('reads notes set smaller than the text above them after both columns, though they carry most of the page (pdf-bench 01030000000009)', async () => {
    // 11 pt text over 9 pt notes: the notes hold more characters than the text, so the page's
    // body size is the notes'; the running text above each note in its column tells them apart.
    const page = sectionText(await read('pdf-bench', 'pdfs', '01030000000009.pdf'), 1);
    const at = (s: string) => {
      const i = page.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('of medicinal plants from or through the Arabian')).toBeLessThan(at('Peninsula to Europe'));
    expect(at('tending an altar of Love')).toBeLessThan(at('Book. Interspersed with Some Occasional Observations'));
    expect(at('Book. Interspersed with Some Occasional Observations')).toBeLessThan(at('34 Richard Walker, Memoirs of Medicine'));
    expect(at('34 Richard Walker, Memoirs of Medicine')).toBeLessThan(at('35 For the influence of the Arabian medicine'));
  });

  it('places a table found on the page in reading order, its words out of the running text (PDFUA invoice)', async () => {
    const result = await read('pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf');
    const page = result.document.querySelector('section[data-page="1"]');
    const rows = [...(page?.querySelectorAll('table tr') ?? [])].map((tr) => [...tr.children].map((c) => c.textContent ?? ''));
    expect(rows[0]).toEqual(['ITEM', 'DESCRIPTION', 'QUANTITY', 'PRICE (€)', 'AMOUNT (€)']);
    expect(rows).toContainEqual(['3', 'Giga Trash', '1', '180.00', '180.00']);
    const paragraphs = texts(result, 'section[data-page="1"] > p');
    expect(paragraphs.some((p) => p.includes('Giga Trash'))).toBe(false);
    // The table sits between the invoice heading and the terms below it.
    const text = page?.textContent ?? '';
    expect(text.indexOf('January 8, 2020')).toBeLessThan(text.indexOf('Giga Trash'));
    expect(text.indexOf('Giga Trash')).toBeLessThan(text.indexOf('Terms of payment'));
  });
});

describe('pdf layout: headings', () => {
  it('gives the title h1 and every numbered section the same level on every page (tracemonkey.pdf)', async () => {
    const result = await read('pdf', 'pdfjs', 'tracemonkey.pdf');
    expect(texts(result, 'h1')).toEqual(['Trace-based Just-in-Time Type Specialization for Dynamic Languages']);
    const h2 = texts(result, 'h2');
    expect(h2).toEqual(expect.arrayContaining(['Abstract', '1. Introduction', '3. Trace Trees', '7. Evaluation', '10. Future Work', 'References']));
    // Sections sit on pages 1 to 14: one level throughout.
    expect(texts(result, 'section[data-page="12"] h2, section[data-page="13"] h2, section[data-page="14"] h2').length).toBeGreaterThan(0);
    // A bold run-in label is not a heading.
    expect(texts(result, 'h1, h2, h3, h4, h5, h6').some((h) => h.startsWith('General Terms'))).toBe(false);
  });

  it('makes a chapter label alone on its line a heading, though set in the body face (pdf-bench 01030000000153)', async () => {
    const result = await read('pdf-bench', 'pdfs', '01030000000153.pdf');
    const headings = texts(result, 'h1, h2, h3, h4, h5, h6');
    expect(headings).toEqual(expect.arrayContaining(['CHAPTER 7.', 'TEXAS', 'COURSE MARKING DRIVERS']));
    // The author's name under the title stays text.
    expect(headings).not.toContain('MICHELLE REED');
  });

  it('joins a section number set on its own line to the title under it, beside a loosely justified line (pdf-bench 01030000000080)', async () => {
    // "III." (36 pt) over "Regulatory cholesterol" (33 pt); on the number's row, beside the drop
    // cap, "This report defines" is justified with 30 pt word spaces: one line, not three cells.
    const result = await read('pdf-bench', 'pdfs', '01030000000080.pdf');
    const headings = texts(result, 'h1, h2, h3, h4, h5, h6');
    expect(headings).toContain('III. Regulatory cholesterol');
    expect(headings).not.toContain('III.');
    expect(sectionText(result, 1)).toContain('This report defines');
  });

  it('ranks heading styles by size: larger section headings above a smaller bold title (docling multi_page.pdf)', async () => {
    const result = await read('pdf', 'docling', 'multi_page.pdf');
    expect(texts(result, 'h1')).toEqual(expect.arrayContaining(['Pre-Digital Era (19th - Early 20th Century)', 'Specialized Word Processing Tools']));
    expect(texts(result, 'h2')).toEqual(['The Evolution of the Word Processor']);
  });
});

describe('pdf layout: lists', () => {
  it('makes a bulleted list, marker dropped, continuation lines joined (docling multi_page.pdf)', async () => {
    const result = await read('pdf', 'docling', 'multi_page.pdf');
    const items = texts(result, 'section[data-page="1"] ul > li');
    expect(items[0]).toMatch(/^IBM MT\/ST \(Magnetic Tape\/Selectric Typewriter\): Introduced in 1964, this machine combined IBM's Selectric typewriter with magnetic tape storage\./u);
    expect(items.every((i) => !i.startsWith('•'))).toBe(true);
  });

  it('makes a numbered list with the numbers kept as item values (pdf-bench 01030000000094)', async () => {
    const result = await read('pdf-bench', 'pdfs', '01030000000094.pdf');
    const items = [...result.document.querySelectorAll('ol > li')];
    expect(items.map((li) => li.getAttribute('value'))).toEqual(['6', '7', '8', '9', '10', '11', '12']);
    expect(items[1]?.textContent).toMatch(/^Think of a situation in your own life when you framed information \(either wittingly or unwittingly\) in such a way/u);
  });
});

describe('pdf layout: text', () => {
  it('joins words hyphenated at line ends, also when the hyphen is a run of its own (pdf-bench 01030000000001)', async () => {
    const page = sectionText(await read('pdf-bench', 'pdfs', '01030000000001.pdf'), 1);
    expect(page).toContain('a latency-based observer model applied to the');
    expect(page).toContain('will generate an internal response');
  });

  it('puts a drop cap back at the head of the first line beside it (pdf-bench 01030000000080)', async () => {
    // A 77 pt "T" three lines tall, its baseline on the third line beside it.
    const page = sectionText(await read('pdf-bench', 'pdfs', '01030000000080.pdf'), 1);
    expect(page).toContain('This report defines');
    expect(page).not.toContain('T as the policy');
    expect(page).toContain('as the policy actions of the three arms of the State');
  });

  it('keeps raised footnote marks on their line (tracemonkey.pdf authors)', async () => {
    const result = await read('pdf', 'pdfjs', 'tracemonkey.pdf');
    const authors = texts(result, 'section[data-page="1"] > p')[0] ?? '';
    expect(authors.startsWith('Andreas Gal∗+, Brendan Eich∗, Mike Shaver∗')).toBe(true);
    expect(result.document.querySelector('section[data-page="1"] > p sup')?.textContent).toBe('∗+');
  });

  it('keeps two lines of a small-type block apart when a larger column beside them has a baseline between theirs (tracemonkey.pdf copyright note)', async () => {
    const result = await read('pdf', 'pdfjs', 'tracemonkey.pdf');
    const text = result.document.querySelector('section[data-page="1"]')?.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('distributed for profit or commercial advantage and that copies bear this notice and the full citation on the first page. To copy otherwise, to republish,');
    expect(text).not.toContain('foron');
  });

  it('sets code listings in fixed-pitch type as pre/code with their lines and indentation, not as paragraphs or tables (tracemonkey.pdf figures 1 and 4)', async () => {
    const result = await read('pdf', 'pdfjs', 'tracemonkey.pdf');
    const listings = [...result.document.querySelectorAll('pre > code')].map((c) => c.textContent ?? '');
    expect(listings).toContain(
      ['1 for (var i = 2; i < 100; ++i) {', '2   if (!primes[i])', '3     continue;', '4   for (var k = i + i; i < 100; k += i)', '5     primes[k] = false;', '6 }'].join('\n'),
    );
    const x86 = listings.find((l) => l.startsWith('mov edx, ebx(748)')) ?? '';
    expect(x86.split('\n').at(-1)).toMatch(/^jmp epilog +\/\/ jump to ret statement$/);
    expect(x86.split('\n')).toContain('side_exit_1:');
    // No table was made of the listing's aligned comments.
    expect([...result.document.querySelectorAll('td, th')].some((c) => /restore ecx/.test(c.textContent ?? ''))).toBe(false);
  });

  it('turns words under a link annotation into one link (basicapi.pdf page 3, pdf-bench 01030000000094)', async () => {
    const result = await read('pdf', 'pdfjs', 'basicapi.pdf');
    const links = [...result.document.querySelectorAll('section[data-page="3"] a')];
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['Powered by TCPDF (www.tcpdf.org)', 'http://www.tcpdf.org/']]);
    const questions = await read('pdf-bench', 'pdfs', '01030000000094.pdf');
    expect(texts(questions, 'a[href^="https://www.youtube.com/"]')).toEqual(['this', 'this']);
  });
});

describe('pdf layout: page furniture', () => {
  it('marks a running header repeated across pages, and page numbers, as furniture', async () => {
    const agreement = await read('pdf', 'docling', 'bookmark_sample.pdf');
    const headers = texts(agreement, 'section > header[data-furniture="header"]');
    expect(headers.length).toBeGreaterThanOrEqual(3);
    expect(headers).toContain('Sample Agreement — page 2');
    const basic = await read('pdf', 'pdfjs', 'basicapi.pdf');
    // Page 3's foot also holds TCPDF's 1 pt producer line at the page's edge, under the number.
    expect(texts(basic, 'section > footer[data-furniture="footer"]:last-child')).toEqual(['page 1 / 3', 'page 2 / 3', 'page 3 / 3Powered by TCPDF (www.tcpdf.org)']);
    // A lone page number in the bottom band of a single page counts too, read last.
    const single = await read('pdf-bench', 'pdfs', '01030000000028.pdf');
    expect(texts(single, 'section > footer[data-furniture="footer"]:last-child')).toEqual(['312']);
  });
});
