/**
 * The .docx reader on real corpus documents, asserted on the intermediate DOM
 * (`read.document.body`): structure, notes, page furniture, links, pictures, equations,
 * properties.
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import type { ParseOptionsInput } from '../../src/parse/options.ts';
import { readDocx } from '../../src/parse/readers/docx/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

function read(file: string, options: ParseOptionsInput = {}): Promise<ReadResult> {
  return readDocx(readInput('docx', readCorpus('office', 'docx', file), { filename: file, options }));
}

function texts(root: Element, selector: string): string[] {
  return Array.from(root.querySelectorAll(selector)).map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());
}

/** The rows of a table as cell texts, with their colspan/rowspan when not 1. */
function grid(table: Element): string[][] {
  return Array.from(table.querySelectorAll(':scope > tr, :scope > thead > tr, :scope > tbody > tr')).map((tr) =>
    Array.from(tr.children).map((cell) => {
      const spans = ['colspan', 'rowspan']
        .filter((a) => cell.hasAttribute(a))
        .map((a) => ` ${a}=${cell.getAttribute(a)}`)
        .join('');
      return `${(cell.textContent ?? '').trim()}${spans}`;
    }),
  );
}

function tableAfter(body: Element, paragraphText: string): Element {
  const p = Array.from(body.querySelectorAll('p')).find((el) => el.textContent?.trim() === paragraphText);
  const next = p?.nextElementSibling;
  if (!next || next.tagName !== 'TABLE') throw new Error(`no table after "${paragraphText}"`);
  return next;
}

describe('docx reader: headings', () => {
  it('maps Title and Heading 1–3 styles to h1–h3, in order', async () => {
    const { document } = await read('docling-unit_test_headers.docx');
    const headings = Array.from(document.body.querySelectorAll('h1, h2, h3')).map((h) => `${h.tagName} ${h.textContent?.trim()}`);
    expect(headings.slice(0, 6)).toEqual(['H1 Test Document', 'H1 Section 1', 'H2 Section 1.1', 'H2 Section 1.2', 'H3 Section 1.2.3', 'H1 Section 2']);
  });

  it('finds headings by outline level and localized names (Chinese IDs "1"/"2", Slovak "Nadpis", a custom style)', async () => {
    const markitdown = await read('markitdown-test.docx');
    expect(texts(markitdown.document.body, 'h1')).toEqual(expect.arrayContaining(['Abstract', 'Introduction']));
    expect(texts(markitdown.document.body, 'h2')).toContain('d666f1f7-46cb-42bd-9a39-9a39cf2a509f');

    const slovak = await read('tika-testWORD_emptyParaInTextbox.docx');
    expect(texts(slovak.document.body, 'h1')).toContain('Komisia SAV pre posudzovanie vedeckej kvalifikácie zamestnancov');

    const resume = await read('tika-testWORD_template.docx');
    expect(texts(resume.document.body, 'h1')).toEqual(['Objective', 'Experience', 'Education', 'References']);
  });

  it('gives an undefined Turkish title style (KonuBal) and a custom outline-level style their heading levels', async () => {
    const { document } = await read('docling-unit_test_headers_numbered.docx');
    expect(document.body.querySelector('h1')?.textContent).toBe('Test Document');
    expect(texts(document.body, 'h2')).toContain('REFERENCES');
  });

  it('writes the numbers Word draws before numbered headings, counting a skipped level as its start', async () => {
    const { document } = await read('docling-unit_test_headers_numbered.docx');
    const headings = Array.from(document.body.querySelectorAll('h1, h2, h3')).map((h) => h.textContent?.trim());
    expect(headings).toEqual([
      'Test Document',
      '1. Section 1',
      '1.1. Section 1.1',
      '1.2. Section 1.2',
      '1.2.1. Section 1.2.3',
      '2. Section 2',
      '2.1.1. Section 2.1.1',
      '2.2. Section 2.1',
      'REFERENCES',
    ]);
    const vietnamese = await read('docling-list_after_num_headers.docx');
    expect(texts(vietnamese.document.body, 'h3')).toContain('1. ĐỐI TƯỢNG ÁP DỤNG');
  });

  it('turns the Quote style into a blockquote and Source Code into pre', async () => {
    const sample = await read('docling-word_sample.docx');
    expect(texts(sample.document.body, 'blockquote')).toEqual(['I like to eat leaves']);
    const code = await read('docling-docx_code_blocks.docx');
    expect(code.document.body.querySelector('pre')?.textContent).toBe('import sys\nprint(sys.argv)');
  });
});

