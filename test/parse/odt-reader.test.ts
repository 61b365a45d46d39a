/**
 * The .odt reader on real corpus documents, asserted on the intermediate DOM: headings,
 * formatting, lists, tables with spans and header rows, links, notes, pictures, page furniture,
 * metadata, and the refusals (encrypted, not a zip).
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import type { ParseOptionsInput } from '../../src/parse/options.ts';
import { DOMParser } from 'linkedom';
import { readOdt } from '../../src/parse/readers/odt/index.ts';
import { mathmlToTex } from '../../src/parse/readers/odt/mathml.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';

function read(file: string, options: ParseOptionsInput = {}): Promise<ReadResult> {
  return readOdt(readInput('odt', readCorpus('office', 'odt', file), { filename: file, options }));
}

function texts(root: Element, selector: string): string[] {
  return Array.from(root.querySelectorAll(selector)).map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());
}

/** Rows of a table as cell texts with their spans (direct rows only, not those of nested tables). */
function grid(table: Element): string[][] {
  return Array.from(table.querySelectorAll(':scope > thead > tr, :scope > tbody > tr')).map((tr) =>
    Array.from(tr.children).map((cell) => {
      const spans = ['colspan', 'rowspan']
        .filter((a) => cell.hasAttribute(a))
        .map((a) => ` ${a}=${cell.getAttribute(a)}`)
        .join('');
      return `${cell.tagName.toLowerCase()}:${(cell.textContent ?? '').trim()}${spans}`;
    }),
  );
}

describe('odt reader: headings and text', () => {
  it('maps text:h outline levels to h1–h3 in order', async () => {
    const { document } = await read('kreuzberg-extraction_test.odt');
    const headings = Array.from(document.body.querySelectorAll('h1, h2, h3')).map((h) => `${h.tagName} ${h.textContent?.trim()}`);
    expect(headings.slice(0, 5)).toEqual([
      'H1 Comprehensive Extraction Test Document',
      'H2 First Section',
      'H3 Subsection 1.1',
      'H2 Second Section',
      'H3 Table Section',
    ]);
  });

  it('makes a paragraph whose style descends from Title a heading, and resolves bold, italic, strike and super/subscript', async () => {
    const { document } = await read('docling-text_document_01.odt');
    const body = document.body;
    expect(texts(body, 'h1')).toEqual(['Title', 'heading level 1.0']);
    expect(texts(body, 'h2')).toEqual(['Heading level 2: A', 'Heading level 2: B']);
    expect(texts(body, 'strong')).toContain('Lorem Ipsum is not simply random text');
    expect(texts(body, 'em')).toContain('a Latin professor at Hampden-Sydney College in Virginia');
    expect(texts(body, 's')).toEqual(['The Extremes of Good and Evil']);
    const formula = Array.from(body.querySelectorAll('p')).find((p) => p.textContent?.startsWith('X'));
    expect(formula?.innerHTML).toBe('X<sup>2</sup> + Y<sub>2</sub> = Z');
  });
});

describe('odt reader: lists', () => {
  it('numbers a list whose style is text:list-level-style-number and nests bullet lists', async () => {
    const { document } = await read('docling-text_document_01.odt');
    const body = document.body;
    expect(texts(body, 'ol > li')).toEqual(['numbered list 1', 'numbered list 2']);
    const parent = Array.from(body.querySelectorAll('li')).find((li) => li.firstChild?.textContent === 'bullet list 2.2');
    expect(parent && texts(parent, ':scope > ul > li')).toEqual(['bullet list 2.2.1']);
    expect(body.querySelector('ol ul, ul ul')).not.toBeNull();
  });

  it('lets the items of a list whose first item only wraps a nested list join that list, and a later wrapper continue its previous item', async () => {
    const { document } = await read('docling-text_document_01.odt');
    const bullets = document.body.querySelector('ol + ul') as Element;
    const direct = Array.from(bullets.children).map((li) => li.firstChild?.textContent);
    expect(direct).toEqual(['bullet list 2.1', 'bullet list 2.2', 'bullet list 2.3', 'numbered list 3']);
    const last = bullets.lastElementChild as Element;
    expect(texts(last, ':scope > ul > li')).toEqual(['bullet list 3.0.1']);
  });

  it('reads a numbered list of phone numbers with their spaces', async () => {
    const { document } = await read('tika-testPhoneNumberExtractor.odt');
    const items = texts(document.body, 'ol > li');
    expect(items).toHaveLength(7);
    expect(items[2]).toBe('(949) 666 - 6666');
    expect(items[6]).toBe('TwO/6/zERo-FouR/0/NiNe-4/eIgHt/1/One');
  });
});

