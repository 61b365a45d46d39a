import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { DEFAULT_SOURCE_LIMITS } from '../../src/parse/limits.ts';
import { checkPdfBounds } from '../../src/parse/readers/pdf/bounds.ts';
import { decodedLength } from '../../src/parse/readers/pdf/stream-filters.ts';
import { buildPdf, pdfHugeImage, pdfPathBomb, zlibRepeated } from '../helpers/hostile-files.ts';

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/** One page: a line of text, then `segments` line segments in one stroked path (or `drawing` as given). */
function textAndPaths(segments: number, drawing = `0 0 m\n${'10 10 l\n'.repeat(segments)}S\n`): Buffer {
  const content = zlib.deflateSync(Buffer.from(`BT /F1 12 Tf 72 700 Td (Text beside the drawing.) Tj ET\n${drawing}`));
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    stream('/Filter /FlateDecode', content),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/**
 * ISO 32000-1 §7.4.4 LZW as a PDF writer does it (EarlyChange 1): a clear code first, codes from 9
 * to 12 bits, the table cleared again before it fills, 257 at the end.
 */
function lzwEncode(input: Buffer): Buffer {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  let width = 9;
  let next = 258;
  let table = new Map<number, number>();
  const write = (code: number) => {
    buffer = (buffer << width) | code;
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      out.push((buffer >>> bits) & 0xff);
    }
    buffer &= (1 << bits) - 1;
  };
  write(256);
  let w = -1;
  for (const b of input) {
    if (w < 0) {
      w = b;
      continue;
    }
    const key = w * 256 + b;
    const known = table.get(key);
    if (known !== undefined) {
      w = known;
      continue;
    }
    write(w);
    table.set(key, next++);
    if (next >= 1 << width && width < 12) width++;
    w = b;
    if (next >= 4000) {
      write(256);
      table = new Map();
      next = 258;
      width = 9;
    }
  }
  if (w >= 0) write(w);
  write(257);
  if (bits > 0) out.push((buffer << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

/** §7.4.5: runs of one byte, 128 at a time. */
function runLengthRepeated(byte: number, count: number): Buffer {
  const out = Buffer.alloc(Math.ceil(count / 128) * 2 + 1);
  let at = 0;
  for (let left = count; left > 0; left -= 128) {
    out[at++] = 257 - Math.min(128, left);
    out[at++] = byte;
  }
  out[at] = 128;
  return out;
}

const FOUR_MB = { ...DEFAULT_SOURCE_LIMITS, maxPdfStreamBytes: 4 * 1024 * 1024 };
const onePage = (filter: string, data: Buffer) =>
  buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>', stream(`/Filter ${filter}`, data)]);

describe('pdf stream filters', () => {
  it('LZW, RunLength, ASCIIHex and ASCII85 decode to the bytes that were encoded', () => {
    const text = Buffer.from('BT /F1 12 Tf 72 700 Td (Stream filters, counted before pdf.js decodes them.) Tj ET\n'.repeat(400) + 'x'.repeat(70_000));
    expect(Buffer.from(decodedLength('LZWDecode', lzwEncode(text), 1 << 30, { keep: true }).bytes ?? [])).toEqual(text);
    expect(decodedLength('LZWDecode', lzwEncode(text), 1 << 30).length).toBe(text.length);
    expect(Buffer.from(decodedLength('RunLengthDecode', runLengthRepeated(0x41, 1000), 1 << 30, { keep: true }).bytes ?? [])).toEqual(Buffer.alloc(1000, 0x41));
    expect(Buffer.from(decodedLength('ASCIIHexDecode', Buffer.from('48 65 6c6C 6f>'), 100, { keep: true }).bytes ?? []).toString()).toBe('Hello');
    // "Hello" in ASCII85 (Adobe's encoding: 87cURD] then the partial group), and z for four zeros.
    expect(Buffer.from(decodedLength('ASCII85Decode', Buffer.from('87cURD]i,"Ebo80~>'), 100, { keep: true }).bytes ?? []).toString()).toBe('Hello World!');
    expect(Buffer.from(decodedLength('ASCII85Decode', Buffer.from('z~>'), 100, { keep: true }).bytes ?? [])).toEqual(Buffer.alloc(4));
  });

  it('pdf.js reads an LZW content stream written the same way (the encoder above is a PDF writer\'s)', async () => {
    const content = lzwEncode(Buffer.from('BT /F1 12 Tf 72 700 Td (Text in an LZW stream.) Tj ET\n'));
    const pdf = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      stream('/Filter /LZWDecode', content),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]);
    expect(() => checkPdfBounds(pdf, FOUR_MB, { images: true })).not.toThrow();
    const data = await parse({ bytes: pdf, filename: 'lzw.pdf' }, parseOptions({ formats: ['markdown'], timeout: 60_000 }));
    expect(data.markdown).toContain('Text in an LZW stream.');
  }, 60_000);

  it('refuses LZW and RunLength streams that decode past the limit, and a Flate bomb wrapped in ASCIIHex; keeps what stays under it', () => {
    const lzw = lzwEncode(Buffer.alloc(8 * 1024 * 1024, 0x20));
    expect(lzw.length).toBeLessThan(64 * 1024);
    expect(() => checkPdfBounds(onePage('/LZWDecode', lzw), FOUR_MB, { images: true })).toThrow(/decodes to more than 4 MB \(the limit FOLIO_MAX_PDF_STREAM_MB\)/);
    expect(() => checkPdfBounds(onePage('/LZWDecode', lzwEncode(Buffer.alloc(3 * 1024 * 1024, 0x20))), FOUR_MB, { images: true })).not.toThrow();
    expect(() => checkPdfBounds(onePage('/RunLengthDecode', runLengthRepeated(0x20, 8 * 1024 * 1024)), FOUR_MB, { images: true })).toThrow(/FOLIO_MAX_PDF_STREAM_MB/);
    expect(() => checkPdfBounds(onePage('/RunLengthDecode', runLengthRepeated(0x20, 3 * 1024 * 1024)), FOUR_MB, { images: true })).not.toThrow();
    const hexOverFlate = Buffer.from(zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024, 0x20)).toString('hex'));
    expect(() => checkPdfBounds(onePage('[/ASCIIHexDecode /FlateDecode]', hexOverFlate), FOUR_MB, { images: true })).toThrow(/FOLIO_MAX_PDF_STREAM_MB/);
    // Flate over LZW: the LZW layer's output is the bomb.
    expect(() => checkPdfBounds(onePage('[/FlateDecode /LZWDecode]', zlib.deflateSync(lzw)), FOUR_MB, { images: true })).toThrow(/FOLIO_MAX_PDF_STREAM_MB/);
  });
});

