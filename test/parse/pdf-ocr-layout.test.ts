/**
 * What OCR gives the layout analysis besides words (docs/pdf-ocr.md "How a page is OCRed"): the
 * ruling lines the image shows, and dot leaders kept as dots. Real corpus pages; pdftoppm and
 * tesseract are real (scripts/setup.sh), two OCR runs: they are slow.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ocrPage } from '../../src/parse/ocr/page.ts';
import { rulesFromImage } from '../../src/parse/ocr/rulings.ts';
import { parsePgm } from '../../src/parse/ocr/weight.ts';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import type { PageModel, Rule } from '../../src/parse/readers/pdf/page-model.ts';
import { readPages } from '../../src/parse/readers/pdf/ocr.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { corpusPath, readCorpus } from '../helpers/corpus.ts';
import { buildPdf } from './pdf-ocr-fixtures.ts';

const bench = (id: string): string[] => ['pdf-bench', 'pdfs', `${id}.pdf`];

/** OCR of a bench page, with the page's text layer beside it. */
async function ocrBenchPage(id: string): Promise<{ page: PageModel; words: Awaited<ReturnType<typeof ocrPage>>['words'] }> {
  const file = bench(id);
  const page = await textLayer(file);
  const { words } = await ocrPage(corpusPath(...file), 1, page, 'eng', new AbortController().signal);
  return { page, words };
}

/** The words on the line of the first word reading `text` (baselines within a point), and that baseline. */
function lineOf<W extends { text: string; baseline: number }>(words: readonly W[], text: string): { baseline: number; words: W[] } {
  const first = words.find((w) => w.text === text);
  if (!first) throw new Error(`'${text}' not read`);
  return { baseline: first.baseline, words: words.filter((w) => Math.abs(w.baseline - first.baseline) < 1) };
}

async function textLayer(file: string[]): Promise<PageModel> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(readCorpus(...file))).promise;
  try {
    return await extractPage(pdfjs, await doc.getPage(1), 1);
  } finally {
    await doc.destroy();
  }
}

function rows(t: PdfTable | undefined): string[][] {
  if (!t) return [];
  return Array.from({ length: t.rows }, (_, r) => t.cells.filter((c) => c.row === r).map((c) => c.text));
}

describe('ruling lines from the page image', () => {
  it('finds the grid of a ruled table where the text layer draws it, and nothing in the running text', async () => {
    // A DP-Bench page with a ruled 3-row table over paragraphs of text.
    const file = bench('01030000000120');
    const page = await textLayer(file);
    const pgm = execFileSync('pdftoppm', ['-r', '300', '-gray', '-f', '1', '-l', '1', corpusPath(...file)], { maxBuffer: 64 * 1024 * 1024 });
    const image = parsePgm(pgm);
    if (!image) throw new Error('pdftoppm gave no PGM');
    const started = performance.now();
    const found = rulesFromImage(image, page);
    const ms = performance.now() - started;
    // The table's frame, drawn in 39 pieces cell by cell: every piece of it lies on a rule
    // the image shows, the same way, within a point and a half.
    const covers = (r: Rule, l: Rule): boolean =>
      r.orientation === l.orientation &&
      (l.orientation === 'horizontal'
        ? Math.abs((l.y0 + l.y1) / 2 - (r.y0 + r.y1) / 2) < 1.5 && r.x0 <= l.x0 + 1.5 && r.x1 >= l.x1 - 1.5
        : Math.abs((l.x0 + l.x1) / 2 - (r.x0 + r.x1) / 2) < 1.5 && r.y0 <= l.y0 + 1.5 && r.y1 >= l.y1 - 1.5);
    const frame = page.rules.filter((l) => l.y0 > 250);
    expect(frame).toHaveLength(38);
    expect(frame.filter((l) => !found.some((r) => covers(r, l)))).toEqual([]);
    // Rules are thin: at most 2 pt across.
    for (const r of found) expect(Math.min(r.x1 - r.x0, r.y1 - r.y0)).toBeLessThanOrEqual(2.1);
    // The paragraphs above the table (its top at 266 pt) hold no rule: letters are no lines.
    expect(found.filter((r) => r.y1 < 250)).toEqual([]);
    // One pass over a 300 dpi Letter page each way: well under tesseract's seconds.
    expect(ms).toBeLessThan(2000);
  });

  it("a scanned ruled table is found by the grid its image shows", async () => {
    const bytes = buildPdf([{ scan: { file: bench('01030000000120'), page: 1 } }]);
    const pdfjs = await loadPdfjs();
    const doc = await pdfjs.getDocument(documentParameters(bytes)).promise;
    try {
      const { pages } = await readPages({ bytes, mode: 'ocr', total: 1, signal: new AbortController().signal }, async (n) => extractPage(pdfjs, await doc.getPage(n), n));
      const [page] = pages;
      if (!page) throw new Error('no page read');
      expect(page.source).toBe('ocr');
      expect(page.rules.length).toBeGreaterThanOrEqual(14);
      const tables = findTables(page);
      expect(tables).toHaveLength(1);
      const [head, first, second] = rows(tables[0]);
      expect(head).toEqual(['Protein', 'Characteristics']);
      expect(first?.[0]).toMatch(/^Normal hemoglobin dissolves in the cytosol/);
      expect(second?.[1]).toMatch(/sickle cell anemia$/);
    } finally {
      await doc.destroy();
    }
  }, 90_000);
});