describe('odt reader: tables', () => {
  it('gives a table with table:table-header-rows a thead of th cells', async () => {
    const { document } = await read('kreuzberg-extraction_test.odt');
    const tables = Array.from(document.body.querySelectorAll('table'));
    expect(tables).toHaveLength(2);
    expect(grid(tables[0] as Element)).toEqual([
      ['th:Header 1', 'th:Header 2', 'th:Header 3'],
      ['td:Cell 1A', 'td:Cell 1B', 'td:Cell 1C'],
      ['td:Cell 2A', 'td:Cell 2B', 'td:Cell 2C'],
      ['td:Cell 3A', 'td:Cell 3B', 'td:Cell 3C'],
    ]);
    expect(grid(tables[1] as Element)[2]).toEqual(['td:Banana', 'td:$0.50', 'td:20']);
  });

  it('keeps column and row spans and leaves covered cells out', async () => {
    const { document } = await read('docling-text_document_02.odt');
    const rows = grid(document.body.querySelector('table') as Element);
    expect(rows[0]).toEqual(['td:Merged row colspan=2', 'td:Cell 1.3', 'td:Cell 1.4', 'td:Cell 1.5', 'td:Cell 1.6', 'td:Cell 1.7']);
    expect(rows[1]).toEqual(['td:', 'td:', 'td:Merged cell 2x2 colspan=2 rowspan=2', 'td:', 'td:Merged column rowspan=4', 'td:']);
    // Row 3 loses the two cells under the 2x2 merge and the one under the merged column.
    expect(rows[2]).toHaveLength(4);
  });

  it('keeps a nested table and lists inside cells', async () => {
    const { document } = await read('docling-text_document_03.odt');
    const nested = document.body.querySelector('td > table');
    expect(nested && grid(nested)).toEqual([
      ['td:A', 'td:B', 'td:C'],
      ['td:Cell 1', 'td:Cell 2', 'td:Cell 3'],
    ]);
    expect(texts(document.body, 'td > ol > li')).toEqual(['Number one', 'Number two', 'Number three']);
  });
});

describe('odt reader: embedded objects', () => {
  it("writes an embedded chart's data table after the paragraph holding the chart", async () => {
    const { document } = await read('docling-text_document_02.odt');
    const tables = Array.from(document.body.querySelectorAll('table'));
    expect(tables).toHaveLength(2);
    const rows = grid(tables[1] as Element);
    expect(rows[0]).toEqual(['th:', 'th:Column 1', 'th:Column 2', 'th:Column 3']);
    expect(rows[3]).toEqual(['td:Row 3', 'td:3.1', 'td:1.5', 'td:3.7']);
  });

  it("writes an embedded spreadsheet's table and a formula as TeX from its MathML", async () => {
    const { document, warnings } = await read('tika-testODFwithOOo3.odt');
    expect(grid(document.body.querySelector('table') as Element)[2]).toEqual(['td:2', 'td:two embedded']);
    // Object 2/content.xml: <mi>A</mi><mi>classic</mi>… <msup><mi>b</mi><mn>2</mn></msup> (StarMath "A classic example: a² + b^2 = c^2").
    const math = document.body.querySelector('math');
    expect(math?.getAttribute('display')).toBe('inline');
    expect(math?.getAttribute('alttext')).toBe('A \\mathit{classic} \\mathit{example} : \\mathit{a²} + b^{2} = c^{2}');
    expect(warnings).toEqual([]);
  });

  it('converts MathML scripts, fractions, roots, fences, large operators and tables to TeX', () => {
    const m = (xml: string): string =>
      mathmlToTex(new DOMParser().parseFromString(`<math:math xmlns:math="http://www.w3.org/1998/Math/MathML">${xml}</math:math>`, 'text/xml').documentElement as unknown as Element);
    expect(m('<math:semantics><math:mrow><math:mi>x</math:mi><math:mo>=</math:mo><math:mfrac><math:mrow><math:mo>−</math:mo><math:mi>b</math:mi><math:mo>±</math:mo><math:msqrt><math:msup><math:mi>b</math:mi><math:mn>2</math:mn></math:msup><math:mo>−</math:mo><math:mn>4</math:mn><math:mi>ac</math:mi></math:msqrt></math:mrow><math:mrow><math:mn>2</math:mn><math:mi>a</math:mi></math:mrow></math:mfrac></math:mrow><math:annotation>x = {-b +- sqrt{b^2-4ac}} over {2a}</math:annotation></math:semantics>')).toBe(
      'x = \\frac{- b \\pm \\sqrt{b^{2} - 4 \\mathit{ac}}}{2 a}',
    );
    expect(m('<math:munderover><math:mo>∑</math:mo><math:mrow><math:mi>i</math:mi><math:mo>=</math:mo><math:mn>1</math:mn></math:mrow><math:mi>n</math:mi></math:munderover><math:msub><math:mi>x</math:mi><math:mi>i</math:mi></math:msub>')).toBe('\\sum_{i = 1}^{n} x_{i}');
    expect(m('<math:mi>sin</math:mi><math:mfenced><math:mi>θ</math:mi></math:mfenced><math:mroot><math:mi>y</math:mi><math:mn>3</math:mn></math:mroot>')).toBe('\\sin \\left( \\theta \\right) \\sqrt[3]{y}');
    expect(m('<math:mtable><math:mtr><math:mtd><math:mn>1</math:mn></math:mtd><math:mtd><math:mn>0</math:mn></math:mtd></math:mtr><math:mtr><math:mtd><math:mn>0</math:mn></math:mtd><math:mtd><math:mn>1</math:mn></math:mtd></math:mtr></math:mtable>')).toBe('\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}');
    expect(m('<math:mn>5</math:mn><math:mi math:fontstyle="normal">mm</math:mi><math:mo>+</math:mo><math:mi>ab</math:mi>')).toBe('5 \\mathrm{mm} + \\mathit{ab}');
    expect(m('<math:annotation>only StarMath</math:annotation>')).toBe('');
  });
});

