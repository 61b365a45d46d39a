import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import type { PageModel } from '../../src/parse/readers/pdf/page-model.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { readCorpus } from '../helpers/corpus.ts';

async function model(path: string[], { images = true, page = 1 } = {}): Promise<PageModel> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(readCorpus(...path), { images })).promise;
  try {
    return await extractPage(pdfjs, await doc.getPage(page), page);
  } finally {
    await doc.destroy();
  }
}

// Node's own built-ins, taken before any test loads pdf.js.
const NATIVE = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify, toString: Function.prototype.toString };

const text = (m: PageModel) => m.words.map((w) => w.text).join(' ');

describe('PDF page extraction (text layer → PageModel)', () => {
  it('gives words with top-left boxes, bold from the font, and the ruling lines of a bordered table', async () => {
    // A page of DP-Bench: a running title, a paragraph, a bold caption and a fully ruled table.
    const m = await model(['pdf-bench', 'pdfs', '01030000000045.pdf'], { images: false });
    expect(m.width).toBeCloseTo(419.5, 0);
    expect(m.height).toBeCloseTo(595.3, 0);
    expect(text(m)).toContain('The registration of local election observers runs until');
    const caption = m.words.find((w) => w.text === 'Table:');
    expect(caption?.bold).toBe(true);
    const election = m.words.find((w) => w.text === 'election' && w.size > 9);
    // Body text sits below the running title, near the top of the page: y grows downwards.
    expect(election && caption && election.y0 < caption.y0).toBe(true);
    for (const w of m.words) {
      expect(w.x0).toBeLessThan(w.x1);
      expect(w.y0).toBeLessThan(w.y1);
      expect(w.baseline).toBeGreaterThan(w.y0);
      // The descenders hang below the baseline.
      expect(w.y1).toBeGreaterThan(w.baseline);
    }
    const vertical = m.rules.filter((r) => r.orientation === 'vertical');
    const horizontal = m.rules.filter((r) => r.orientation === 'horizontal');
    expect(vertical.length).toBeGreaterThan(8);
    expect(horizontal.length).toBeGreaterThan(4);
    // The table's left border is one x for the whole table.
    expect(new Set(vertical.map((r) => Math.round(r.x0))).size).toBeLessThan(vertical.length);
    expect(m.images).toEqual([]);
  });

  it('reads link annotations with their URL and where they sit', async () => {
    const m = await model(['pdf', 'pdfjs', 'pdfjs_wikipedia.pdf']);
    expect(m.links.length).toBeGreaterThan(10);
    for (const link of m.links) {
      expect(link.url).toMatch(/^(https?|mailto):/);
      expect(link.x0).toBeGreaterThanOrEqual(0);
      expect(link.y1).toBeLessThanOrEqual(m.height + 1);
    }
  });

  it('finds the image covering a scanned page, and no words on it', async () => {
    const m = await model(['pdf', 'opendataloader-pdf', 'chinese_scan.pdf']);
    expect(m.words).toEqual([]);
    const [image] = m.images;
    expect(image).toBeDefined();
    expect(((image?.x1 ?? 0) - (image?.x0 ?? 0)) * ((image?.y1 ?? 0) - (image?.y0 ?? 0))).toBeGreaterThan(0.9 * m.width * m.height);
  });

  it('skips images entirely when asked to (mode fast)', async () => {
    const m = await model(['pdf', 'opendataloader-pdf', 'chinese_scan.pdf'], { images: false });
    expect(m.images).toEqual([]);
  });
});

describe('PDF page extraction: tagged PDF structure', () => {
  it('gives words their structure role and artifact mark, and images their /Alt text', async () => {
    // PDF/UA reference invoice (PDF Association): H1, a table with TH/TD, artifacts, a photo with alt text.
    const m = await model(['pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf']);
    const roleOf = (text: string) => m.words.find((w) => w.text === text)?.role;
    expect(roleOf('INVOICE')).toBe('H1');
    expect(roleOf('DESCRIPTION')).toBe('TH');
    expect(roleOf('Kite')).toBe('TD');
    expect(m.words.some((w) => w.artifact === true && w.role === undefined)).toBe(true);
    expect(m.images.map((i) => i.alt)).toContain('Photo of sales rep.');
  });

  it('leaves roles out on an untagged page', async () => {
    const m = await model(['pdf-bench', 'pdfs', '01030000000045.pdf'], { images: false });
    expect(m.words.every((w) => w.role === undefined)).toBe(true);
  });
});

describe('loading pdf.js', () => {
  it("leaves Node's own Array.prototype.push, JSON.parse/stringify and Function.prototype.toString in place", async () => {
    await loadPdfjs();
    expect(Array.prototype.push).toBe(NATIVE.push);
    expect(JSON.parse).toBe(NATIVE.parse);
    expect(JSON.stringify).toBe(NATIVE.stringify);
    expect(Function.prototype.toString).toBe(NATIVE.toString);
    // The additions pdf.js needs on Node 20 stay.
    expect(typeof (Promise as { withResolvers?: unknown }).withResolvers).toBe('function');
  });
});

describe('word boxes inside a text item', () => {
  it('share the item by typical glyph widths: narrow letters take less room than wide ones', async () => {
    const { characterEdges } = await import('../../src/parse/readers/pdf/glyph-widths.ts');
    const edges = characterEdges('iii MMM', false);
    // "iii" (3 × 222) is much narrower than "MMM" (3 × 833).
    expect(edges[3]).toBeLessThan(0.25);
    expect(edges[4]).toBeGreaterThan(0.25);
    expect(edges[7]).toBe(1);
    const mono = characterEdges('iii MMM', true);
    expect(mono[4]).toBeCloseTo(4 / 7, 10);
  });
});
