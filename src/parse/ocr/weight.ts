/**
 * The weight of OCRed type, from the pixels (tesseract's LSTM engine reports no font attributes):
 * a bold face draws its stems thicker for its size. The width of a stem is read as a horizontal
 * run of ink across a row of the word's box; runs longer than a third of the em are horizontal
 * strokes (a bar, a serif's foot, an underline) and are left out. A word's stem width over its
 * em, against the page's usual one (the value the most characters share), tells bold words
 * from the rest: a word is bold when its stems are at least BOLD_STEM times the usual. Words,
 * not lines, are weighed: a bold run-in head ("Microsoft Office Suite:") opens a regular line.
 *
 * The image is the PGM (P5, 8-bit) pdftoppm rendered for tesseract; a pixel is ink when it is
 * darker than the middle of the page's range of grays.
 */

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, row by row, 0 black. */
  pixels: Uint8Array;
}

/** A binary PGM (`P5`, maxval ≤ 255) as an image; undefined for anything else. */
export function parsePgm(data: Buffer): GrayImage | undefined {
  // Header: magic, width, height, maxval, separated by whitespace (comments after '#').
  const fields: number[] = [];
  let i = 2;
  if (data.length < 8 || data[0] !== 0x50 || data[1] !== 0x35) return undefined;
  while (fields.length < 3 && i < Math.min(data.length, 1024)) {
    const c = data[i] as number;
    if (c === 0x23) {
      while (i < data.length && data[i] !== 0x0a) i++;
    } else if (c >= 0x30 && c <= 0x39) {
      let n = 0;
      while (i < data.length && (data[i] as number) >= 0x30 && (data[i] as number) <= 0x39) n = n * 10 + ((data[i++] as number) - 0x30);
      fields.push(n);
      continue;
    }
    i++;
  }
  const [width, height, maxval] = fields;
  if (width === undefined || height === undefined || maxval === undefined || maxval > 255 || maxval === 0) return undefined;
  // One whitespace byte after maxval, then the pixels.
  const start = i;
  if (data.length - start < width * height) return undefined;
  return { width, height, pixels: data.subarray(start, start + width * height) };
}

export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The sum and count of stem-like ink runs in a box (see the file comment). */
export interface Stems {
  sum: number;
  count: number;
}

/** Gray level under which a pixel is ink (the OCR path's one threshold: weights, rulings, cap height). */
export const INK_BELOW = 128;

/** The median of the values (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function stems(image: GrayImage, box: PixelBox, maxRun: number): Stems {
  const x0 = Math.max(0, Math.floor(box.left));
  const x1 = Math.min(image.width, Math.ceil(box.left + box.width));
  const y0 = Math.max(0, Math.floor(box.top));
  const y1 = Math.min(image.height, Math.ceil(box.top + box.height));
  let sum = 0;
  let count = 0;
  for (let y = y0; y < y1; y++) {
    const row = y * image.width;
    let run = 0;
    for (let x = x0; x <= x1; x++) {
      const ink = x < x1 && (image.pixels[row + x] as number) < INK_BELOW;
      if (ink) run++;
      else if (run > 0) {
        if (run <= maxRun) {
          sum += run;
          count++;
        }
        run = 0;
      }
    }
  }
  return { sum, count };
}

/** A word is bold when its stems, for its size, are this many times the page's usual stems. */
export const BOLD_STEM = 1.22;
/** Fewer stem runs than this say nothing of a word's weight (a dash, a lone digit). */
const MIN_RUNS = 20;

export interface Weighed {
  /** Stem width over the em (pixels over pixels). */
  stem: number;
  /** Characters: the weight of its vote for the page's usual stem. */
  chars: number;
  /** Set in capitals only (a line without lower case): weighed against CAPITALS_BOLD_STEM. */
  capitals?: boolean;
}

/**
 * Capitals draw heavier stems than lower case, and small capitals (whose height passes for a
 * smaller size's capitals) heavier still for the em they seem to have: a word of a line in
 * capitals is bold only at this many times the page's usual (lower-case) stems.
 */
export const CAPITALS_BOLD_STEM = 1.45;

/**
 * The page's usual stem: the median of the lower-case words' stems weighted by their characters
 * (the stem width of the characters of most of the page's text); undefined without such words.
 */
export function usualStem(words: readonly (Weighed | undefined)[]): number | undefined {
  const lower = words.filter((l): l is Weighed => l !== undefined && !l.capitals);
  const total = lower.reduce((n, l) => n + l.chars, 0);
  if (total === 0) return undefined;
  const sorted = [...lower].sort((a, b) => a.stem - b.stem);
  let seen = 0;
  let usual = sorted[0]?.stem ?? 0;
  for (const l of sorted) {
    seen += l.chars;
    usual = l.stem;
    if (seen >= total / 2) break;
  }
  return usual;
}

/** Indexes of the words set bold, against the usual stem of the page's characters. */
export function boldOnes(words: readonly (Weighed | undefined)[], usual = usualStem(words)): Set<number> {
  const bold = new Set<number>();
  if (usual === undefined) return bold;
  words.forEach((l, i) => {
    if (l && l.stem >= (l.capitals ? CAPITALS_BOLD_STEM : BOLD_STEM) * usual) bold.add(i);
  });
  return bold;
}

/** The stem width over the em of the text in `boxes`, or undefined when it has too few stems to say. */
export function weigh(image: GrayImage, boxes: readonly PixelBox[], emPx: number, chars: number, capitals = false): Weighed | undefined {
  if (!(emPx > 0)) return undefined;
  let sum = 0;
  let count = 0;
  for (const box of boxes) {
    const s = stems(image, box, Math.max(2, emPx / 3));
    sum += s.sum;
    count += s.count;
  }
  return count >= MIN_RUNS ? { stem: sum / count / emPx, chars, ...(capitals ? { capitals } : {}) } : undefined;
}
