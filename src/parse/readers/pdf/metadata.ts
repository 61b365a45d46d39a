/**
 * PDF metadata: the document information dictionary (pdf.js `info`, which also carries the
 * catalog's `/Lang` as `Language`) with the XMP packet as a fallback — and, for the title, XMP
 * first, as PDF viewers do (its `dc:title` is Unicode and usually the maintained one).
 */
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';

/** What pdf.js's getMetadata() returns, narrowed to what is read here. */
export interface PdfMetadataSource {
  info: unknown;
  /** pdf.js Metadata: `get(name)` with lower-cased XMP names (`dc:title`). */
  xmp: { get(name: string): unknown } | null | undefined;
  /** pdf.js PDFDateString.toDateObject. */
  toDate(text: string): Date | null;
}

function clean(value: unknown): string | undefined {
  if (Array.isArray(value)) return clean(value.filter((v) => typeof v === 'string').join(', '));
  if (typeof value !== 'string') return undefined;
  // Some producers pad with NULs or leave a BOM in the string.
  const text = value.replace(/[\u0000\uFEFF]/g, '').replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}

function field(info: unknown, key: string): unknown {
  return typeof info === 'object' && info !== null ? (info as Record<string, unknown>)[key] : undefined;
}

/** A BCP 47-looking language tag, or undefined. */
function languageTag(value: unknown): string | undefined {
  const text = clean(Array.isArray(value) ? value[0] : value)?.split(/[\s,]+/)[0];
  if (!text || text.toLowerCase() === 'x-unknown') return undefined;
  return /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(text) ? text : undefined;
}

export function pdfMetadata(source: PdfMetadataSource): DocumentMetadata {
  const metadata = emptyMetadata();
  const { info } = source;
  const xmp = (name: string): unknown => {
    try {
      return source.xmp?.get(name);
    } catch {
      return undefined;
    }
  };
  const date = (value: unknown): string | undefined => {
    const text = clean(value);
    if (!text) return undefined;
    const parsed = source.toDate(text) ?? new Date(text);
    return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
  };

  const title = clean(xmp('dc:title')) ?? clean(field(info, 'Title'));
  const description = clean(field(info, 'Subject')) ?? clean(xmp('dc:description'));
  const keywords = clean(field(info, 'Keywords')) ?? clean(xmp('pdf:keywords'));
  const language = languageTag(field(info, 'Language')) ?? languageTag(xmp('dc:language'));
  if (title) metadata.title = title;
  if (description) metadata.description = description;
  if (keywords) metadata.keywords = keywords;
  if (language) metadata.language = language;

  const extra: [string, string | undefined][] = [
    ['author', clean(field(info, 'Author')) ?? clean(xmp('dc:creator'))],
    ['creator', clean(field(info, 'Creator')) ?? clean(xmp('xmp:creatortool'))],
    ['producer', clean(field(info, 'Producer')) ?? clean(xmp('pdf:producer'))],
    ['created', date(field(info, 'CreationDate')) ?? date(xmp('xmp:createdate'))],
    ['modified', date(field(info, 'ModDate')) ?? date(xmp('xmp:modifydate'))],
  ];
  for (const [key, value] of extra) if (value) metadata.extra[key] = value;
  return metadata;
}