describe('dot leaders on an OCRed page', () => {
  it('keeps the leaders of a table of contents as dots, where tesseract reads them as dots and small letters at confidence 0', async () => {
    // A course book's contents page: entries, dot leaders, page numbers.
    const { page, words } = await ocrBenchPage('01030000000114');
    const line = (text: string): string => lineOf(words, text).words.map((w) => w.text).join(' ');
    // The entry, its leader (dots only, a run as long as the text layer's within a third), its page.
    const entry = line('Pedigree').match(/^Pedigree Analy[sS]is (\.+) 102$/u);
    expect(entry).not.toBeNull();
    const layer = page.words.filter((w) => /^\.{10,}$/u.test(w.text) && Math.abs(w.baseline - (page.words.find((x) => x.text === 'Pedigree')?.baseline ?? 0)) < 1);
    const dots = layer.reduce((n, w) => n + w.text.length, 0);
    expect(dots).toBeGreaterThan(20);
    expect(Math.abs((entry?.[1]?.length ?? 0) - dots)).toBeLessThan(dots / 3);
    // No leader left as tesseract's letters.
    expect(words.filter((w) => /^\.{3,}.*[a-z]/u.test(w.text))).toEqual([]);
  }, 60_000);
});

describe('the weight of a line read as a whole', () => {
  it('a bold head whose short words are too light on stems alone is bold throughout, and the running text stays regular', async () => {
    // A journal page: a numbered section head in bold at the text size between paragraphs.
    const { page, words } = await ocrBenchPage('01030000000002');
    const { baseline, words: head } = lineOf(words, 'Choosing');
    expect(head.map((w) => w.text).join(' ')).toBe('8 Choosing between Observer Models and Rejecting Participants');
    // The text layer sets the head bold; OCR now reads every word of it bold.
    expect(page.words.find((w) => w.text.startsWith('Choosing'))?.bold).toBe(true);
    expect(head.filter((w) => !w.bold).map((w) => w.text)).toEqual([]);
    // The running text: no line of it taken for bold.
    const body = words.filter((w) => /\p{Ll}{3}/u.test(w.text) && Math.abs(w.baseline - baseline) > 1 && w.size > 9);
    expect(body.length).toBeGreaterThan(200);
    expect(body.filter((w) => w.bold).length).toBeLessThan(body.length * 0.02);
  }, 60_000);
});

describe('a line in capitals sized by the page\'s own cap height', () => {
  it('a bold head in capitals at the text size measures the text size, not a size smaller', async () => {
    // A book page: "BURNING BRIDGES GAME" in bold capitals at the running text's size, between paragraphs.
    const { page, words } = await ocrBenchPage('01030000000097');
    const { baseline, words: head } = lineOf(words, 'BURNING');
    expect(head.map((w) => w.text).join(' ')).toBe('BURNING BRIDGES GAME');
    // The text layer sets head and text in one size.
    const layerHead = page.words.find((w) => w.text === 'BURNING');
    const layerText = page.words.find((w) => w.text === 'tenacious');
    expect(layerHead?.size).toBeCloseTo(layerText?.size ?? 0, 1);
    // The running text's usual OCR size (the one most of its words share, to a tenth of a point).
    const text = words.filter((w) => /\p{Ll}/u.test(w.text) && Math.abs(w.baseline - baseline) > 1 && w.size > 11);
    expect(text.length).toBeGreaterThan(150);
    const sizes = text.map((w) => w.size).sort((a, b) => a - b);
    const middle = sizes[sizes.length >> 1] as number;
    // At ASCENT the capitals measured 11.0 pt against about 11.8 (0.93, under the 0.95 a bold
    // head at the body size must reach); by the page's cap height they measure the body size.
    for (const w of head) {
      expect(w.bold).toBe(true);
      expect(w.size / middle).toBeGreaterThan(0.95);
      expect(w.size / middle).toBeLessThan(1.05);
    }
  }, 60_000);
});
