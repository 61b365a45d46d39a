/**
 * A server without pdftoppm or tesseract (their packages not installed): OCR answers
 * NOT_CONFIGURED with what to install, and fast mode, which needs neither, still reads.
 * Its own file: the programs are looked up on PATH, which this test empties for its process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';

const savedPath = process.env.PATH;

beforeAll(() => {
  process.env.PATH = '/nonexistent-folio-test-dir';
});

afterAll(() => {
  process.env.PATH = savedPath;
});

describe('PDF OCR without the OCR programs', () => {
  it('is NOT_CONFIGURED in auto and ocr mode, naming the packages; fast mode warns instead', async () => {
    const scan = readCorpus('pdf', 'olmocr', 'pdfs', 'lincoln_letter.pdf');
    for (const mode of ['auto', 'ocr'] as const) {
      const failure = await serviceFailure(readPdf(readInput('pdf', scan, { options: { parsers: [{ type: 'pdf', mode }] } })));
      expect(failure.code).toBe('NOT_CONFIGURED');
      expect(failure.message).toContain('OCR is not available on this server: pdftoppm (poppler-utils) is not installed.');
      expect(failure.message).toContain("parse with mode 'fast'");
    }
    const fast = await readPdf(readInput('pdf', scan, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    expect(fast.warnings).toEqual(["Page 1 has no usable text layer; it looks scanned. Parse with mode 'auto' or 'ocr' to read it."]);
    // A text PDF in auto mode needs no OCR, so no OCR program either.
    const text = await readPdf(readInput('pdf', readCorpus('pdf', 'docling', 'multi_page.pdf')));
    expect(text.warnings).toEqual([]);
  });
});
