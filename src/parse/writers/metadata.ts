/**
 * data.metadata (interface-v2 "data.metadata"): what the reader found, plus where the document
 * came from. Extra keys are strings or arrays of strings, as the spec allows.
 */
import type { Detected } from '../detect.ts';
import type { ReadResult } from '../document.ts';

export interface ResponseMetadata {
  title?: string;
  description?: string;
  keywords?: string;
  language?: string | null;
  sourceURL: string;
  url: string;
  statusCode: number;
  contentType: string;
  numPages?: number;
  totalPages?: number;
  [key: string]: string | string[] | number | boolean | null | undefined;
}

/** A stable `file:` URL naming an upload by its base name, never by a server path. */
export function uploadUrl(filename: string): string {
  const base = filename.split(/[\\/]/).pop() || 'upload';
  return `file:///${encodeURIComponent(base)}`;
}

const RESERVED = new Set(['title', 'description', 'keywords', 'language', 'sourceURL', 'url', 'statusCode', 'contentType', 'numPages', 'totalPages', 'error', 'concurrencyLimited', 'concurrencyQueueDurationMs']);

export function buildMetadata(read: ReadResult, detected: Detected, source: { sourceURL: string; url: string; statusCode: number }): ResponseMetadata {
  const m = read.metadata;
  const out: ResponseMetadata = {
    ...Object.fromEntries(Object.entries(m.extra).filter(([k]) => !RESERVED.has(k))),
    sourceURL: source.sourceURL,
    url: source.url,
    statusCode: source.statusCode,
    contentType: detected.contentType,
  };
  if (m.title) out.title = m.title;
  if (m.description) out.description = m.description;
  if (m.keywords) out.keywords = m.keywords;
  out.language = m.language ?? null;
  if (read.numPages !== undefined) out.numPages = read.numPages;
  if (read.totalPages !== undefined) out.totalPages = read.totalPages;
  return out;
}
