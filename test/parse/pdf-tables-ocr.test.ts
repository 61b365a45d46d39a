/**
 * Tables on OCRed pages: the finder reads only the page model, so tesseract's word boxes (and the
 * rules the image shows, none here) give the same table as the text layer. The scan is made at test time from a
 * corpus page (pdf-ocr-fixtures.ts); pdftoppm and tesseract are real (scripts/setup.sh).
 */
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import { readPages } from '../../src/parse/readers/pdf/ocr.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { buildPdf } from './pdf-ocr-fixtures.ts';

describe('PDF tables on OCRed pages', () => {
  it('finds a borderless table from the word boxes of a scanned page', async () => {
    // The saccharometer table of a DP-Bench page, scanned: no text layer, no rules.
    const bytes = buildPdf([{ scan: { file: ['pdf-bench', 'pdfs', '01030000000117.pdf'], page: 1 } }]);
    const pdfjs = await loadPdfjs();
    const doc = await pdfjs.getDocument(documentParameters(bytes)).promise;
    try {
      const { pages } = await readPages({ bytes, mode: 'ocr', total: 1, signal: new AbortController().signal }, async (n) => extractPage(pdfjs, await doc.getPage(n), n));
      const [page] = pages;
      expect(page?.source).toBe('ocr');
      // The scan's rules are those its image shows (ocr/rulings.ts), none in or around the
      // borderless table: its columns come from the word boxes.
      expect((page?.rules ?? []).filter((r) => r.y0 < 160)).toEqual([]);
      const tables = findTables(page as NonNullable<typeof page>);
      expect(tables).toHaveLength(1);
      const [t] = tables;
      expect([t?.rows, t?.cols]).toEqual([4, 4]);
      const row = (r: number): string[] => (t?.cells ?? []).filter((c) => c.row === r).map((c) => c.text);
      expect(row(0)).toEqual(['Saccharometer', 'DI Water', 'Glucose Solution', 'Yeast Suspension']);
      expect(row(2)).toEqual(['3', '12 ml', '12 ml', '4 ml']);
    } finally {
      await doc.destroy();
    }
  }, 60_000);
});
