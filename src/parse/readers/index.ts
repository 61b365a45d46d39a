/**
 * One reader per document kind; each produces the same intermediate document. Readers load on
 * first use, so a one-off parse (the CLI) pays only for the reader it needs; the parse pool's
 * workers call `preloadReaders()` before they take work.
 */
import type { DocumentKind } from '../detect.ts';
import type { Reader } from '../document.ts';

const LOADERS: Record<DocumentKind, () => Promise<Reader>> = {
  html: async () => (await import('./html/index.ts')).readHtml,
  pdf: async () => (await import('./pdf/index.ts')).readPdf,
  docx: async () => (await import('./docx/index.ts')).readDocx,
  xlsx: async () => (await import('./spreadsheet/index.ts')).readSpreadsheet,
  xls: async () => (await import('./spreadsheet/index.ts')).readSpreadsheet,
  doc: async () => (await import('./doc/index.ts')).readDoc,
  odt: async () => (await import('./odt/index.ts')).readOdt,
  rtf: async () => (await import('./rtf/index.ts')).readRtf,
};

const loaded = new Map<DocumentKind, Promise<Reader>>();

export function readerFor(kind: DocumentKind): Promise<Reader> {
  let reader = loaded.get(kind);
  if (!reader) {
    reader = LOADERS[kind]();
    loaded.set(kind, reader);
  }
  return reader;
}

/** Loads every reader (and what it loads lazily itself, where it offers a way). */
export async function preloadReaders(): Promise<void> {
  await Promise.all((Object.keys(LOADERS) as DocumentKind[]).map(readerFor));
  await (await import('./pdf/pdfjs.ts')).loadPdfjs();
}
