/**
 * Limits a PDF's streams must keep, checked on the file's bytes before pdf.js reads it: pdf.js
 * inflates a content stream into one growing buffer and decodes an image into width × height
 * pixels, whatever the file weighs, so a 1 MB file can ask for gigabytes. Each stream
 * (`<<dict>> stream … endstream`, ISO 32000-1 §7.3.8; streams are never inside object streams)
 * is looked at once:
 *
 * - an image XObject (`/Subtype /Image`) wider × higher than `maxImagePixels` refuses the file
 *   (when images are decoded at all: not in `fast` mode);
 * - a FlateDecode stream that could inflate past `maxPdfStreamBytes` is inflated here, counting
 *   and discarding, and refuses the file the moment it passes the limit (an image's only when
 *   images are decoded: in `fast` mode pdf.js skips every image on its dictionary). Deflate
 *   cannot expand more than 1032:1, so a single-filter stream smaller than limit/1032 is never
 *   inflated twice; chained filters (Flate over Flate) are always counted.
 *
 * Other filters (LZW, RunLength) and inline images are left to pdf.js's own `maxImageSize` and
 * the worker's memory cap.
 */
import { Unzlib } from 'fflate';
import { ServiceError } from '../../../errors.ts';
import { megabytes, type SourceLimits } from '../../limits.ts';

/** Deflate's largest expansion (RFC 1951: a 258-byte match in ~2 bits). */
const DEFLATE_MAX_RATIO = 1032;
const SLICE = 16 * 1024;

function refuse(what: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The PDF could not be read: ${what}. Real documents stay below that; if yours is one, raise the limit on the server.`);
}

/** Bytes the zlib stream inflates to, counted until it ends or passes `limit` (then limit + 1). Damaged data counts what came before. */
export function inflatedLength(data: Uint8Array, limit: number, keep = false): { length: number; bytes?: Uint8Array } {
  let length = 0;
  let over = false;
  const kept: Uint8Array[] = [];
  const inflater = new Unzlib((chunk) => {
    length += chunk.length;
    if (length > limit) over = true;
    else if (keep) kept.push(chunk);
  });
  try {
    for (let at = 0; at < data.length && !over; at += SLICE) {
      const end = Math.min(at + SLICE, data.length);
      inflater.push(data.subarray(at, end), end === data.length);
    }
  } catch {
    // Damaged or unterminated: pdf.js reads what it can, and so far is all it gets.
  }
  if (over) return { length: limit + 1 };
  if (!keep) return { length };
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const c of kept) {
    bytes.set(c, at);
    at += c.length;
  }
  return { length, bytes };
}

function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m) return [];
  return [...(m[1] ?? '').matchAll(/\/([A-Za-z0-9]+)/g)].map((f) => f[1] ?? '');
}

function directNumber(dict: string, key: string): number | undefined {
  const m = new RegExp(`/${key}\\s+(\\d+)(?!\\s+\\d+\\s+R)`).exec(dict);
  return m ? Number(m[1]) : undefined;
}

export function checkPdfBounds(bytes: Buffer, limits: Pick<SourceLimits, 'maxImagePixels' | 'maxPdfStreamBytes'>, { images }: { images: boolean }): void {
  const streamLimit = limits.maxPdfStreamBytes;
  for (let at = bytes.indexOf('stream'); at >= 0; at = bytes.indexOf('stream', at + 6)) {
    // `endstream`, or a word that merely contains "stream": not a stream's start.
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + 6;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a && bytes[start - 1] !== 0x0d) continue;
    if (bytes[start] === 0x0a) start++;
    // The dictionary: back to the object's `obj` keyword (a dictionary over 64 KB is not looked at).
    let head = bytes.toString('latin1', Math.max(0, at - 4096), at);
    let objAt = head.lastIndexOf('obj');
    if (objAt < 0) {
      head = bytes.toString('latin1', Math.max(0, at - 65_536), at);
      objAt = head.lastIndexOf('obj');
    }
    if (objAt < 0) continue;
    const dict = head.slice(objAt + 3);
    const declared = directNumber(dict, 'Length');
    let end = declared !== undefined && start + declared <= bytes.length && /^\s*endstream/.test(bytes.toString('latin1', start + declared, start + declared + 12)) ? start + declared : bytes.indexOf('endstream', start);
    if (end < 0) end = bytes.length;
    at = Math.max(at, end);

    const image = /\/Subtype\s*\/Image\b/.test(dict);
    // Without images (mode fast) pdf.js never decodes an image's data (maxImageSize 1 skips it
    // on its dictionary): inflating it here would only cost time.
    if (image && !images) continue;
    if (image) {
      const width = directNumber(dict, 'Width') ?? directNumber(dict, 'W');
      const height = directNumber(dict, 'Height') ?? directNumber(dict, 'H');
      if (width !== undefined && height !== undefined && width * height > limits.maxImagePixels) {
        throw refuse(`it holds a ${width}×${height} image, more than the ${limits.maxImagePixels / 1_000_000} million pixels folio decodes (the limit FOLIO_MAX_IMAGE_MEGAPIXELS)`);
      }
    }
    const filters = filtersOf(dict);
    const flates = filters.filter((f) => f === 'FlateDecode' || f === 'Fl').length;
    if (flates === 0) continue;
    const data = bytes.subarray(start, end);
    if (flates === 1 && data.length * DEFLATE_MAX_RATIO <= streamLimit) continue;
    // Layer by layer while the filters are Flate; each layer's output is bounded.
    let layer: Uint8Array = data;
    for (let i = 0; i < filters.length; i++) {
      const f = filters[i];
      if (f !== 'FlateDecode' && f !== 'Fl') break;
      const last = i === filters.length - 1 || (filters[i + 1] !== 'FlateDecode' && filters[i + 1] !== 'Fl');
      const out = inflatedLength(layer, streamLimit, !last);
      if (out.length > streamLimit) {
        throw refuse(`one of its streams inflates to more than ${megabytes(streamLimit)} (the limit FOLIO_MAX_PDF_STREAM_MB)`);
      }
      if (last || !out.bytes) break;
      layer = out.bytes;
    }
  }
}