describe('docx reader: lists', () => {
  it('keeps numbered and bulleted lists with their nesting', async () => {
    const { document } = await read('kreuzberg-unit_test_lists.docx');
    const body = document.body;
    const ol = Array.from(body.querySelectorAll('ol')).find((el) => el.textContent?.includes('List item a'));
    expect(ol && texts(ol, ':scope > li')).toEqual(['List item a', 'List item b', 'List item c']);
    const nested = Array.from(body.querySelectorAll('ul > li > ul')).find((el) => el.textContent?.includes('List item 1.1.1'));
    expect(nested?.parentElement?.firstChild?.textContent).toBe('List item 1');
    expect(nested && texts(nested, ':scope > li > ul > li')).toEqual(['List item 1.1.1']);
  });
});

describe('docx reader: tables', () => {
  it('keeps horizontal and vertical merges as colspan/rowspan', async () => {
    const { document } = await read('docling-word_tables.docx');
    const body = document.body;
    expect(grid(tableAfter(body, 'A non-uniform table with horizontal spans'))[1]).toEqual(['Cell 1.0', 'Merged Cell 1.1 1.2 colspan=2']);
    expect(grid(tableAfter(body, 'A non-uniform table with vertical spans')).slice(1, 3)).toEqual([
      ['Cell 1.0', 'Merged Cell 1.1 2.1 rowspan=2', 'Cell 1.2'],
      ['Cell 2.0', 'Cell 2.2'],
    ]);
  });

  it('puts the cells of a row that starts late (w:gridBefore) under the right columns', async () => {
    const { document } = await read('docling-word_tables.docx');
    const body = document.body;
    expect(grid(tableAfter(body, 'A non-uniform table with a row starting late'))).toEqual([
      ['Header 0.0', 'Header 0.1'],
      ['', 'Cell 1.1'],
    ]);
    expect(grid(tableAfter(body, 'A non-uniform table with a vertical span over a row starting late'))).toEqual([
      ['Header 0.0', 'Header 0.1', 'Merged Cell 0.2 1.2 rowspan=2'],
      [' colspan=2'],
    ]);
  });

  it('makes repeated header rows (w:tblHeader) a thead of th cells', async () => {
    const { document } = await read('kreuzberg-extraction_test.docx');
    const table = document.body.querySelector('table');
    expect(texts(table as Element, 'thead th')).toEqual(['Header 1', 'Header 2', 'Header 3']);
    expect(texts(table as Element, 'tbody tr:first-child td')).toEqual(['Cell 1A', 'Cell 1B', 'Cell 1C']);
  });

  it('keeps nested tables and merged cells of another generator', async () => {
    const { document } = await read('kreuzberg-docx_tables.docx');
    const merged = tableAfter(document.body, 'Table with merged cells');
    expect(grid(merged)).toEqual([['a rowspan=2', 'b colspan=2'], ['c', 'd rowspan=2'], ['e colspan=2']]);
    const nested = tableAfter(document.body, 'Nested Table');
    expect(texts(nested, 'table table td')).toEqual(['e', 'f', 'g&t', 'h']);
  });
});

describe('docx reader: notes', () => {
  it('keeps footnote references as [n] and lists the notes at the end without back-links', async () => {
    const { document } = await read('mammoth-footnotes.docx');
    const body = document.body;
    expect(body.querySelector('p')?.textContent).toBe('Ouch[1].[2]');
    expect(body.querySelector('a')).toBeNull();
    const notes = body.querySelector('hr + ol');
    expect(notes && texts(notes, 'li')).toEqual(['A tachyon walks into a bar.', 'Fin.']);
    expect(body.textContent).not.toContain('↑');
  });

  it('does the same for endnotes and for a note holding a hyperlink', async () => {
    const endnotes = await read('mammoth-endnotes.docx');
    expect(texts(endnotes.document.body, 'hr + ol li')).toEqual(['A tachyon walks into a bar.', 'Fin.']);
    const linked = await read('mammoth-footnote-hyperlink.docx');
    const link = linked.document.body.querySelector('hr + ol li a');
    expect(link?.getAttribute('href')).toBe('http://www.example.com');
    expect(link?.textContent).toBe('Example');
  });

  it('reads the footnote of a real-world document (word-extractor test07; the .docx has an en dash where the .doc snapshot has a hyphen)', async () => {
    const { document } = await read('word-extractor-test07.docx');
    expect(texts(document.body, 'hr + ol li')).toEqual(['EOI – Refers to Expression of Interest or Stage 1 applications (FP6) without financial commitment']);
  });
});

