/** Shared by the HTML reader and clean tests: read corpus pages (or bytes) and clean them. */
import { clean } from '../../src/parse/clean/index.ts';
import type { DocumentKind } from '../../src/parse/detect.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';
import { readHtml } from '../../src/parse/readers/html/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

/** Readability's tests resolve the saved pages against this URL. */
export const READABILITY_BASE = 'http://fakehost/test/page.html';

export async function readBytes(bytes: Buffer, options: ParseOptionsInput = {}): Promise<ReadResult> {
  return readHtml(readInput('html', bytes, { filename: 'page.html', options }));
}

export async function readPage(corpusRelative: string): Promise<ReadResult> {
  return readBytes(readCorpus(...corpusRelative.split('/')));
}

/** Reads and cleans HTML; `baseUrl` stands in for the URL a fetched page would have. */
export async function cleanBytes(bytes: Buffer, options: ParseOptionsInput = {}, baseUrl?: string): Promise<ReadResult> {
  const read = await readBytes(bytes, options);
  if (baseUrl !== undefined) read.baseUrl = baseUrl;
  clean(read, parseOptions(options), 'html');
  return read;
}

export async function cleanPage(corpusRelative: string, options: ParseOptionsInput = {}, baseUrl?: string): Promise<ReadResult> {
  return cleanBytes(readCorpus(...corpusRelative.split('/')), options, baseUrl);
}

export async function cleanHtml(html: string, options: ParseOptionsInput = {}, baseUrl?: string): Promise<ReadResult> {
  return cleanBytes(Buffer.from(html, 'utf8'), options, baseUrl);
}

/** Cleans a document as a reader of another kind would hand it over. */
export function cleanAs(kind: DocumentKind, read: ReadResult, options: ParseOptionsInput = {}): ReadResult {
  clean(read, parseOptions(options), kind);
  return read;
}

/** The body's text with white space collapsed. */
export function bodyText(read: ReadResult): string {
  return normalize(read.document.body.textContent ?? '');
}

export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
