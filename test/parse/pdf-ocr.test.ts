/**
 * PDF OCR end to end in the reader, with the real pdftoppm and tesseract (scripts/setup.sh
 * installs them): scanned pages made at test time from corpus pages (pdf-ocr-fixtures.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress, ReadResult } from '../../src/parse/document.ts';
import { ocrPage } from '../../src/parse/ocr/page.ts';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { corpusPath, readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure, type ReadInputOverrides } from '../helpers/read-input.ts';
import { buildPdf, ocrChildren, type FixturePage } from './pdf-ocr-fixtures.ts';

const MULTI_PAGE = ['pdf', 'docling', 'multi_page.pdf'];
const scan = (page: number): FixturePage => ({ scan: { file: MULTI_PAGE, page } });
const TEXT_PAGE: FixturePage = { text: ['Folio keeps this text layer', 'Quarterly invoice summary'] };

type Extra = ReadInputOverrides & { deadline?: number; ocr?: { languages?: string; concurrency?: number; tempDir?: string } };

function read(bytes: Buffer, mode: 'fast' | 'auto' | 'ocr', extra: Extra = {}, maxPages?: number): Promise<ReadResult> {
  const { deadline, ocr, ...overrides } = extra;
  const input = readInput('pdf', bytes, { ...overrides, options: { parsers: [{ type: 'pdf', mode, ...(maxPages ? { maxPages } : {}) }] } });
  return readPdf({ ...input, ...(deadline !== undefined ? { deadline } : {}), ...(ocr ? { ocr } : {}) });
}

function pageText(result: ReadResult, page: number): string {
  return (result.document.querySelector(`section[data-page="${page}"]`)?.textContent ?? '').replace(/\s+/g, ' ');
}

/**
 * The tests that check OCR leaves no temporary folder give it a folder of their own: other test
 * files (and other parses on the machine) OCR at the same time in the system's.
 */
const ownTemp = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-ocr-test-'));
function ocrTempDirs(): string[] {
  return fs.readdirSync(ownTemp);
}

let mixed: Buffer;
let scans: Buffer;
// Temporary folders as a parse stopped outright leaves them: one older than any parse, one recent.
const stale = path.join(os.tmpdir(), `folio-ocr-stale-${process.pid}`);
const recent = path.join(os.tmpdir(), `folio-ocr-recent-${process.pid}`);

beforeAll(() => {
  // Page 3: a scan under a stamped line of text, too thin a text layer for its ink.
  mixed = buildPdf([scan(1), TEXT_PAGE, { scan: { file: MULTI_PAGE, page: 2, stamp: 'Downloaded from the folio archive on 23 November 2026' } }]);
  scans = buildPdf([TEXT_PAGE, scan(1), scan(2), scan(3)]);
  for (const dir of [stale, recent]) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'input.pdf'), 'left behind', { mode: 0o600 });
  }
  const anHourAgo = new Date(Date.now() - 3_600_000);
  fs.utimesSync(stale, anHourAgo, anHourAgo);
});

afterAll(() => {
  fs.rmSync(ownTemp, { recursive: true, force: true });
  fs.rmSync(recent, { recursive: true, force: true });
  fs.rmSync(stale, { recursive: true, force: true });
});