describe('pdf bounds', () => {
  it('refuses a stream that inflates past the limit, and one that does so through two Flate layers', () => {
    expect(() => checkPdfBounds(pdfPathBomb({ inflatedBytes: 8 * 1024 * 1024 }), { ...DEFAULT_SOURCE_LIMITS, maxPdfStreamBytes: 4 * 1024 * 1024 }, { images: true })).toThrow(
      /more than 4 MB \(the limit FOLIO_MAX_PDF_STREAM_MB\)/,
    );
    const twice = zlib.deflateSync(zlibRepeated('', '0 0 m 1 1 l S\n', 8 * 1024 * 1024));
    const pdf = buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>', stream('/Filter [/FlateDecode /FlateDecode]', twice)]);
    expect(twice.length * 1032).toBeLessThan(4 * 1024 * 1024);
    expect(() => checkPdfBounds(pdf, { ...DEFAULT_SOURCE_LIMITS, maxPdfStreamBytes: 4 * 1024 * 1024 }, { images: true })).toThrow(/FOLIO_MAX_PDF_STREAM_MB/);
  });

  it('inflates an image stream only when images are decoded: pdf.js skips every image in fast mode', () => {
    // A 100×100 image whose data inflates to 8 MB: refused when images are decoded; in fast mode
    // pdf.js never reads the data (maxImageSize 1 skips the image on its dictionary), so the
    // check does not spend the time inflating it.
    const data = zlibRepeated('', '\u0000', 8 * 1024 * 1024);
    const pdf = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      stream('/Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', data),
    ]);
    const limits = { ...DEFAULT_SOURCE_LIMITS, maxPdfStreamBytes: 4 * 1024 * 1024 };
    expect(data.length * 1032).toBeGreaterThan(limits.maxPdfStreamBytes);
    expect(() => checkPdfBounds(pdf, limits, { images: true })).toThrow(/FOLIO_MAX_PDF_STREAM_MB/);
    expect(() => checkPdfBounds(pdf, limits, { images: false })).not.toThrow();
  });

  it('refuses a huge image only when images are decoded (not in fast mode)', () => {
    expect(() => checkPdfBounds(pdfHugeImage(), DEFAULT_SOURCE_LIMITS, { images: true })).toThrow(/FOLIO_MAX_IMAGE_MEGAPIXELS/);
    expect(() => checkPdfBounds(pdfHugeImage(), DEFAULT_SOURCE_LIMITS, { images: false })).not.toThrow();
  });

  it('a page over the path-segment limit keeps its text, loses its drawing, and the warning names the page and the limit', async () => {
    const data = await parse({ bytes: textAndPaths(20_000), filename: 'paths.pdf' }, parseOptions({ formats: ['markdown'], timeout: 60_000 }), { limits: { maxPdfPathSegments: 10_000 } });
    expect(data.markdown).toContain('Text beside the drawing.');
    expect(data.warning).toMatch(/Page 1 draws more than 10000 path segments \(the limit FOLIO_MAX_PDF_PATH_SEGMENTS\)/);
    const within = await parse({ bytes: textAndPaths(2_000), filename: 'paths.pdf' }, parseOptions({ formats: ['markdown'], timeout: 60_000 }), { limits: { maxPdfPathSegments: 10_000 } });
    expect(within.warning ?? '').not.toMatch(/path segments/);
  }, 60_000);

  // Within the limits, a page may still draw tens of thousands of rules or boxes: the layout's
  // pairwise searches (a captioned figure's frame, a drawing under a table's region) are bounded,
  // so such a page costs about what it takes to read (quadratic, these took 3-4 minutes).
  it('a page of 40000 rules under a figure caption, or of 60000 nested boxes over a table-like text, is read in seconds', async () => {
    const fast = parseOptions({ formats: ['markdown'], timeout: 60_000, parsers: [{ type: 'pdf', mode: 'fast' }] });
    const rules = ['0.2 w', ...Array.from({ length: 40_000 }, (_, i) => (i % 2 === 0 ? `72 ${100 + (i % 600)} m 400 ${100 + (i % 600)} l S` : `${i % 4 === 1 ? 72 : 400} 100 m ${i % 4 === 1 ? 72 : 400} 700 l S`))];
    const boxes = Array.from({ length: 60_000 }, (_, i) => {
      const d = (i * 40) / 60_000;
      return `${(74 + d).toFixed(4)} ${(585 + d).toFixed(4)} ${(270 - 2 * d).toFixed(4)} ${(100 - 2 * d).toFixed(4)} re f`;
    });
    const rows = Array.from({ length: 8 }, (_, r) => `BT /F1 10 Tf 72 ${680 - r * 14} Td (Item${r}) Tj ET BT /F1 10 Tf 200 ${680 - r * 14} Td (${r * 13}.5) Tj ET BT /F1 10 Tf 330 ${680 - r * 14} Td (${r * 7}.25) Tj ET`);
    for (const drawing of [[...rules, 'BT /F1 10 Tf 72 90 Td (Figure 1: hatching.) Tj ET'], ['0.9 g', ...boxes, '0 g', ...rows]]) {
      const started = Date.now();
      const data = await parse({ bytes: textAndPaths(0, `${drawing.join('\n')}\n`), filename: 'drawn.pdf' }, fast);
      expect(data.markdown).toContain('Text beside the drawing.');
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  }, 120_000);

  it('a page over the operator limit keeps its text, loses its drawing, and the warning names the page and the limit', async () => {
    const data = await parse({ bytes: textAndPaths(0, '0.5 w\n1 w\n'.repeat(10_000)), filename: 'ops.pdf' }, parseOptions({ formats: ['markdown'], timeout: 60_000 }), {
      limits: { maxPdfOperatorsPerPage: 10_000 },
    });
    expect(data.markdown).toContain('Text beside the drawing.');
    expect(data.warning).toMatch(/Page 1 draws more than 10000 drawing operators \(the limit FOLIO_MAX_PDF_OPERATORS\)/);
  }, 60_000);
});
