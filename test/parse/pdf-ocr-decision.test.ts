/**
 * The per-page OCR decision (ocr-decision.ts) on real pages of the corpus, extracted the way the
 * reader does, and on the text of broken text layers.
 */
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import { looksGarbled, ocrNeed } from '../../src/parse/readers/pdf/ocr-decision.ts';
import type { PageModel, Word } from '../../src/parse/readers/pdf/page-model.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { buildPdf } from './pdf-ocr-fixtures.ts';

async function pages(bytes: Buffer, count = 1): Promise<PageModel[]> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(bytes)).promise;
  try {
    const out: PageModel[] = [];
    for (let n = 1; n <= Math.min(count, doc.numPages); n++) out.push(await extractPage(pdfjs, await doc.getPage(n), n));
    return out;
  } finally {
    await doc.destroy();
  }
}

const corpusPage = async (...path: string[]) => (await pages(readCorpus(...path)))[0] as PageModel;

function words(text: string): Pick<Word, 'text'>[] {
  return text.split(/\s+/).filter(Boolean).map((t) => ({ text: t }));
}

describe('which pages need OCR', () => {
  it('a scan without a text layer is missing; a blank page needs nothing', async () => {
    expect(ocrNeed(await corpusPage('pdf', 'olmocr', 'pdfs', 'lincoln_letter.pdf'))).toBe('missing');
    expect(ocrNeed(await corpusPage('pdf', 'opendataloader-pdf', 'chinese_scan.pdf'))).toBe('missing');
    // vertical.pdf's pages 2 and 3 are empty: no words, no images.
    const [, blank] = await pages(readCorpus('pdf', 'pdfjs', 'vertical.pdf'), 2);
    expect(blank?.words).toHaveLength(0);
    expect(ocrNeed(blank as PageModel)).toBeUndefined();
    // Without images (fast mode reads none) an empty page cannot be told from a scan.
    expect(ocrNeed(blank as PageModel, { imagesKnown: false })).toBe('missing');
  });

  it('keeps good text layers: body text, a table of contents with leaders, an invisible OCR layer, a photo page with its caption', async () => {
    expect(ocrNeed(await corpusPage('pdf', 'docling', 'multi_page.pdf'))).toBeUndefined();
    expect(ocrNeed(await corpusPage('pdf', 'pdfjs', 'basicapi.pdf'))).toBeUndefined();
    expect(ocrNeed(await corpusPage('pdf', 'docling', 'invisible_text_layer.pdf'))).toBeUndefined();
    // A photo over most of the page, its caption beside it: a figure, not a scan.
    expect(ocrNeed(await corpusPage('pdf-bench', 'pdfs', '01030000000006.pdf'))).toBeUndefined();
  });

  it('a scan with only a stamped line of text is too thin for its ink', async () => {
    // A scanned page under one line of real text, as tools that stamp "Downloaded from …" make.
    const scanned = buildPdf([{ scan: { file: ['pdf', 'docling', 'multi_page.pdf'], page: 1, dpi: 50 } }]);
    const [page] = await pages(scanned);
    expect(page?.images).toHaveLength(1);
    const stamp: Word = { text: 'Downloaded', x0: 72, y0: 20, x1: 130, y1: 28, size: 8, font: 'F1', bold: false, italic: false, order: 0, rotated: false, baseline: 27 };
    const stamped = { ...(page as PageModel), words: [stamp, { ...stamp, text: '2026-11-23', x0: 134, x1: 180, order: 1 }] };
    expect(ocrNeed(stamped)).toBe('thin');
    // The same scan under a full text layer (an OCRed scan) is kept.
    const text = await corpusPage('pdf', 'docling', 'multi_page.pdf');
    expect(ocrNeed({ ...(page as PageModel), words: text.words })).toBeUndefined();
  });

  it('recognises broken text layers', () => {
    const english = 'The origins of word processing can be traced back to the invention of the typewriter in the mid-19th century.';
    expect(looksGarbled(words(english))).toBe(false);
    expect(looksGarbled(words('Die Schreibmaschine wurde im neunzehnten Jahrhundert erfunden und veränderte das Büro grundlegend.'))).toBe(false);
    // Fonts without a Unicode map: pdf.js's replacement characters and private-use code points.
    const unmapped = 'The \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD of \uFFFD\uFFFD\uFFFD\uFFFD processing can be \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD back to the \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD';
    expect(looksGarbled(words(unmapped))).toBe(true);
    const privateUse = Array.from({ length: 12 }, (_, i) => String.fromCodePoint(0xe000 + i * 3, 0xe001 + i * 3, 0xe002 + i * 3, 0xe010 + i)).join(' ');
    expect(looksGarbled(words(privateUse))).toBe(true);
    // CID leftovers as some producers' text layers carry them.
    expect(looksGarbled(words('(cid:12)(cid:45)(cid:3) (cid:77)(cid:4) (cid:18)(cid:19)(cid:20)(cid:21) (cid:5)(cid:6)'))).toBe(true);
    // Glyph codes mapped to the wrong letters: symbols where letters should be, or words without vowels.
    expect(looksGarbled(words('#$%& *+,- ./:; <=>? @[\\] ^_`{ |}~! #$%& *+,- ./:; <=>?'))).toBe(true);
    expect(looksGarbled(words('Qkrv wqbcl mnvt srdcx zkwqp hrtgf lkmnb vcxzq trwpl kjhgf dsqwr tvbnm'))).toBe(true);
    // Too little text to judge.
    expect(looksGarbled(words('\uFFFD x'))).toBe(false);
  });
});
