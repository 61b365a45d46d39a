/**
 * bench:office-pdf's truth (bench/pdf/office-pdf-truth.ts): pandoc's HTML of an office document
 * read as headings, tables of data and the reference text in order; and, on corpus documents
 * read in place, pandoc's reading (Word's heading styles are headings, a large bold line in the
 * Normal style is none) and LibreOffice's conversion to PDF.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pandocHtml, sofficeConvert } from '../../bench/pdf/office-pdf-corpus.ts';
import { docxTableFlaws, odtTableFlaws, officeTruth } from '../../bench/pdf/office-pdf-truth.ts';
import { strFromU8, unzipSync } from 'fflate';
import { scorePrinted } from '../../bench/pdf/printed-score.ts';
import { eligible } from '../../bench/pdf/printed-truth.ts';
import { corpusPath } from '../helpers/corpus.ts';

const PANDOC = `<!DOCTYPE html>
<html><head><title>Report</title><style>h1 { color: red; }</style></head>
<body>
<header id="title-block-header">
<h1 class="title">Annual   report</h1>
<p class="subtitle">The year in figures</p>
</header>
<h1 id="scope">1 Scope</h1>
<p>First paragraph with <span class="math inline">\\(x^{2}\\)</span> math
and a note<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a>.</p>
<figure><img src="media/image1.png" alt="a chart of sales" /><figcaption aria-hidden="true">a chart of sales</figcaption></figure>
<h2 id="x">   </h2>
<table>
<colgroup><col style="width: 50%" /><col style="width: 50%" /></colgroup>
<thead><tr class="header"><th>Year</th><th>Sales</th></tr></thead>
<tbody>
<tr class="odd"><td><p>2024</p><p>restated</p></td><td>10 &amp; more</td></tr>
<tr class="even"><td colspan="2"><h3>In a cell</h3><table><tbody><tr><td>inner</td></tr></tbody></table></td></tr>
</tbody>
</table>
<table><tbody><tr><td>CREDO REFERENCE</td></tr><tr><td>Layout</td></tr></tbody></table>
<h3 id="last">Last <em>words</em></h3>
<ul><li><p>one item</p></li><li><p>two items</p></li></ul>
<pre><code># not a heading
x = 1</code></pre>
<section id="footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes">
<hr />
<ol><li id="fn1"><p>The note.<a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol>
</section>
</body></html>`;

describe('the truth of an office document from pandoc HTML', () => {
  it('reads headings, tables of data and the text in order', () => {
    const truth = officeTruth(PANDOC, { title: true });
    expect(truth.headings).toEqual([
      { level: 1, text: 'Annual report' },
      { level: 1, text: '1 Scope' },
      { level: 3, text: 'Last words' },
    ]);
    expect(truth.tables).toEqual(['<table><tr><td>Year</td><td>Sales</td></tr><tr><td>2024 restated</td><td>10 &amp; more</td></tr><tr><td colspan="2">In a cell inner</td></tr></table>']);
    expect(truth.nested).toBe(1);
    const lines = truth.markdown.split('\n').filter((l) => l !== '');
    expect(lines.slice(0, 4)).toEqual(['# Annual report', 'The year in figures', '# 1 Scope', 'First paragraph with math and a note1.']);
    // a one-column table is read as its text, rows apart
    expect(lines).toContain('CREDO REFERENCE');
    expect(lines.indexOf('CREDO REFERENCE')).toBeGreaterThan(lines.indexOf(truth.tables[0] as string));
    expect(lines.indexOf('### Last words')).toBe(lines.indexOf('Layout') + 1);
    expect(lines.slice(lines.indexOf('### Last words') + 1)).toEqual(['- one item', '- two items', '\\# not a heading', 'x = 1', 'The note.']);
    // no style sheet, no alt text, no TeX, no back-link
    expect(truth.markdown).not.toMatch(/color|a chart of sales|\\\(|↩|Report\n/u);
    expect(eligible(truth, 1, 10)).toBe(false);
    expect(eligible({ ...truth, nested: 0 }, 1, 10)).toBe(true);
  });

  it('writes list items as Markdown items, numbered from an ordered list\'s start, and an RTF\'s bullet paragraphs the same way', () => {
    const html = `<!DOCTYPE html><html><head></head><body><ol start="3"><li><p>third</p><ul><li>inner</li></ul></li><li>fourth</li></ol>
<ol><li><h3>A heading</h3></li></ol><p>•  from an RTF</p><p>• </p><p>·no space</p>
<table><tr><td><ul><li>in a cell</li></ul></td><td>x</td></tr><tr><td>a</td><td>b</td></tr></table></body></html>`;
    const lines = officeTruth(html, { title: false }).markdown.split('\n').filter((l) => l !== '');
    expect(lines).toEqual(['3. third', '- inner', '4. fourth', '### A heading', '- from an RTF', '•', '·no space', '<table><tr><td>in a cell</td><td>x</td></tr><tr><td>a</td><td>b</td></tr></table>']);
  });

  it('leaves the title block out of the headings where it is metadata (RTF, ODT)', () => {
    const truth = officeTruth(PANDOC, { title: false });
    expect(truth.headings.map((h) => h.text)).toEqual(['1 Scope', 'Last words']);
    expect(truth.markdown.startsWith('The year in figures\n')).toBe(true);
  });

  it('scores its own reference at 1', () => {
    const truth = officeTruth(PANDOC, { title: true });
    const s = scorePrinted(truth, truth.markdown);
    expect(s.found).toBe(3);
    expect(s.extra).toEqual([]);
    expect(s.scores.overall).toBe(1);
  });
});

describe('tables pandoc is known to misread', () => {
  it('reads each top-level ODT table with its merged cells or nested table', () => {
    const xml = [
      '<table:table table:name="A"><table:table-row><table:table-cell table:number-columns-spanned="1"/></table:table-row></table:table>',
      '<table:table table:name="B"><table:table-row><table:table-cell table:number-rows-spanned="2"/><table:covered-table-cell/></table:table-row></table:table>',
      '<table:table table:name="C"><table:table-row><table:table-cell><table:table table:name="C1"><table:table-column/></table:table></table:table-cell></table:table-row></table:table>',
    ].join('');
    const flaws = odtTableFlaws(xml);
    expect(flaws).toHaveLength(3);
    expect(flaws[0]).toBeUndefined();
    expect(flaws[1]).toMatch(/merged cells/u);
    expect(flaws[2]).toMatch(/nested table/u);
  });

  it('reads each top-level Word table with a row starting after skipped columns', () => {
    const xml = [
      '<w:tbl><w:tr><w:tc><w:tbl><w:tr><w:tc/></w:tr></w:tbl></w:tc></w:tr></w:tbl>',
      '<w:tbl><w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr><w:tc/></w:tr></w:tbl>',
      '<w:tbl><w:tr><w:trPr><w:gridBefore w:val="0"/></w:trPr><w:tc/></w:tr></w:tbl>',
    ].join('');
    const flaws = docxTableFlaws(xml);
    expect(flaws).toHaveLength(3);
    expect(flaws[0]).toBeUndefined();
    expect(flaws[1]).toMatch(/gridBefore/u);
    expect(flaws[2]).toBeUndefined();
  });

  it('leaves a document\'s tables out when a table is in doubt or the counts differ', () => {
    expect(officeTruth(PANDOC, { title: true, tableFlaws: [undefined, undefined] }).tablesLeftOut).toBeUndefined();
    expect(officeTruth(PANDOC, { title: true, tableFlaws: ['merged cells', undefined] }).tablesLeftOut).toBe('merged cells');
    // the second table is no table of data: its doubt changes nothing
    expect(officeTruth(PANDOC, { title: true, tableFlaws: [undefined, 'merged cells'] }).tablesLeftOut).toBeUndefined();
    expect(officeTruth(PANDOC, { title: true, tableFlaws: [undefined] }).tablesLeftOut).toMatch(/pandoc wrote 2 tables of the source's 1/u);
  });
});

describe('pandoc and LibreOffice on corpus documents', () => {
  it("reads Word's Title and Heading styles as headings, and a large bold Normal line as none", async () => {
    const headed = officeTruth(await pandocHtml(corpusPath('office', 'docx', 'docling-unit_test_headers.docx')), { title: true });
    expect(headed.headings.slice(0, 5)).toEqual([
      { level: 1, text: 'Test Document' },
      { level: 1, text: 'Section 1' },
      { level: 2, text: 'Section 1.1' },
      { level: 2, text: 'Section 1.2' },
      { level: 3, text: 'Section 1.2.3' },
    ]);
    // a form whose title is bold capitals in the Normal style: no heading in the truth
    const form = officeTruth(await pandocHtml(corpusPath('office', 'docx', 'word-extractor-test07.docx')), { title: true });
    expect(form.markdown).toMatch(/Research Governance Checklist/u);
    expect(form.headings).toEqual([]);
    expect(form.tables.length).toBeGreaterThan(0);
  }, 30_000);

  it("checks pandoc's tables against the document: Word's merged cells kept, ODT's dropped and left out of TEDS", async () => {
    // docx: gridSpan and vMerge are colspan and rowspan in pandoc's HTML
    const word = officeTruth(await pandocHtml(corpusPath('office', 'docx', 'kreuzberg-docx_tables.docx')), { title: true });
    expect(word.tables.join('')).toContain('<td rowspan="2">a</td><td colspan="2">b</td>');
    expect(word.tablesLeftOut).toBeUndefined();
    // ODT: "Merged cell 2x2" spans two rows and two columns in content.xml; pandoc writes it as
    // one cell among empty ones, so the document's tables are not scored
    const file = corpusPath('office', 'odt', 'docling-text_document_02.odt');
    const content = strFromU8(unzipSync(fs.readFileSync(file), { filter: (f) => f.name === 'content.xml' })['content.xml'] as Uint8Array);
    const flaws = odtTableFlaws(content);
    expect(flaws).toEqual([expect.stringMatching(/merged cells/u)]);
    const html = await pandocHtml(file);
    expect(html).not.toMatch(/colspan|rowspan/u);
    const odt = officeTruth(html, { title: false, tableFlaws: flaws });
    expect(odt.tablesLeftOut).toMatch(/merged cells/u);
    const scored = scorePrinted(odt, odt.markdown);
    expect(scored.scores.teds).toBeNull();
    expect(scored.scores.nid).toBe(1);
    expect(scored.scores.overall).toBe(1);
    // a nested table, dropped by pandoc's ODT reader: that table is in doubt, the plain ones not
    const nested = odtTableFlaws(strFromU8(unzipSync(fs.readFileSync(corpusPath('office', 'odt', 'docling-text_document_03.odt')), { filter: (f) => f.name === 'content.xml' })['content.xml'] as Uint8Array));
    expect(nested.length).toBe(7);
    expect(nested.filter((f) => f !== undefined)).toEqual([expect.stringMatching(/nested table/u)]);
  }, 30_000);

  it("leaves a docx's tables out of TEDS where a row starts after skipped columns (pandoc drops w:gridBefore)", async () => {
    const file = corpusPath('office', 'docx', 'docling-word_tables.docx');
    const xml = strFromU8(unzipSync(fs.readFileSync(file), { filter: (f) => f.name === 'word/document.xml' })['word/document.xml'] as Uint8Array);
    const flaws = docxTableFlaws(xml);
    expect(flaws).toHaveLength(7);
    expect(flaws.filter((f) => f !== undefined).length).toBeGreaterThan(0);
    // the last table: "Cell 1.1" stands under "Header 0.1" in the document; pandoc moves it left
    const truth = officeTruth(await pandocHtml(file), { title: true, tableFlaws: flaws });
    expect(truth.tables.at(-1)).toBe('<table><tr><td>Header 0.0</td><td>Header 0.1</td></tr><tr><td>Cell 1.1</td><td></td></tr></table>');
    expect(truth.tablesLeftOut).toMatch(/gridBefore/u);
  }, 30_000);

  it('converts a document to PDF with a private profile', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'office-pdf-test-'));
    try {
      const pdf = await sofficeConvert(corpusPath('office', 'docx', 'docling-unit_test_headers.docx'), 'pdf', dir);
      expect(fs.readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // a password-protected document is none LibreOffice can read headless
      await expect(sofficeConvert(corpusPath('office', 'odt', 'tika-testODTEncrypted.odt'), 'pdf', path.join(dir, 'none'))).rejects.toThrow(/soffice/u);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