describe('PDF OCR (tesseract)', () => {
  it('auto OCRs the scanned pages of a mixed document (no text layer; a stamped one), keeps the text page, and reports progress page by page', async () => {
    const progress: Progress[] = [];
    const result = await read(mixed, 'auto', { onProgress: (p) => progress.push(p) });
    expect(result.numPages).toBe(3);
    expect(pageText(result, 1)).toContain('The Evolution of the Word Processor');
    expect(pageText(result, 1)).toMatch(/invention of the typewriter/);
    expect(pageText(result, 2)).toContain('Folio keeps this text layer');
    expect(pageText(result, 3)).toMatch(/WordPerfect/);
    expect(pageText(result, 3)).toContain('The Modern Era');
    // OCR read the stamp too, from the pixels.
    expect(pageText(result, 3)).toMatch(/Downloaded from the folio archive/);
    expect(result.warnings.join(' ')).not.toMatch(/scanned|OCR/);
    // Monotonic, one event per page, ending at the total.
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3]);
    expect(progress.every((p) => p.total === 3 && p.unit === 'page')).toBe(true);
    // The first OCR swept the folder a stopped parse left an hour ago, and kept the recent one.
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
  });

  it('places OCR words where the text layer has them, in page points, with a comparable font size', async () => {
    const pdfjs = await loadPdfjs();
    const doc = await pdfjs.getDocument(documentParameters(readCorpus(...MULTI_PAGE))).promise;
    const text = await extractPage(pdfjs, await doc.getPage(1), 1);
    await doc.destroy();
    // Poppler's own word boxes (from the fonts' glyph widths) are the reference for x.
    const bbox = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox', corpusPath(...MULTI_PAGE), '-'], { encoding: 'utf8' });
    const poppler = [...bbox.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({
      x0: Number(m[1]),
      x1: Number(m[2]),
      text: m[3],
    }));
    const { words, script } = await ocrPage(corpusPath(...MULTI_PAGE), 1, text, 'eng', new AbortController().signal);
    // A clean English page: read well, so its script is not asked for.
    expect(script).toBeUndefined();
    let compared = 0;
    for (const word of ['Evolution', 'typewriter', 'Sholes,', 'revolutionized', 'Pre-Digital']) {
      const reference = poppler.find((w) => w.text === word);
      const layer = text.words.find((w) => w.text === word);
      const ocr = words.find((w) => w.text === word);
      if (!reference || !layer || !ocr) throw new Error(`'${word}' not found on every side`);
      expect(Math.abs(reference.x0 - ocr.x0)).toBeLessThan(2);
      expect(Math.abs(reference.x1 - ocr.x1)).toBeLessThan(2);
      expect(Math.abs(layer.baseline - ocr.baseline)).toBeLessThan(1.5);
      expect(ocr.size / layer.size).toBeGreaterThan(0.85);
      expect(ocr.size / layer.size).toBeLessThan(1.15);
      // The weight comes from the pixels (weight.ts): bold where the text layer's font is bold.
      expect(ocr).toMatchObject({ font: 'ocr', bold: layer.bold, italic: false, rotated: false });
      compared++;
    }
    expect(compared).toBe(5);
    // The heading is set larger than the body, and OCR sees it so.
    const heading = words.find((w) => w.text === 'Pre-Digital');
    const body = words.find((w) => w.text === 'revolutionized');
    expect((heading?.size ?? 0) > (body?.size ?? 0)).toBe(true);
  });

  it('reads the weight of the type from the pixels: bold heads bold, the running text regular', async () => {
    const pdfjs = await loadPdfjs();
    const doc = await pdfjs.getDocument(documentParameters(readCorpus(...MULTI_PAGE))).promise;
    const text = await extractPage(pdfjs, await doc.getPage(2), 2);
    await doc.destroy();
    const { words } = await ocrPage(corpusPath(...MULTI_PAGE), 2, text, 'eng', new AbortController().signal);
    // Each OCR word against the text layer's word of the same text at the same place.
    let agree = 0;
    let compared = 0;
    let boldHeads = 0;
    for (const ocr of words) {
      const layer = text.words.find((w) => w.text === ocr.text && Math.abs(w.x0 - ocr.x0) < 3 && Math.abs(w.baseline - ocr.baseline) < 3);
      if (!layer) continue;
      compared++;
      if (layer.bold === ocr.bold) agree++;
      if (layer.bold && ocr.bold) boldHeads++;
    }
    expect(compared).toBeGreaterThan(100);
    expect(agree / compared).toBeGreaterThan(0.95);
    expect(boldHeads).toBeGreaterThanOrEqual(5);
  });

  it('fast never OCRs: one warning names the scanned pages', async () => {
    const result = await read(buildPdf([scan(1), TEXT_PAGE, scan(2)]), 'fast');
    expect(pageText(result, 1).trim()).toBe('');
    expect(pageText(result, 2)).toContain('Folio keeps this text layer');
    expect(result.warnings).toContain("Pages 1 and 3 have no usable text layer; they look scanned. Parse with mode 'auto' or 'ocr' to read them.");
    // fast reads no images, so a scan under a stamped line of text passes for a text page.
    const stamped = await read(mixed, 'fast');
    expect(stamped.warnings).toContain("Page 1 has no usable text layer; it looks scanned. Parse with mode 'auto' or 'ocr' to read it.");
    expect(pageText(stamped, 3).trim()).toBe('Downloaded from the folio archive on 23 November 2026');
  });

  it("ocr reads every page from its pixels: an invisible text layer is ignored, while auto keeps it", async () => {
    const bytes = readCorpus('pdf', 'docling', 'invisible_text_layer.pdf');
    const ocr = await read(bytes, 'ocr');
    expect(pageText(ocr, 1)).toContain('Visible heading line');
    expect(pageText(ocr, 1)).not.toContain('Invisible');
    const auto = await read(bytes, 'auto');
    expect(pageText(auto, 1)).toContain('Invisible OCR text layer');
  });

  it('maxPages limits the OCR work to the pages read', async () => {
    const progress: Progress[] = [];
    const result = await read(mixed, 'auto', { onProgress: (p) => progress.push(p) }, 1);
    expect(result.numPages).toBe(1);
    expect(result.totalPages).toBe(3);
    expect(pageText(result, 1)).toContain('Evolution');
    expect(result.document.querySelector('section[data-page="3"]')).toBeNull();
    expect(progress).toEqual([{ done: 1, total: 1, unit: 'page' }]);
  });

  it('stops at the deadline: the pages done come back with a warning, no OCR child is left', async () => {
    const before = ocrTempDirs();
    // Page 1 is text (done at once); a page's OCR takes over a second here, so pages 2–4 miss it.
    const result = await read(scans, 'auto', { deadline: Date.now() + 900, ocr: { concurrency: 1, tempDir: ownTemp } });
    expect(result.numPages).toBe(1);
    expect(result.totalPages).toBe(4);
    expect(result.warnings).toContain("Stopped after page 1 of 4: the request's timeout was reached; raise `timeout` or use `maxPages`.");
    expect(result.document.querySelectorAll('section')).toHaveLength(1);
    expect(ocrChildren()).toEqual([]);
    expect(ocrTempDirs()).toEqual(before);
  });

  it('a deadline reached before the first page is done is a timeout, with the OCR stopped', async () => {
    const before = ocrTempDirs();
    // ocr mode: page 1 too waits for tesseract, which is killed at the deadline.
    const failure = await serviceFailure(read(scans, 'ocr', { deadline: Date.now() + 400, ocr: { tempDir: ownTemp } }));
    expect(failure.code).toBe('SCRAPE_TIMEOUT');
    expect(failure.message).toMatch(/Raise `timeout`/);
    expect(ocrChildren()).toEqual([]);
    expect(ocrTempDirs()).toEqual(before);
  });

  it('abort kills the running pdftoppm and tesseract children and removes the temporary file', async () => {
    const before = ocrTempDirs();
    const controller = new AbortController();
    const reading = read(scans, 'ocr', { signal: controller.signal, ocr: { tempDir: ownTemp } });
    reading.catch(() => undefined);
    // Wait until tesseract runs, then cancel.
    const started = Date.now();
    while (!ocrChildren().some((l) => /tesseract/.test(l)) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    expect(ocrChildren().some((l) => /tesseract/.test(l))).toBe(true);
    // The parse's folder holds the PDF while its pages are OCRed.
    expect(ocrTempDirs().filter((n) => n.startsWith('folio-ocr-'))).toHaveLength(before.length + 1);
    controller.abort(new Error('cancelled by the client'));
    await expect(reading).rejects.toThrow('cancelled by the client');
    expect(ocrChildren()).toEqual([]);
    expect(ocrTempDirs()).toEqual(before);
  });

  it('runs with the installed languages and names the missing ones; none installed is NOT_CONFIGURED', async () => {
    const partly = await read(readCorpus('pdf', 'docling', 'invisible_text_layer.pdf'), 'ocr', { ocr: { languages: 'eng+klingon' } });
    expect(pageText(partly, 1)).toContain('Visible heading line');
    expect(partly.warnings).toContain('OCR ran with eng only: the configured language klingon is not installed on this server (tesseract-ocr-klingon).');
    const none = await serviceFailure(read(mixed, 'auto', { ocr: { languages: 'klingon' } }));
    expect(none.code).toBe('NOT_CONFIGURED');
    expect(none.message).toMatch(/klingon.*tesseract-ocr-klingon.*Installed: eng/);
  });
});
