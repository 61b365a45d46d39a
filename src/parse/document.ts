/**
 * The intermediate document (DESIGN.md "The one pipeline"): a semantic HTML tree with a small
 * fixed vocabulary, held as a DOM. Readers produce it, cleaners edit it in place, writers only
 * read it. A reader never emits markdown.
 *
 * Vocabulary: h1–h6, p, br, ul/ol/li, table/thead/tbody/tr/th/td (colspan/rowspan), a, img,
 * pre/code, blockquote, em/strong/sup/sub/s, hr, and `section data-page="N"` for PDF pages.
 * HTML input keeps its own tree until the cleaners have run; the writers tolerate other
 * elements by treating unknown ones as transparent containers.
 */
import { parseHTML } from 'linkedom';
import type { DocumentKind } from './detect.ts';
import type { SourceLimits } from './limits.ts';
import type { OcrSettings } from './ocr/settings.ts';
import type { ParseOptions } from './options.ts';

/** Metadata a reader found in the document (properties, `<head>`, XMP, …). */
export interface DocumentMetadata {
  title?: string;
  description?: string;
  keywords?: string;
  language?: string;
  /** Other keys, as the spec allows ("any other key: string or array of string"). */
  extra: Record<string, string | string[]>;
}

export interface Progress {
  done: number;
  total: number;
  unit: 'page' | 'sheet';
}

export interface ReadInput {
  bytes: Buffer;
  filename: string;
  kind: DocumentKind;
  /** The finer format detect() found (e.g. `rtf` for a `.doc` that is RTF). */
  format: string;
  options: ParseOptions;
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Epoch ms by which reading should end (deadline.ts); page-by-page readers return what they have by then. */
  deadline?: number;
  /** PDF OCR settings from the server's config. */
  ocr?: OcrSettings;
  /** Limits at the source (limits.ts); defaults when left out. */
  limits?: Partial<SourceLimits>;
}

export interface ReadResult {
  /** The intermediate document. Content lives in `document.body`. */
  document: Document;
  metadata: DocumentMetadata;
  /** Things the reader skipped or approximated: data, not exceptions. */
  warnings: string[];
  /**
   * The document as HTML before any cleaning or filtering: for HTML input, the input text
   * exactly as received (decoded); for other kinds, the reader's tree serialized.
   */
  rawHtml: string;
  /** Base for making relative URLs absolute (`<base href>`), when the document has one. */
  baseUrl?: string;
  /** PDF only: pages processed and the real page count. */
  numPages?: number;
  totalPages?: number;
}

export type Reader = (input: ReadInput) => Promise<ReadResult>;

export function emptyMetadata(): DocumentMetadata {
  return { extra: {} };
}

/** A fresh intermediate document whose body is the given HTML. */
export function documentFromHtml(bodyHtml: string, lang?: string): Document {
  const langAttr = lang ? ` lang="${lang.replace(/[^A-Za-z0-9-]/g, '')}"` : '';
  const { document } = parseHTML(`<!doctype html><html${langAttr}><head></head><body>${bodyHtml}</body></html>`);
  return document;
}

/** Escapes text for inclusion in HTML built by a reader. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
