/**
 * The .doc reader on real corpus documents, asserted on the intermediate DOM: tables rebuilt
 * from Word's cell and row marks, headings from styles, links from HYPERLINK fields, notes,
 * page furniture, properties; the Word 2003 XML variant; damaged and encrypted files.
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import type { ParseOptionsInput } from '../../src/parse/options.ts';
import { pieceTableIsSane } from '../../src/parse/readers/doc/container.ts';
import { readDoc } from '../../src/parse/readers/doc/index.ts';
import { hyperlinkTarget } from '../../src/parse/readers/doc/story.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';

function read(file: string, options: ParseOptionsInput = {}, format = 'doc'): Promise<ReadResult> {
  return readDoc(readInput('doc', readCorpus('office', 'doc', file), { filename: file, format, options }));
}

function texts(root: Element, selector: string): string[] {
  return Array.from(root.querySelectorAll(selector)).map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());
}

function grid(table: Element): string[][] {
  return Array.from(table.querySelectorAll('tr')).map((tr) =>
    Array.from(tr.children).map((cell) => {
      const spans = ['colspan', 'rowspan']
        .filter((a) => cell.hasAttribute(a))
        .map((a) => ` ${a}=${cell.getAttribute(a)}`)
        .join('');
      return `${(cell.textContent ?? '').replace(/\s+/g, ' ').trim()}${spans}`;
    }),
  );
}

describe('doc reader: tables from cell and row marks', () => {
  it('rebuilds a simple table with an empty cell, first row as header', async () => {
    const { document } = await read('word-extractor-test12.doc');
    const tables = document.body.querySelectorAll('table');
    expect(tables.length).toBe(1);
    const table = tables[0] as Element;
    expect(texts(table, 'thead th')).toEqual(['Row 1, cell 1', 'Row 1, cell 2', 'Row 1, cell 3']);
    expect(grid(table)).toEqual([
      ['Row 1, cell 1', 'Row 1, cell 2', 'Row 1, cell 3'],
      ['Row 2, cell 1', '', 'Row 2, cell 3'],
    ]);
    expect(table.previousElementSibling?.textContent).toBe('This is a simple paragraph');
    expect(table.nextElementSibling?.textContent).toBe('And a second paragraph');
  });

  it('keeps links inside cells (HYPERLINK fields) and the rows of a six-column table', async () => {
    const { document } = await read('word-extractor-test03.doc');
    const table = document.body.querySelector('table') as Element;
    const rows = grid(table);
    expect(rows[0]).toEqual(['License', 'GPL v3.0', 'LGPL v3.0', 'BSD', 'MIT (X11)', 'Apache v2.0']);
    expect(rows[1]?.slice(0, 3)).toEqual(['Can You Release Commercial Works?', 'Yes, but ALL source code must be distributed under GPL (viral).', 'Yes']);
    expect(rows.every((row) => row.length === 6)).toBe(true);
    const link = Array.from(table.querySelectorAll('th a')).find((a) => a.textContent === 'MIT (X11)');
    expect(link?.getAttribute('href')).toBe('http://www.opensource.org/licenses/mit-license.php');
  });

  it('reads docling’s sample table and leaves text-less layout tables out', async () => {
    const { document } = await read('docling-legacy_sample.doc');
    const tables = Array.from(document.body.querySelectorAll('table'));
    expect(tables.map(grid)).toEqual([
      [
        ['', 'Food', 'Calories per portion'],
        ['Leaves', 'Ash, Elm, Maple', '50'],
        ['Berries', 'Blueberry, Strawberry, Cranberry', '150'],
        ['Grain', 'Corn, Buckwheat, Barley', '200'],
      ],
    ]);
  });

  it('keeps a multi-paragraph cell in one cell', async () => {
    const { document } = await read('word-extractor-test07.doc');
    const table = Array.from(document.body.querySelectorAll('table')).find((t) => t.textContent?.includes('Fit with University Expertise Areas'));
    expect(table).toBeDefined();
    expect(grid(table as Element)[0]?.[0]).toBe('Fit with University Expertise Areas(see 2010 RGU Strategic Vision)');
    expect((table as Element).querySelector('th')?.innerHTML).toContain('<br>');
  });
});

describe('doc reader: headings from styles', () => {
  it('maps built-in heading styles (sti 1–9) to h1–h3', async () => {
    const { document } = await read('word-extractor-test15.doc');
    const headings = Array.from(document.body.querySelectorAll('h1, h2, h3')).map((h) => `${h.tagName} ${h.textContent}`);
    expect(headings).toEqual([
      'H1 Header test file',
      'H2 Section 1 body continued',
      'H2 Still section 1',
      'H1 Second section',
      'H2 Section 2 body continued',
      'H2 Section 2 continued',
      'H3 Section 3 text',
    ]);
  });

  it('finds localized heading styles by their outline level, and the Title style', async () => {
    const { document } = await read('docling-greek_heading_styles.doc');
    expect(texts(document.body, 'h1')).toEqual(['Überschriften in nicht‑englischer Sprache']);
    expect(texts(document.body, 'h2')).toEqual(['Problem mit lokalisierten Dokumenten', 'Vorgeschlagene Änderung', 'Verifizierung']);
    const sample = await read('docling-legacy_sample.doc');
    expect(texts(sample.document.body, 'h1')).toEqual(['Swimming in the lake', 'Let’s swim!']);
    expect(texts(sample.document.body, 'h2')).toEqual(['Let’s eat']);
  });
});

describe('doc reader: lists from list formatting (LFO → LST levels)', () => {
  it('builds bullet and numbered lists, nested by level', async () => {
    const { document } = await read('kreuzberg-unit_test_lists.doc');
    const lists = Array.from(document.body.querySelectorAll(':scope > ul, :scope > ol'));
    expect(lists.map((l) => l.tagName).slice(0, 3)).toEqual(['UL', 'OL', 'UL']);
    expect(texts(lists[1] as Element, ':scope > li')).toEqual(['List item a', 'List item b', 'List item c']);
    const nested = lists[2] as Element;
    expect(texts(nested, ':scope > li > ul > li')).toEqual(['List item 1.1', 'List item 1.2', 'List item 1.3']);
    expect(Array.from(nested.querySelectorAll(':scope > li')).map((li) => li.firstChild?.textContent)).toEqual(['List item 1', 'List item 2', 'List item 3']);
  });

  it('takes a list from the paragraph style (List Bullet / List Number) and its LFO', async () => {
    const { document } = await read('docling-legacy_sample.doc');
    expect(texts(document.body, 'ul > li')).toEqual(['You can relax and look around', 'Paddle about', 'Enjoy summer warmth']);
    expect(texts(document.body, 'ol > li').slice(0, 3)).toEqual(['Wear sunglasses', 'Don’t forget to drink water', 'Use sun cream']);
  });
});

describe('doc reader: links, notes, furniture, text boxes', () => {
  it('turns HYPERLINK fields into links around their displayed text', async () => {
    const { document } = await read('tika-testWORD_italicsSurroundingHyperlink.doc');
    const link = document.body.querySelector('a');
    expect(link?.getAttribute('href')).toBe('http://www.google.com');
    expect(link?.textContent).toBe('hyperlink italics');
    expect(document.body.querySelector('p')?.textContent).toBe('Italic Test before link hyperlink italics Italic text after hyperlink');
  });

  it('reads bold and italic from the character properties, nested around links', async () => {
    const runs = await read('tika-testWORD_bold_character_runs2.doc');
    expect(runs.document.body.querySelector('p')?.innerHTML).toBe('F<strong>oob</strong>a<strong>r</strong>');
    const bold = await read('tika-testWORD_boldHyperlink.doc');
    expect(bold.document.body.querySelector('p')?.innerHTML).toBe(
      'This is a bold <a href="http://tika.apache.org/">hyper  <strong>link</strong></a>; bold, I say. <a href="http://tika.apache.org/"><strong>hyper</strong>  link</a>; bold, I say.',
    );
    const italic = await read('tika-testWORD_italicsSurroundingHyperlink.doc');
    expect(texts(italic.document.body, 'p > em')).toEqual(['Italic Test before link', 'Italic text after hyperlink']);
    expect(italic.document.body.querySelector('a > strong > em')?.textContent).toBe('hyperlink italics');
  });

  it('puts footnotes then endnotes after a rule, the body’s references numbered', async () => {
    const { document } = await read('word-extractor-test13.doc');
    expect(texts(document.body, 'p').slice(0, 3)).toEqual(['Endnotes and footnotes test', 'Paragraph 1[1]', 'Paragraph 2[2]']);
    const rule = document.body.querySelector('hr');
    expect(rule?.nextElementSibling?.tagName).toBe('OL');
    expect(texts(rule?.nextElementSibling as Element, 'li')).toEqual(['This is a footnote', 'This is an endnote']);
  });

  it('reads a footnote inside a table cell’s reference', async () => {
    const { document } = await read('word-extractor-test07.doc');
    expect(texts(document.body, 'th sup')).toContain('[1]');
    expect(texts(document.body, 'hr + ol li')[0]).toMatch(/^EOI – Refers to Expression of Interest or Stage 1 applications \(FP6\)/);
  });

  it('puts headers and footers in page furniture, each story once', async () => {
    const { document } = await read('word-extractor-test15.doc');
    const headers = texts(document.body, 'header[data-furniture="header"]');
    const footers = texts(document.body, 'footer[data-furniture="footer"]');
    expect(headers).toHaveLength(9);
    expect(headers).toContain('Section 2 – odd page header');
    expect(footers).toContain('Section 3 – first page footer');
    expect(headers.every((h) => /header/.test(h) && !/footer/.test(h))).toBe(true);
    expect(footers.every((f) => /footer/.test(f) && !/header/.test(f))).toBe(true);
  });

  it('keeps text-box text after the main text', async () => {
    const { document } = await read('word-extractor-test16.doc');
    const all = texts(document.body, 'p, h1, h2');
    expect(all).toContain('First text box, regular');
    expect(all.indexOf('First text box, regular')).toBeGreaterThan(all.indexOf('Paragraph 3'));
  });

  it('marks pictures with an alt-text placeholder and a warning', async () => {
    const { document, warnings } = await read('docling-legacy_sample.doc');
    const img = document.body.querySelector('img');
    expect(img?.getAttribute('alt')).toBe('Image');
    expect(img?.hasAttribute('src')).toBe(false);
    expect(img?.parentElement?.previousElementSibling?.textContent).toBe('Duck');
    expect(warnings).toContain('1 picture in the document is shown as a placeholder: folio does not extract images from .doc files.');
  });

  it('reads document properties from the summary information stream', async () => {
    const { metadata } = await read('tika-testWORD_custom_props.doc');
    expect(metadata.title).toBe('My Title');
    expect(metadata.description).toBe('My Comments');
    expect(metadata.keywords).toBe('My Keyword');
    expect(metadata.extra.subject).toBe('My subject');
    const cyrillic = await read('tika-testWORD_tabular_symbol.doc');
    expect(cyrillic.metadata.title).toBe('Информационный бюллетень новых поступлений');
    const authors = await read('tika-testWORD_multi_authors.doc');
    expect(authors.metadata.extra.author).toEqual(['Allison, Timothy B.', 'author2', 'author3']);
  });

  it('keeps hidden text (sprmCFVanish), as the DOCX reader, pandoc and LibreOffice do; tracked deletions stay out', async () => {
    // The .docx of the same document (w:vanish) reads the same through the DOCX reader.
    const { document } = await read('tika-testWORD_features.doc');
    const text = document.body.textContent ?? '';
    expect(text).toContain('Praesent non facilisis orci, sodales hendrerit ipsum.');
    expect(text).toContain('This is hidden text.');
    expect(text).toContain('torquent inceptos himenaeos');
    expect(text).not.toContain('bibendum'); // a tracked deletion
  });

  it('leaves comments out, with a warning', async () => {
    const { document, warnings } = await read('word-extractor-test10.doc');
    expect(texts(document.body, 'p')).toEqual(['This is a simple Word file', 'Second paragraph', 'Third paragraph']);
    expect(warnings).toContain('Comments in the document are left out of the output.');
  });
});

describe('doc reader: Word 2003 XML saved as .doc', () => {
  it('reads its tables (empty layout tables left out)', async () => {
    const { document } = await read('tika-testWORDML_tableInsideParagraph.doc', {}, 'wordml');
    const tables = Array.from(document.body.querySelectorAll(':scope > table'));
    expect(grid(tables[0] as Element).slice(0, 2)).toEqual([
      ['First Page', '', ''],
      ['Some Data', 'Second column', 'Third'],
    ]);
    expect(document.body.textContent).toContain('tic-tac-toe');
  });

  it('maps heading styles, bold, links, spans and properties', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml" xmlns:o="urn:schemas-microsoft-com:office:office">
<o:DocumentProperties><o:Title>Quarterly</o:Title><o:Author>Ann</o:Author></o:DocumentProperties>
<w:styles><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Kop"><w:name w:val="Kop 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style></w:styles>
<w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Results</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Kop"/></w:pPr><w:r><w:t>Detail</w:t></w:r></w:p>
<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Bold</w:t></w:r><w:r><w:rPr><w:b w:val="off"/></w:rPr><w:t> plain </w:t></w:r><w:hlink w:dest="https://example.com/"><w:r><w:t>site</w:t></w:r></w:hlink><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r></w:p>
<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>Wide</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:tc><w:tcPr><w:vmerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>Tall</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:tc><w:tcPr><w:vmerge/></w:tcPr><w:p/></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:sectPr><w:hdr w:type="odd"><w:p><w:r><w:t>Running head</w:t></w:r></w:p></w:hdr></w:sectPr></w:body></w:wordDocument>`;
    const { document, metadata } = await readDoc(readInput('doc', Buffer.from(xml), { format: 'wordml' }));
    expect(texts(document.body, 'h1')).toEqual(['Results']);
    expect(texts(document.body, 'h2')).toEqual(['Detail']);
    expect(document.body.querySelector(':scope > p')?.innerHTML).toBe('<strong>Bold</strong> plain <a href="https://example.com/">site</a>hidden');
    expect(grid(document.body.querySelector('table') as Element)).toEqual([['Wide colspan=2'], ['Tall rowspan=2', 'a'], ['b']]);
    expect(texts(document.body, 'header[data-furniture]')).toEqual(['Running head']);
    expect(metadata.title).toBe('Quarterly');
    expect(metadata.extra.author).toBe('Ann');
  });

  it('leaves a review comment (aml:annotation Word.Comment) out, with the Word readers\' warning', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml" xmlns:aml="http://schemas.microsoft.com/aml/2001/core">
<w:body><w:p><w:r><w:t>Reviewed text.</w:t></w:r><aml:annotation aml:id="0" w:type="Word.Comment" aml:author="Ann"><aml:content><w:p><w:r><w:t>A note to self</w:t></w:r></w:p></aml:content></aml:annotation></w:p></w:body></w:wordDocument>`;
    const { document, warnings } = await readDoc(readInput('doc', Buffer.from(xml), { format: 'wordml' }));
    expect(document.body.textContent).toContain('Reviewed text.');
    expect(document.body.textContent).not.toContain('A note to self');
    expect(warnings).toEqual(['Comments in the document are left out of the output.']);
  });

  it('writes a w:pict as a data URI only when base64 images are kept', async () => {
    const xml = `<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><w:body>
<w:p><w:r><w:pict><w:binData w:name="wordml://01.png">iVBORw0K
GgoAAAANSUhEUg==</w:binData><v:shape alt="Logo"><v:imagedata src="wordml://01.png" o:title="x"/></v:shape></w:pict></w:r></w:p></w:body></w:wordDocument>`;
    const placeholder = await readDoc(readInput('doc', Buffer.from(xml), { format: 'wordml' }));
    expect(placeholder.document.body.innerHTML).toBe('<p><img alt="Logo"></p>');
    const embedded = await readDoc(readInput('doc', Buffer.from(xml), { format: 'wordml', options: { removeBase64Images: false } }));
    expect(embedded.document.body.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==');
  });

  it('refuses malformed or deeply nested Word 2003 XML as CORRUPT_FILE', async () => {
    const notWordml = await serviceFailure(readDoc(readInput('doc', Buffer.from('<html><body>x</body></html>'), { format: 'wordml' })));
    expect(notWordml.code).toBe('CORRUPT_FILE');
    const deep = `<w:wordDocument xmlns:w="x"><w:body>${'<w:x>'.repeat(5000)}${'</w:x>'.repeat(5000)}</w:body></w:wordDocument>`;
    const started = performance.now();
    const nested = await serviceFailure(readDoc(readInput('doc', Buffer.from(deep), { format: 'wordml' })));
    expect(nested.code).toBe('CORRUPT_FILE');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('doc reader: damaged and protected files', () => {
  it('gives CORRUPT_FILE for the damaged OLE header', async () => {
    const failure = await serviceFailure(read('word-extractor-badfile-01-bad-header.doc'));
    expect(failure.code).toBe('CORRUPT_FILE');
    expect(failure.message).not.toMatch(/Sector|at .*\.js/);
  });

  it('gives ENCRYPTED_FILE when the FIB says the document is encrypted', async () => {
    const bytes = Buffer.from(readCorpus('office', 'doc', 'word-extractor-test10.doc'));
    // Find the WordDocument stream's FIB (wIdent 0xA5EC at a sector start) and set fEncrypted.
    let fib = -1;
    for (let at = 512; at < bytes.length; at += 512) {
      if (bytes.readUInt16LE(at) === 0xa5ec) {
        fib = at;
        break;
      }
    }
    expect(fib).toBeGreaterThan(0);
    bytes.writeUInt16LE(bytes.readUInt16LE(fib + 0x0a) | 0x0100, fib + 0x0a);
    const failure = await serviceFailure(readDoc(readInput('doc', bytes)));
    expect(failure.code).toBe('ENCRYPTED_FILE');
  });

  it('refuses a piece table whose pieces overlap into more text than the stream holds', () => {
    const wordDocument = Buffer.alloc(0x400);
    /** A Clx of compressed pieces: [cpStart, cpEnd, byte offset] each. */
    const clx = (pieces: [number, number, number][]): Buffer => {
      const cps = [...pieces.map((p) => p[0]), pieces[pieces.length - 1]?.[1] ?? 0];
      const plc = Buffer.alloc(cps.length * 4 + pieces.length * 8);
      cps.forEach((cp, i) => plc.writeUInt32LE(cp, i * 4));
      pieces.forEach((p, i) => plc.writeUInt32LE((0x40000000 | (p[2] * 2)) >>> 0, cps.length * 4 + i * 8 + 2));
      const head = Buffer.alloc(5);
      head[0] = 2;
      head.writeUInt32LE(plc.length, 1);
      return Buffer.concat([head, plc]);
    };
    const check = (pieces: [number, number, number][]): boolean => {
      const table = clx(pieces);
      wordDocument.writeUInt32LE(0, 0x01a2);
      wordDocument.writeUInt32LE(table.length, 0x01a6);
      return pieceTableIsSane(wordDocument, table);
    };
    expect(check([[0, 400, 0x200], [400, 500, 0x390]])).toBe(true);
    // Every piece points at the same 500 bytes: 2500 bytes of text from a 1 KiB stream.
    expect(check([[0, 500, 0x100], [500, 1000, 0x100], [1000, 1500, 0x100], [1500, 2000, 0x100], [2000, 2500, 0x100]])).toBe(false);
    expect(check([[0, 400, 0x300]])).toBe(false); // past the end of the stream
    expect(check([[400, 0, 0x100]])).toBe(false); // CPs going backwards
  });

  it('parses HYPERLINK field codes: quoted, bare, with \\l anchors and switches', () => {
    expect(hyperlinkTarget(' HYPERLINK "http://a.example/x" ')).toBe('http://a.example/x');
    expect(hyperlinkTarget('HYPERLINK http://b.example/ \\o "tip"')).toBe('http://b.example/');
    expect(hyperlinkTarget('HYPERLINK \\l "_Toc1"')).toBe('#_Toc1');
    expect(hyperlinkTarget(' PAGEREF _Toc1 \\h ')).toBeUndefined();
  });
});
