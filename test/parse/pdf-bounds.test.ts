import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { DEFAULT_SOURCE_LIMITS } from '../../src/parse/limits.ts';
import { checkPdfBounds } from '../../src/parse/readers/pdf/bounds.ts';
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

  it('a page over the operator limit keeps its text, loses its drawing, and the warning names the page and the limit', async () => {
    const data = await parse({ bytes: textAndPaths(0, '0.5 w\n1 w\n'.repeat(10_000)), filename: 'ops.pdf' }, parseOptions({ formats: ['markdown'], timeout: 60_000 }), {
      limits: { maxPdfOperatorsPerPage: 10_000 },
    });
    expect(data.markdown).toContain('Text beside the drawing.');
    expect(data.warning).toMatch(/Page 1 draws more than 10000 drawing operators \(the limit FOLIO_MAX_PDF_OPERATORS\)/);
  }, 60_000);
});