describe('docx reader: headers and footers', () => {
  it('puts running headers first and footers last as page furniture, the first-page ones included when shown', async () => {
    const { document } = await read('docling-docx_page_header_footer_first_page.docx');
    const body = document.body;
    expect(texts(body, 'header[data-furniture="header"]')).toEqual(['FIRST PAGE HEADER (page 1 only)', 'REGULAR HEADER (page 2 onward)']);
    expect(texts(body, 'footer[data-furniture="footer"]')).toEqual(['FIRST PAGE FOOTER (page 1 only)', 'REGULAR FOOTER (page 2 onward)']);
    expect(body.firstElementChild?.tagName).toBe('HEADER');
    expect(body.lastElementChild?.tagName).toBe('FOOTER');
  });

  it('follows sections: even-page parts when enabled, first-page parts only where w:titlePg is set (word-extractor test15)', async () => {
    const { document } = await read('word-extractor-test15.docx');
    const headers = texts(document.body, 'header');
    const footers = texts(document.body, 'footer');
    expect(headers).toEqual([
      'Section 1 – odd page header',
      'Section 1 – even page header',
      'Section 2 – first page header',
      'Section 2 – odd page header',
      'Section 2 – even page header',
      'Section 3 – odd page header',
      'Section 3 – even page header',
    ]);
    expect(footers.every((f) => /footer$/.test(f))).toBe(true);
    expect(footers).toContain('Section 2 – first page footer');
    // Sections 1 and 3 have no w:titlePg: their first-page parts never show.
    expect([...headers, ...footers].join(' ')).not.toMatch(/Section [13] – first page/);
  });

  it('inherits header references from the previous section and keeps paragraphs and pictures', async () => {
    const { document } = await read('docling-unit_test_formatting.docx');
    const headers = Array.from(document.body.querySelectorAll('header'));
    expect(headers.map((h) => texts(h, 'p'))).toEqual([['This is a header'], ['Another header in bold', 'With 2 paragraphs']]);
    const lastFooter = document.body.lastElementChild as Element;
    expect(texts(lastFooter, 'p')).toEqual(['Another footer', 'With', '3 paragraphs and a picture']);
    expect(lastFooter.querySelector('img')?.getAttribute('alt')).toBe('Owner avatar');
  });
});

describe('docx reader: links, pictures, checkboxes', () => {
  it('keeps hyperlinks, drops bookmark anchors', async () => {
    const { document } = await read('tika-testWORD_various.docx');
    const link = document.body.querySelector('a');
    expect(link?.getAttribute('href')).toBe('http://tika.apache.org/');
    expect(link?.textContent).toBe('This is a hyperlink');
    expect(document.body.querySelector('a[id], a:not([href])')).toBeNull();
  });

  it('gives pictures an alt-text placeholder by default and a data: URI when removeBase64Images is false', async () => {
    const placeholder = await read('docling-word_sample.docx');
    const img = placeholder.document.body.querySelector('img');
    expect(img?.hasAttribute('src')).toBe(false);
    expect(img?.getAttribute('alt')).toMatch(/^A cartoon duck holding a paper/);

    const tiny = await read('mammoth-tiny-picture.docx', { removeBase64Images: false });
    expect(tiny.document.body.querySelector('img')?.getAttribute('src')).toBe(
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAoAAAAKCAIAAAACUFjqAAAAAXNSR0IArs4c6QAAAAlwSFlzAAAOvgAADr4B6kKxwAAAABNJREFUKFNj/M+ADzDhlWUYqdIAQSwBE8U+X40AAAAASUVORK5CYII=',
    );
    const noAlt = await read('mammoth-tiny-picture.docx');
    expect(noAlt.document.body.querySelector('img')?.outerHTML).toBe('<img alt="Image">');
  });

  it('keeps only the file name of a description that is the source path older Word versions stored', async () => {
    const { document } = await read('tika-testWORD_embedded_pics.docx', { onlyMainContent: false });
    const alts = Array.from(document.body.querySelectorAll('img')).map((img) => img.getAttribute('alt'));
    expect(alts).toContain('body_pic.jpg');
    expect(alts).toContain('sdt_pic.jpg');
    expect(alts.slice(0, 3)).toEqual(['header1_pic', 'header3_pic', 'header2_pic']);
    expect(alts.join(' ')).not.toMatch(/Users|INetCache/);
  });

  it('never reads a picture linked from outside the document (markitdown rlink, CVE-2025-11849)', async () => {
    const result = await read('markitdown-rlink.docx', { removeBase64Images: false });
    expect(result.rawHtml).not.toContain('ZGU2NTgyMjUtNTY5ZS00ZTNkLTllZDItY2ZiNmFiZjk');
    expect(result.document.body.querySelector('img[src]')).toBeNull();
    expect(result.warnings.join(' ')).toMatch(/1 picture is linked from outside the document and was not fetched/);
  });

  it('writes form checkboxes as ☒ / ☐', async () => {
    const { document } = await read('docling-docx_checkboxes.docx');
    const items = texts(document.body, 'td p').filter((t) => /^[☒☐]/.test(t));
    expect(items.slice(0, 3)).toEqual(['☒ Orange juice', '☐ Tea', '☒ Coffee']);
    expect(document.body.querySelector('input')).toBeNull();
  });
});

