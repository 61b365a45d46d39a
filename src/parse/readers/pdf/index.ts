/**
 * The PDF reader: each page becomes `<section data-page="N">` holding the page's paragraphs
 * (text-layout.ts), with running headers and footers marked as furniture. Pages without a usable
 * text layer are OCRed (ocr.ts; `auto`), every page is in `ocr` mode, none in `fast` (a warning).
 */
import { ServiceError } from '../../../errors.ts';
import { documentFromHtml, escapeHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { pdfParserOptions } from '../../options.ts';
import { openError, pagesPhrase } from './errors.ts';
import { findFurniture, type PageFurniture, type PageParagraphs } from './furniture.ts';
import { pdfMetadata } from './metadata.ts';
import { extractPage } from './extract.ts';
import { readPages } from './ocr.ts';
import type { PageModel } from './page-model.ts';
import { documentParameters, loadPdfjs, type Pdfjs } from './pdfjs.ts';
import { paragraphsOf, type Line } from './text-layout.ts';

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

/**
 * Words → lines in source order (a line ends where the baseline moves), in the y-up terms
 * text-layout.ts's paragraphs use.
 */
function linesOfWords(model: PageModel): Line[] {
  const lines: Line[] = [];
  let current: (Line & { end: number }) | undefined;
  for (const w of model.words) {
    const baseline = -w.baseline;
    if (current && !w.rotated && Math.abs(current.baseline - baseline) <= 0.5 * Math.max(w.size, current.size) && w.x0 >= current.end - w.size) {
      current.text += (w.x0 - current.end > 0.1 * w.size ? ' ' : '') + w.text;
      current.end = Math.max(current.end, w.x1);
      current.size = Math.max(current.size, w.size);
    } else {
      current = { text: w.text, start: w.x0, baseline, size: w.size, font: w.font, end: w.x1 };
      lines.push(current);
    }
  }
  return lines;
}

function pageText(model: PageModel): PageText {
  return { number: model.number, paragraphs: paragraphsOf(linesOfWords(model)), top: 0, bottom: -model.height };
}

async function readPage(pdfjs: Pdfjs, doc: PdfDocument, number: number): Promise<PageModel> {
  const page = await doc.getPage(number);
  try {
    return await extractPage(pdfjs, page, number);
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
  const { signal } = input;
  signal.throwIfAborted();
  const pdfjs = await loadPdfjs();
  // `fast` is text extraction only (the spec's words): images are not decoded at all.
  const task = pdfjs.getDocument(documentParameters(input.bytes, { images: parser.mode !== 'fast' }));
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
      readPage(pdfjs, doc, n),
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

    const pages = models.map(pageText);
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
      numPages,
      totalPages,
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    await task.destroy();
  }
}
