/**
 * The cap height of a page's text face, read from the pixels. tesseract's boxes give a word's
 * ink height, and a word's size is estimated from it by the letters it holds (tsv.ts `emShare`):
 * a word of capitals spans the cap height, taken at the ascenders' 0.72 em. Faces draw their
 * capitals lower than that (Times 0.66 em, many book faces 0.66–0.70), so a line in capitals
 * set at the body size measured up to a tenth smaller than the body (01030000000097's bold
 * "BURNING BRIDGES GAME" 11.0 pt against 11.85) and failed the layout's "body size" test for a
 * bold head. The page's running text shows its capitals: a word led by a capital, in a line of
 * lower case, has the capital's ink over its first columns, from the cap height to the baseline.
 */
import { type GrayImage, INK_BELOW, median, type PixelBox } from './weight.ts';

/** Capitals that stand on the baseline at the cap height and are wide enough to measure alone. */
const MEASURABLE_CAPITAL = /^[A-HK-PR-Z]\p{Ll}/u;
/** The columns read, in ems from the word's left edge: inside the capital, clear of the next letter. */
const FROM_EM = 0.05;
const TO_EM = 0.3;
/** Fewer capitals than this on a page say nothing of its face's cap height. */
export const MIN_CAPITALS = 6;
/** The cap heights of text faces, in ems: what a page's measure is kept within. */
const CAP_HEIGHT_RANGE = [0.62, 0.74] as const;

export interface CapitalSample {
  text: string;
  box: PixelBox;
  /** The em of the word's line, in pixels. */
  emPx: number;
}

/** The height of the ink in a capital's columns over the em, or undefined when there is none. */
function capitalShare(image: GrayImage, sample: CapitalSample): number | undefined {
  const { box, emPx } = sample;
  const x0 = Math.max(0, Math.round(box.left + FROM_EM * emPx));
  const x1 = Math.min(image.width, Math.round(box.left + TO_EM * emPx));
  const y0 = Math.max(0, Math.floor(box.top));
  const y1 = Math.min(image.height, Math.ceil(box.top + box.height));
  let top = -1;
  let bottom = -1;
  for (let y = y0; y < y1; y++) {
    const row = y * image.width;
    for (let x = x0; x < x1; x++) {
      if ((image.pixels[row + x] as number) < INK_BELOW) {
        if (top < 0) top = y;
        bottom = y;
        break;
      }
    }
  }
  return top < 0 ? undefined : (bottom - top + 1) / emPx;
}

/**
 * The page's cap height in ems: the median, over the words led by a measurable capital, of the
 * capital's ink height over its line's em; undefined with fewer than MIN_CAPITALS such words.
 */
export function capHeight(image: GrayImage, samples: readonly CapitalSample[]): number | undefined {
  const shares: number[] = [];
  for (const s of samples) {
    if (!(s.emPx > 0) || !MEASURABLE_CAPITAL.test(s.text)) continue;
    const share = capitalShare(image, s);
    if (share !== undefined) shares.push(share);
  }
  if (shares.length < MIN_CAPITALS) return undefined;
  return Math.min(CAP_HEIGHT_RANGE[1], Math.max(CAP_HEIGHT_RANGE[0], median(shares) as number));
}