describe('docx reader: imported content (altChunk)', () => {
  it('reads the HTML of an MHTML altChunk in place of the chunk, rebuilt in the vocabulary', async () => {
    const { document, warnings } = await read('tika-testAltChunkMHT.docx');
    const body = document.body;
    // Quoted-printable soft line breaks and =20 are decoded.
    expect(body.querySelector('p')?.textContent?.replace(/\s+/g, ' ')).toBe('Simple paragraph with a emphasized word.');
    expect(body.querySelector('p strong')?.textContent).toBe('emphasized');
    expect(texts(body, 'table th')).toEqual(['Col 1', 'Col 2']);
    expect(texts(body, 'table td')).toEqual(['Red PNG dot; ROW 1', '', 'Red PNG dot; ROW 2', '']);
    // The pictures point at file:///dot.png on the author's disk: alt text only, never a file: URL.
    expect(Array.from(body.querySelectorAll('img')).map((img) => img.outerHTML)).toEqual(['<img alt="Red dot">', '<img alt="Red dot">']);
    expect(body.querySelector('style, [style]')).toBeNull();
    expect(warnings).toEqual([]);
  });
});

describe('docx reader: equations', () => {
  it('turns OMML into TeX in <math alttext>, inline in text and display on its own', async () => {
    const { document, warnings } = await read('markitdown-equations.docx');
    const maths = Array.from(document.body.querySelectorAll('math'));
    expect(maths[0]?.getAttribute('alttext')).toBe('m=1');
    expect(maths[0]?.getAttribute('display')).toBe('inline');
    expect(maths[1]?.getAttribute('display')).toBe('block');
    expect(maths[1]?.getAttribute('alttext')).toMatch(/^\\sin\\theta=\\frac\{m\\lambda\}\{a\}=/);
    expect(warnings).toEqual([]);
  });

  it('groups a fraction used as a base, knows function names, and keeps three sibling equations apart', async () => {
    const frac = await read('docling-omml_frac_superscript.docx');
    expect(frac.document.body.querySelector('math')?.getAttribute('alttext')).toBe('{\\frac{(x-c)}{v}}^{2}');
    const log = await read('docling-omml_func_log.docx');
    expect(log.document.body.querySelector('math')?.getAttribute('alttext')).toBe('y = \\log\\left(x\\right)');
    const multi = await read('docling-omml_multi_equation_paragraph.docx');
    expect(Array.from(multi.document.body.querySelectorAll('math[display="block"]')).map((m) => m.getAttribute('alttext'))).toEqual(['a=b', 'c=d', 'e=f']);
  });

  it('converts the quadratic formula inside a table cell', async () => {
    const { document } = await read('docling-table_with_equations.docx');
    expect(Array.from(document.body.querySelectorAll('td math')).map((m) => m.getAttribute('alttext'))).toEqual([
      'A=\\pi r^{2}',
      'x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}',
    ]);
  });
});

describe('docx reader: metadata and warnings', () => {
  it('reads core properties: title, description (comments, else subject), keywords, author, dates', async () => {
    const { metadata } = await read('tika-testWORD_custom_props.docx');
    expect(metadata.title).toBe('My Title');
    expect(metadata.description).toBe('My Comments');
    expect(metadata.keywords).toBe('My Keyword');
    expect(metadata.extra.subject).toBe('My subject');

    const various = await read('tika-testWORD_various.docx');
    expect(various.metadata).toMatchObject({
      description: 'Subject is here',
      keywords: 'Keyword1 Keyword2',
      language: 'en-GB',
      extra: { author: 'Michael McCandless', created: '2011-09-05T11:00:00.000Z', modified: '2017-11-24T00:00:52.000Z' },
    });
    expect(various.document.documentElement.getAttribute('lang')).toBe('en-GB');
  });

  it('lists several authors as an array and takes the language from the styles when core.xml has none', async () => {
    const authors = await read('tika-testWORD_multi_authors.docx');
    expect(authors.metadata.extra.author).toEqual(['Allison, Timothy B.', 'author2', 'author3']);
    const formatting = await read('docling-unit_test_formatting.docx');
    expect(formatting.metadata.language).toBe('fr-FR');
  });

  it('warns about content it cannot include, and not about style noise', async () => {
    const sub = await read('tika-testSubdocument.docx');
    expect(sub.warnings).toEqual(['The document is a master document: 1 subdocument is stored in separate files and not included.']);
    expect(texts(sub.document.body, 'p')).toEqual(['Master document with subdocuments']);
    const styled = await read('docling-unit_test_formatting.docx');
    expect(styled.warnings).toEqual([]);
  });

  it('serializes the tree as rawHtml', async () => {
    const result = await read('mammoth-simple-list.docx');
    expect(result.rawHtml).toContain('<ul><li>Apple</li><li>Banana</li></ul>');
    expect(result.rawHtml.startsWith('<!DOCTYPE html>')).toBe(true);
  });
});