describe('odt reader: links, notes, pictures', () => {
  it('reads text:a links and puts footnotes after an hr with a [n] marker in the text', async () => {
    const { document } = await read('tika-testODFwithOOo3.odt');
    const body = document.body;
    const link = body.querySelector('a[href="http://lucene.apache.org/"]');
    expect(link?.textContent).toBe('Lucene website');
    const marked = Array.from(body.querySelectorAll('p')).find((p) => p.textContent?.startsWith('This is a rather'));
    expect(marked?.textContent).toBe('This is a rather[1] difficult test document, with interesting features.');
    const hr = body.querySelector('hr');
    expect(hr?.nextElementSibling?.tagName).toBe('OL');
    expect(texts(hr?.nextElementSibling as Element, 'li')).toEqual(['This is of course a simple footnote']);
  });

  it('gives pictures their frame name as alt, with a data: URI only when removeBase64Images is false', async () => {
    const placeholder = await read('tika-testODTEmbedded.odt');
    const img = placeholder.document.body.querySelector('img');
    expect(img?.getAttribute('alt')).toBe('Image1');
    expect(img?.hasAttribute('src')).toBe(false);

    const embedded = await read('tika-testODTEmbedded.odt', { removeBase64Images: false });
    expect(embedded.document.body.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  it('uses svg:title as alt text', async () => {
    const { document } = await read('docling-text_document_03.odt');
    expect(document.body.querySelectorAll('img[alt="Owner avatar"]')).toHaveLength(2);
  });
});

describe('odt reader: furniture and metadata', () => {
  it('puts the master page footer in a furniture footer', async () => {
    const { document } = await read('tika-testFooter.odt');
    const footer = document.body.querySelector('footer[data-furniture="footer"]');
    expect(footer?.textContent?.trim()).toBe('Here is footer text');
    expect(document.body.lastElementChild).toBe(footer);
    expect(texts(document.body, ':scope > p')).toEqual(['Here is some text...', 'Here is some text on page 2']);
  });

  it('reads meta.xml: title, description, several keywords, language, author, dates', async () => {
    const { metadata } = await read('tika-testODFwithOOo3.odt');
    expect(metadata.title).toBe('Apache Tika');
    expect(metadata.description).toBe('A rather complex document');
    expect(metadata.keywords).toBe('Apache, Lucene, Tika');
    expect(metadata.language).toBe('en-US');
    expect(metadata.extra.author).toBe('Bart Hanssens');
    expect(metadata.extra.subject).toBe('Test document');
    expect(metadata.extra.created).toBe('2009-10-05T19:04:01.000Z');
    expect(metadata.extra.modified).toBe('2009-10-05T21:22:38.000Z');
  });

  it('reads the metadata of a pandoc-written file, and none from a file without meta.xml', async () => {
    const pandoc = await read('kreuzberg-metadata_test.odt');
    expect(pandoc.metadata.title).toBe('Test Metadata Document');
    expect(pandoc.metadata.description).toBe('Testing ODT Metadata Extraction');
    expect(pandoc.metadata.extra.author).toBe('John Doe');
    const bare = await read('tika-testODTNoMeta.odt');
    expect(bare.metadata.title).toBeUndefined();
    expect(texts(bare.document.body, 'p')).toEqual(['Test text']);
  });
});

describe('odt reader: refusals', () => {
  it('refuses a password-protected package as ENCRYPTED_FILE and a non-zip as CORRUPT_FILE', async () => {
    expect((await serviceFailure(read('tika-testODTEncrypted.odt'))).code).toBe('ENCRYPTED_FILE');
    const notZip = await serviceFailure(read('tika-testODTnotaZipFile.odt'));
    expect(notZip.code).toBe('CORRUPT_FILE');
    expect(notZip.message).toMatch(/OpenDocument/);
  });
});
