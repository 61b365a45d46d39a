/**
 * Limits a PDF's streams must keep, checked on the file's bytes before pdf.js reads it: pdf.js
 * inflates a content stream into one growing buffer and decodes an image into width × height
 * pixels, whatever the file weighs, so a 1 MB file can ask for gigabytes. Each stream
 * (`<<dict>> stream … endstream`, ISO 32000-1 §7.3.8; streams are never inside object streams)
 * is looked at once:
 *
 * - an image XObject (`/Subtype /Image`) wider × higher than `maxImagePixels` refuses the file
 *   (when images are decoded at all: not in `fast` mode);
 * - a stream whose filters (Flate, LZW, RunLength, ASCII85, ASCIIHex, chained in any order)
 *   could decode past `maxPdfStreamBytes` is decoded here, counting and discarding
 *   (stream-filters.ts), and refuses the file the moment it passes the limit. Each filter has a
 *   largest expansion (Flate 1032:1, LZW under 3641:1, RunLength 64:1), so a stream smaller than
 *   the limit over the product of its filters' ratios is never decoded twice. An image's
 *   stream is looked at only when images are decoded: in `fast` mode pdf.js skips every image
 *   on its dictionary.
 *
 * Inline images are left to pdf.js's own `maxImageSize` and the worker's memory cap.
 */
import { ServiceError } from '../../../errors.ts';
import { megabytes, type SourceLimits } from '../../limits.ts';
import { countedFilter, decodedLength, maxRatio } from './stream-filters.ts';

function refuse(what: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The PDF could not be read: ${what}. Real documents stay below that; if yours is one, raise the limit on the server.`);
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
    // The chain's filters this check can decode, in order; an image-only filter ends it.
    const chain: string[] = [];
    for (const f of filters) {
      const counted = countedFilter(f);
      if (!counted) break;
      chain.push(counted);
    }
    if (chain.length === 0) continue;
    const data = bytes.subarray(start, end);
    if (data.length * chain.reduce((r, f) => r * maxRatio(f), 1) <= streamLimit) continue;
    const earlyChange = directNumber(dict, 'EarlyChange');
    let layer: Uint8Array = data;
    for (let i = 0; i < chain.length; i++) {
      const last = i === chain.length - 1;
      const out = decodedLength(chain[i] as string, layer, streamLimit, { keep: !last, ...(earlyChange !== undefined ? { earlyChange } : {}) });
      if (out.length > streamLimit) {
        throw refuse(`one of its streams decodes to more than ${megabytes(streamLimit)} (the limit FOLIO_MAX_PDF_STREAM_MB)`);
      }
      if (last || !out.bytes) break;
      layer = out.bytes;
    }
  }
}
