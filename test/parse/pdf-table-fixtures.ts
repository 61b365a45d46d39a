/**
 * What the PDF table tests share: a page's model as the reader extracts it (mode fast: no
 * images), a table as rows of cell texts, and a one-page A4 PDF in Helvetica (F1) and
 * Helvetica-Bold (F2) around a content stream the test draws.
 */
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import type { PageModel } from '../../src/parse/readers/pdf/page-model.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import type { PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { buildPdf } from '../helpers/hostile-files.ts';

export const A4_HEIGHT = 842;

/** Page 1 of the PDF, as the reader's page model. */
export async function firstPageModel(bytes: Buffer): Promise<PageModel> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(bytes, { images: false })).promise;
  try {
    return await extractPage(pdfjs, await doc.getPage(1), 1);
  } finally {
    await doc.destroy();
  }
}

/** The table as rows of cell texts (spans not expanded). */
export function rowTexts(t: PdfTable): string[][] {
  return Array.from({ length: t.rows }, (_, r) => t.cells.filter((c) => c.row === r).map((c) => c.text));
}

/** One A4 page drawing `content` (PDF operators; fonts /F1 Helvetica and /F2 Helvetica-Bold). */
export function helveticaA4(content: string): Buffer {
  const stream = Buffer.from(content, 'latin1');
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 ${A4_HEIGHT}] /Resources << /Font << /F1 4 0 R /F2 6 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  ]);
}
