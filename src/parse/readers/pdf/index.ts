/**
 * The PDF reader, text layer only: each page becomes `<section data-page="N">` holding the
 * page's paragraphs (text-layout.ts), with running headers and footers marked as furniture.
 * Pages without a text layer are reported (OCR is not built yet); `mode: 'ocr'` is refused.
 */
import { ServiceError } from '../../../errors.ts';
import { documentFromHtml, escapeHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { pdfParserOptions } from '../../options.ts';
import { openError, pagesPhrase } from './errors.ts';
import { findFurniture, type PageFurniture, type PageParagraphs } from './furniture.ts';
import { pdfMetadata } from './metadata.ts';
import { documentParameters, loadPdfjs, type Pdfjs } from './pdfjs.ts';
import { linesOf, paragraphsOf, type TextRun } from './text-layout.ts';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

/**
 * A complete PDF ends with `%%EOF` (ISO 32000 §7.5.5; readers look in the last 1024 bytes).
 * pdf.js rebuilds a truncated file's cross-reference table and may then find fewer pages than
 * the document has, without saying so: this is how the reader notices.
 */
function looksTruncated(bytes: Buffer): boolean {
  return !bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1').includes('%%EOF');
}

interface PageText extends PageParagraphs {
  number: number;
}

function isTextItem(item: unknown): item is TextItem {
  return typeof item === 'object' && item !== null && typeof (item as { str?: unknown }).str === 'string';
}

async function readPage(doc: PdfDocument, number: number): Promise<PageText> {
  const page = await doc.getPage(number);
  try {
    const content = await page.getTextContent();
    const runs: TextRun[] = [];
    for (const item of content.items) {
      if (!isTextItem(item)) continue;
      runs.push({ text: item.str, transform: item.transform, width: item.width, height: item.height, hasEOL: item.hasEOL, font: item.fontName });
    }
    const [, y0 = 0, , y1 = 0] = page.view;
    return { number, paragraphs: paragraphsOf(linesOf(runs)), bottom: Math.min(y0, y1), top: Math.max(y0, y1) };
  } finally {
    page.cleanup();
  }
}

function renderPage(page: PageText, furniture: PageFurniture | undefined): string {
  const header: string[] = [];
  const body: string[] = [];
  const footer: string[] = [];
  page.paragraphs.forEach((p, i) => {
    const html = `<p>${escapeHtml(p.text)}</p>`;
    if (furniture?.header.has(i)) header.push(html);
    else if (furniture?.footer.has(i)) footer.push(html);
    else body.push(html);
  });
  const parts = [
    header.length > 0 ? `<header data-furniture="header">${header.join('')}</header>` : '',
    ...body,
    footer.length > 0 ? `<footer data-furniture="footer">${footer.join('')}</footer>` : '',
  ];
  return `<section data-page="${page.number}">${parts.join('')}</section>`;
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
  if (parser.mode === 'ocr') {
    throw new ServiceError(
      'NOT_YET_SUPPORTED',
      "The PDF parser's 'ocr' mode is not built yet in this folio build. Use mode 'fast' or 'auto', which read the PDF's text layer.",
    );
  }
  const { signal } = input;
  signal.throwIfAborted();
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument(documentParameters(input.bytes));
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

    const pages: PageText[] = [];
    const failed: number[] = [];
    for (let number = 1; number <= toRead; number++) {
      signal.throwIfAborted();
      try {
        pages.push(await readPage(doc, number));
      } catch (err) {
        signal.throwIfAborted();
        if (err instanceof ServiceError) throw err;
        failed.push(number);
      }
      input.onProgress?.({ done: number, total: toRead, unit: 'page' });
    }
    if (pages.length === 0) {
      throw new ServiceError('CORRUPT_FILE', 'No page of the PDF could be read: the file is damaged or truncated. Upload the complete file again.');
    }

    const warnings: string[] = [];
    if (looksTruncated(input.bytes)) {
      warnings.push('The PDF does not end with an end-of-file marker, so it is probably truncated: pages or text may be missing.');
    }
    if (failed.length > 0) {
      warnings.push(`${pagesPhrase(failed, 'could not be read (the PDF is damaged there) and was skipped.', 'could not be read (the PDF is damaged there) and were skipped.')}`);
    }
    const scanned = pages.filter((p) => p.paragraphs.length === 0).map((p) => p.number);
    if (scanned.length > 0) {
      warnings.push(
        `${pagesPhrase(scanned, 'has no text layer; it looks scanned.', 'have no text layer; they look scanned.')} OCR is not available in this build yet.`,
      );
    }

    const furniture = findFurniture(pages);
    const html = pages.map((page, i) => renderPage(page, furniture[i])).join('\n');
    const metadata = await readMetadata(pdfjs, doc);
    signal.throwIfAborted();
    const document = documentFromHtml(html, metadata.language);
    return {
      document,
      metadata,
      warnings,
      rawHtml: `<!DOCTYPE html>${document.documentElement.outerHTML}`,
      numPages: toRead,
      totalPages,
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    await task.destroy();
  }
}
