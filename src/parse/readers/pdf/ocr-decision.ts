/**
 * Which pages need OCR (issue 3 §2, mode `auto`): a pure function of a page's text-layer model,
 * decided without rendering anything. A page needs OCR when its text layer is
 *
 *  - missing: no words, but something painted (an image: a scan); a page with neither is blank;
 *  - too thin for the page's ink: images cover most of the page and the words over them are a
 *    sliver of what such an area holds (a scan with a stamped header or page number);
 *  - garbage: replacement characters, private-use code points, control characters, "(cid:12)"
 *    leftovers of fonts without a Unicode map, mostly symbols where letters should be, or Latin
 *    "words" without vowels (a font whose codes were mapped to the wrong letters).
 *
 * An invisible text layer (render mode 3 over a scan: a PDF someone already OCRed) is a text
 * layer like any other, and is kept.
 */
import type { Box, PageModel, Word } from './page-model.ts';

export type OcrNeed = 'missing' | 'thin' | 'garbled';

/** Images smaller than this share of the page are figures, not scans. */
export const MIN_IMAGE_SHARE = 0.01;
/**
 * Images covering at least this share of the page make it a candidate for "thin": a scan covers
 * the whole sheet, margins included, while a photo or figure page keeps its margins (a full-page
 * photo with its caption beside it covers 50–60 %).
 */
export const SCAN_COVERAGE = 0.85;
/**
 * Below this share of the image area covered by word boxes, the text is too thin for a scan.
 * A page of body text covers 15–30 % of its area with word boxes, a slide's title alone 3–4 %;
 * a page number or a "Downloaded from …" line on a scan, well under 1 %.
 */
const THIN_TEXT_SHARE = 0.02;
/** Garbage checks need this many non-space characters to say anything. */
const MIN_SAMPLE = 40;

const GRID = 48;

function area(b: Box): number {
  return Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
}

function center(b: Box): [number, number] {
  return [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
}

function inside(x: number, y: number, b: Box): boolean {
  return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
}

/** The share of the page the images cover (their union, sampled on a grid). */
export function imageCoverage(page: Pick<PageModel, 'width' | 'height'>, images: readonly Box[]): number {
  if (images.length === 0 || !(page.width > 0) || !(page.height > 0)) return 0;
  let covered = 0;
  for (let i = 0; i < GRID; i++) {
    for (let j = 0; j < GRID; j++) {
      const x = ((i + 0.5) * page.width) / GRID;
      const y = ((j + 0.5) * page.height) / GRID;
      if (images.some((b) => inside(x, y, b))) covered++;
    }
  }
  return covered / (GRID * GRID);
}

/** Characters that mean the text layer does not know its glyphs. */
const BROKEN = /[\uFFFD\p{Co}\p{Cc}\p{Cs}]/gu;
const CID = /\(cid:\d+\)/g;
const VOWELS = /[aeiouy]/;

function latinWord(text: string): string | undefined {
  // Accents off (é → e), then only words made of Latin letters with some lowercase: "HTTP" says nothing.
  const plain = text.normalize('NFD').replace(/\p{M}/gu, '').replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, '');
  return /^[A-Za-z]{4,}$/.test(plain) && /[a-z]/.test(plain) ? plain.toLowerCase() : undefined;
}

/** True when the words look like a broken text layer rather than text (see the file comment). */
export function looksGarbled(words: readonly Pick<Word, 'text'>[]): boolean {
  // Leaders ("Chapter 1 ........ 2") and rules drawn with characters are symbols that belong there.
  const text = words
    .map((w) => w.text)
    .join('')
    .replace(/([.·…_\-–—=*~•])\1{2,}/gu, '');
  const chars = [...text.replace(/\s+/g, '')];
  if (chars.length < MIN_SAMPLE) return false;
  const dense = chars.join('');
  const cidChars = (dense.match(CID) ?? []).join('').length;
  const broken = (dense.replace(CID, '').match(BROKEN) ?? []).length + cidChars;
  if (broken / chars.length >= 0.1) return true;
  const letters = chars.filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
  if (letters / chars.length < 0.4) return true;
  const latin = words.map((w) => latinWord(w.text)).filter((w): w is string => w !== undefined);
  if (latin.length >= 10) {
    const voweless = latin.filter((w) => !VOWELS.test(w)).length;
    if (voweless / latin.length > 0.4) return true;
  }
  return false;
}

/**
 * Why this text-layer page needs OCR, or undefined when its text layer is good to use.
 * `imagesKnown: false` (fast mode reads no images): a page without words counts as missing.
 */
export function ocrNeed(page: PageModel, { imagesKnown = true }: { imagesKnown?: boolean } = {}): OcrNeed | undefined {
  const words = page.words.filter((w) => w.text.trim().length > 0);
  const pageArea = page.width * page.height;
  const scans = page.images.filter((img) => pageArea > 0 && area(img) / pageArea >= MIN_IMAGE_SHARE);
  if (words.length === 0) return scans.length > 0 || !imagesKnown ? 'missing' : undefined;
  if (looksGarbled(words)) return 'garbled';
  const coverage = imageCoverage(page, scans);
  if (coverage >= SCAN_COVERAGE) {
    const over = words.filter((w) => {
      const [x, y] = center(w);
      return scans.some((img) => inside(x, y, img));
    });
    const textArea = over.reduce((sum, w) => sum + area(w), 0);
    if (textArea / (coverage * pageArea) < THIN_TEXT_SHARE) return 'thin';
  }
  return undefined;
}
