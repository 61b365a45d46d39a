/**
 * Layout on tagged PDFs (issue 3 §1: "tagged-PDF structure used when present"): the structure
 * types of the words' blocks decide headings and their levels, body text set large stays body
 * text, list items need no bullet glyph, artifacts in the page's bands are running furniture,
 * figures keep their alternative text. Real corpus files; content is asserted.
 */
import { describe, expect, it } from 'vitest';
import { documentFromHtml, type ReadResult } from '../../src/parse/document.ts';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { layoutDocument } from '../../src/parse/readers/pdf/layout/index.ts';
import type { PageModel } from '../../src/parse/readers/pdf/page-model.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

const INVOICE = ['pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf'];
const ABSTRACT = ['pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-03_AcademicAbstract.pdf'];

function read(path: string[], mode: 'fast' | 'auto' = 'fast'): Promise<ReadResult> {
  return readPdf(readInput('pdf', readCorpus(...path), { options: { parsers: [{ type: 'pdf', mode }] } }));
}

function texts(root: ParentNode, selector: string): string[] {
  return [...root.querySelectorAll(selector)].map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());
}

async function models(path: string[]): Promise<PageModel[]> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(readCorpus(...path), { images: false })).promise;
  try {
    const pages: PageModel[] = [];
    for (let n = 1; n <= doc.numPages; n++) pages.push(await extractPage(pdfjs, await doc.getPage(n), n));
    return pages;
  } finally {
    await doc.destroy();
  }
}

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

describe('pdf layout on tagged PDFs: headings', () => {
  it('takes the heading from the structure, not the type: the invoice number is the h1, the large letterhead is not (PDFUA invoice)', async () => {
    const result = await read(INVOICE);
    expect(texts(result.document, HEADINGS)).toEqual(['INVOICE 2020-10']);
    expect(texts(result.document, 'h1')).toEqual(['INVOICE 2020-10']);
    // The date beside the heading is its own paragraph (another structure element on the row).
    const paragraphs = texts(result.document, 'p');
    expect(paragraphs).toContain('January 8, 2020');
    // The letterhead is set large and bold but tagged P.
    expect(paragraphs).toContain('Kraxi Systems, Inc.');
  });

  it('gives every tagged heading the level of its type, and a large title tagged P stays a paragraph (PDFUA academic abstract)', async () => {
    const result = await read(ABSTRACT);
    expect(texts(result.document, 'h1')).toEqual(['ABSTRACT', 'CCS CONCEPTS', 'KEYWORDS', '1 SUMMARY', '2 TOPICS', '3 ABOUT THE ORGANIZERS']);
    // An H2 run into its paragraph's first line is a heading of its own.
    expect(texts(result.document, 'h2')).toEqual(['ACM Reference Format:']);
    expect(texts(result.document, 'p').some((p) => p.startsWith('Dietrich von Seggern, Klaas Posselt, Tamir Hassan, and Thomas Zellmann. 2019.'))).toBe(true);
    expect(texts(result.document, 'p')).toContain('More than just digital paper—hidden features of the PDF format');
  });

  it('reads the same page by its type alone once the structure is taken away (the title becomes the heading again)', async () => {
    const pages = await models(ABSTRACT);
    const untagged = pages.map((p) => ({ ...p, words: p.words.map(({ role: _role, artifact: _artifact, ...w }) => w) }));
    const doc = documentFromHtml(layoutDocument(untagged));
    expect(texts(doc, 'h1')).toEqual(['More than just digital paper—hidden features of the PDF format']);
    // The tagged H1s are headings again too, ranked below the title by their type.
    expect(texts(doc, 'h2, h3, h4')).toEqual(expect.arrayContaining(['ABSTRACT', '1 SUMMARY']));
  });

  it('lets the type decide in a document tagged without any heading (everything P)', async () => {
    const pages = await models(INVOICE);
    const allP = pages.map((p) => ({ ...p, words: p.words.map((w) => (w.role === 'H1' ? { ...w, role: 'P' } : w)) }));
    const doc = documentFromHtml(layoutDocument(allP));
    expect(texts(doc, HEADINGS)).toContain('Kraxi Systems, Inc.');
  });

  it('keeps a tagged form heading and leaves the P-tagged title text alone (PDFUA form)', async () => {
    const result = await read(['pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-10_Form.pdf']);
    expect(texts(result.document, HEADINGS)).toEqual(['From content']);
    expect(texts(result.document, 'p')).toContain('PDF/UA form example');
  });
});

describe('pdf layout on tagged PDFs: lists, furniture, figures', () => {
  it('makes LI-tagged blocks list items even when their labels are no bullet glyphs', async () => {
    const pages = await models(ABSTRACT);
    // The same page with its bullet labels taken out: the structure alone says "list item".
    const unlabelled = pages.map((p) => ({ ...p, words: p.words.filter((w) => !/^[•–]$/u.test(w.text)) }));
    expect(unlabelled[0]?.words.length).toBeLessThan(pages[0]?.words.length ?? 0);
    const doc = documentFromHtml(layoutDocument(unlabelled));
    const items = texts(doc, 'section[data-page="1"] li');
    expect(items).toContain('Applied computing → Publishing; Document preparation;');
    expect(items.some((i) => i.startsWith('Security: Encryption and signatures'))).toBe(true);
  });

  it('marks an artifact running head in the top band as furniture on a two-page document', async () => {
    const result = await read(ABSTRACT);
    const header = texts(result.document, 'section[data-page="2"] header[data-furniture="header"]');
    expect(header).toHaveLength(1);
    expect(header[0]).toContain('DocEng ’19, September 23–26, 2019, Berlin, Germany');
    // The artifact between the letterhead and the address window is no running head (mid-page).
    const invoice = await read(INVOICE);
    expect(invoice.document.querySelector('[data-furniture]')).toBeNull();
    expect(texts(invoice.document, 'p')).toContain('Kraxi Systems, Inc. • 17, Aviation Road • Paperfield');
  });

  it("gives an image placeholder the figure's alternative text, control characters dropped", async () => {
    const invoice = await read(INVOICE, 'auto');
    expect([...invoice.document.querySelectorAll('img')].map((i) => i.getAttribute('alt'))).toEqual(['Photo of sales rep.']);
    // The handbook's figures are tagged with "Figure" followed by a NUL byte.
    const handbook = await read(['pdf', 'docling', 'amt_handbook_sample.pdf'], 'auto');
    const alts = [...handbook.document.querySelectorAll('img')].map((i) => i.getAttribute('alt'));
    expect(alts.length).toBeGreaterThan(0);
    expect(alts.every((a) => a === 'Figure')).toBe(true);
  });
});
