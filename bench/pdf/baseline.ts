/**
 * The benchmark's floor: pdf.js's raw text in content-stream order, no layout analysis. Items of
 * `getTextContent()` are concatenated as they come, a newline after each item pdf.js marks
 * `hasEOL`, pages separated by a blank line. Same pdf.js build and font data as folio's reader.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | undefined;

function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    // No Web Worker in Node: hand pdf.js its worker module so it runs on this thread.
    const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

const PDFJS_ROOT = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

export interface BaselineOutput {
  markdown: string;
  pages: number;
  /** Each page's text, in page order (`markdown` is them joined by a blank line). */
  pageTexts: string[];
}

export async function pdfjsStreamText(bytes: Buffer): Promise<BaselineOutput> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    cMapUrl: path.join(PDFJS_ROOT, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(PDFJS_ROOT, 'standard_fonts') + path.sep,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text);
      page.cleanup();
    }
    return { markdown: pages.join('\n\n'), pages: doc.numPages, pageTexts: pages };
  } finally {
    await doc.destroy();
  }
}
