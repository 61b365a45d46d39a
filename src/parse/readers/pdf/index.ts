/**
 * The PDF reader: every page becomes a PageModel (extract.ts from the text layer, or OCR: ocr.ts,
 * pages without a usable text layer in `auto`, every page in `ocr`, none in `fast` — a warning),
 * then the layout analysis (layout/, with the table finder of tables/) turns the pages into
 * `<section data-page="N">` each: headings, paragraphs, lists and tables in reading order,
 * running headers and footers as furniture.
 */
import { ServiceError } from '../../../errors.ts';
import { documentFromHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { pdfParserOptions } from '../../options.ts';
import { sourceLimits } from '../../limits.ts';
import { checkPdfBounds } from './bounds.ts';
import { openError, pagesPhrase } from './errors.ts';
import { pdfMetadata } from './metadata.ts';
import { extractPage, type PageLimits } from './extract.ts';
import { layoutDocument } from './layout/index.ts';
import { findTables, tableHtml } from './tables/index.ts';
import { readPages } from './ocr.ts';
import type { PageModel } from './page-model.ts';
import { documentParameters, loadPdfjs, type Pdfjs } from './pdfjs.ts';

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

/**
 * A complete PDF ends with `%%EOF` (ISO 32000 §7.5.5; readers look in the last 1024 bytes).
 * pdf.js rebuilds a truncated file's cross-reference table and may then find fewer pages than
 * the document has, without saying so: this is how the reader notices.
 */
function looksTruncated(bytes: Buffer): boolean {
  return !bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1').includes('%%EOF');
}

async function readPage(pdfjs: Pdfjs, doc: PdfDocument, number: number, limits: PageLimits): Promise<PageModel> {
  const page = await doc.getPage(number);
  try {
    return await extractPage(pdfjs, page, number, limits);
  } finally {
    page.cleanup();
  }
}

async function readMetadata(pdfjs: Pdfjs, doc: PdfDocument): Promise<ReturnType<typeof pdfMetadata>> {
  try {
    const { info, metadata } = await doc.getMetadata();
    return pdfMetadata({ info, xmp: metadata, toDate: (text) => pdfjs.PDFDateString.toDateObject(text) });
  } catch {
    // A broken info dictionary or XMP packet costs the metadata, not the text.
    return pdfMetadata({ info: undefined, xmp: undefined, toDate: () => null });
  }
}

export async function readPdf(input: ReadInput): Promise<ReadResult> {
  const parser = pdfParserOptions(input.options);
  const { signal } = input;
  signal.throwIfAborted();
  const limits = sourceLimits(input.limits);
  // `fast` is text extraction only (the spec's words): images are not decoded at all.
  const images = parser.mode !== 'fast';
  checkPdfBounds(input.bytes, limits, { images });
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument(documentParameters(input.bytes, { images, maxImagePixels: limits.maxImagePixels }));
  // Cancelling stops pdf.js mid-page too: pending calls reject once the task is destroyed.
  const onAbort = () => void task.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (err) {
      signal.throwIfAborted();
      throw openError(err);
    }
    const totalPages = doc.numPages;
    if (!(totalPages > 0)) {
      throw new ServiceError('CORRUPT_FILE', 'The PDF has no pages. Upload a PDF that contains at least one page.');
    }
    const toRead = Math.min(totalPages, parser.maxPages ?? totalPages);

    // Extraction, then OCR where needed, inside the time budget (ocr.ts).
    const { pages: models, numPages, failed, warnings: ocrWarnings } = await readPages({ ...input, mode: parser.mode, total: toRead }, (n) =>
      readPage(pdfjs, doc, n, limits),
    );
    if (models.length === 0) {
      throw new ServiceError('CORRUPT_FILE', 'No page of the PDF could be read: the file is damaged or truncated. Upload the complete file again.');
    }

    const warnings: string[] = [];
    if (looksTruncated(input.bytes)) {
      warnings.push('The PDF does not end with an end-of-file marker, so it is probably truncated: pages or text may be missing.');
    }
    if (failed.length > 0) {
      warnings.push(`${pagesPhrase(failed, 'could not be read (the PDF is damaged there) and was skipped.', 'could not be read (the PDF is damaged there) and were skipped.')}`);
    }
    warnings.push(...ocrWarnings);
    const skippedDrawing = models.filter((m) => m.drawingSkipped !== undefined);
    if (skippedDrawing.length > 0) {
      const what = skippedDrawing[0]?.drawingSkipped ?? '';
      warnings.push(
        `${pagesPhrase(skippedDrawing.map((m) => m.number), `draws ${what}: its lines, boxes and images were left out (its text was read).`, `draw ${what}: their lines, boxes and images were left out (their text was read).`)}`,
      );
    }

    // `models` is the document as read, one PageModel per page (text layer or OCR). The tables
    // found on a page take their words out of the running text and their place in reading order.
    const html = layoutDocument(models, (page) => findTables(page).map((table) => ({ ...table, html: tableHtml(table) })));
    const metadata = await readMetadata(pdfjs, doc);
    signal.throwIfAborted();
    const document = documentFromHtml(html, metadata.language);
    return {
      document,
      metadata,
      warnings,
      rawHtml: `<!DOCTYPE html>${document.documentElement.outerHTML}`,
      numPages,
      totalPages,
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    await task.destroy();
  }
}
