/**
 * tesseract's TSV output → the page model's words. The TSV holds one row per element of the
 * page's hierarchy: level 1 page, 2 block, 3 paragraph, 4 line, 5 word, with a pixel box
 * (`left top width height`, top-left origin, in the rendered image) and, for words, a confidence
 * 0–100 (-1 for non-words).
 *
 * The image is the page rendered in its displayed orientation (pdftoppm applies /Rotate), so
 * scaling pixels to points by the page size over the image size gives the page model's
 * coordinates directly (page-model.ts: top-left origin, y down).
 */
import type { Word } from '../readers/pdf/page-model.ts';
import { type CapitalSample, capHeight } from './cap-height.ts';
import { BOLD_STEM, boldOnes, type GrayImage, median, usualStem, weigh, type Weighed } from './weight.ts';

/** Words tesseract is less sure of than this (0–100) are noise far more often than text. */
export const MIN_WORD_CONFIDENCE = 30;

/**
 * A dot leader as tesseract reads it: a run of dots, then the small round marks it takes leader
 * dots for past the first few ("...........ceeeeeseeee", "......c.cceee"), at a confidence near
 * 0 that would drop it. It is a typesetter's fill between a contents entry and its page number:
 * kept whatever its confidence, as the dots its width holds at LEADER_PITCH (tesseract reads
 * fewer characters than there are dots).
 */
const LEADER_READ = /^[.·…]{3,}[.·,:;ceosnu0]*$/u;
/** The advance of a leader's dot, in ems: a period's width (0.25 em in Times, 0.28 in Helvetica). */
const LEADER_PITCH = 0.27;

/** The font key every OCR word shares (page-model.ts `Word.font`). */
export const OCR_FONT = 'ocr';

export interface PageSize {
  /** Points, displayed orientation. */
  width: number;
  height: number;
}

interface Row {
  level: number;
  line: string;
  left: number;
  top: number;
  width: number;
  height: number;
  conf: number;
  text: string;
}

function parseRow(cells: string[]): Row | undefined {
  if (cells.length < 12) return undefined;
  const num = (i: number) => Number(cells[i]);
  const row: Row = {
    level: num(0),
    // block.paragraph.line: the key of a word's line.
    line: `${cells[2]}.${cells[3]}.${cells[4]}`,
    left: num(6),
    top: num(7),
    width: num(8),
    height: num(9),
    conf: num(10),
    // The text is the last column; a tab inside it cannot occur (tesseract splits on whitespace).
    text: cells.slice(11).join('\t').trim(),
  };
  return [row.level, row.left, row.top, row.width, row.height, row.conf].every(Number.isFinite) ? row : undefined;
}

/** Reaches below the baseline in Latin type: descenders and the brackets. */
const DESCENDING = /[gjpqy()[\]{}|]/;
/** Reaches the cap height or the ascender line. */
const ASCENDING = /[\p{Lu}\p{N}bdfhiklt!?/\\()[\]{}|#$%&@'"]/u;
const LATIN_LETTER = /[A-Za-z\u00C0-\u024F]/;

/** Of a Latin font's em, the part a word's ink spans (what its box height measures). */
const ASCENT = 0.72;
const X_HEIGHT = 0.5;
const DESCENT = 0.21;
/** Other scripts' letters (CJK, Devanagari …) mostly fill this much of the em. */
const OTHER_SCRIPT = 0.85;

/**
 * The share of the em a word's box spans, from the letters it holds: "Word" reaches the cap
 * height only (0.72 em), "page" the x-height and the descender line (0.71 em), "type" both
 * (0.93 em), "once" only the x-height (0.5 em). Undefined for words without letters or digits
 * ("-", "…"), whose height says nothing of the font size.
 */
function emShare(text: string): number | undefined {
  if (!/[\p{L}\p{N}]/u.test(text)) return undefined;
  if (/\p{L}/u.test(text) && !LATIN_LETTER.test(text) && !/\p{N}/u.test(text)) return OTHER_SCRIPT;
  return (ASCENDING.test(text) ? ASCENT : X_HEIGHT) + (DESCENDING.test(text) ? DESCENT : 0);
}

interface LineSize {
  /** Points: the line's font size. */
  size: number;
  baseline: number;
}

/**
 * A word of capitals standing at the cap height: two capitals or more, no lower case, nothing
 * below the baseline. Figures alone do not measure it (old-style figures stand at the x-height,
 * an equation's numbers at any size).
 */
const CAP_HIGH = /^(?=.*\p{Lu}.*\p{Lu})[\p{Lu}\d.:'’&%-]+$/u;

/**
 * A bold line in capitals (no lower case, every word bold) sized by the page's own cap height
 * (cap-height.ts) instead of ASCENT, from its words of capitals, so that a head in bold capitals
 * at the body size measures the body size, as the layout's test for a bold head at body size
 * asks. Lines in capitals set regular (running heads, labels in figures, an equation's line) keep
 * ASCENT: sized by the cap height, labels and equations moved in the reading order (tried on the
 * tuning half, docs/pdf-ocr.md). Pages that show too few capitals keep ASCENT.
 */
function sizeCapitalLines(pixels: GrayImage, byLine: ReadonlyMap<string, Row[]>, lines: Map<string, LineSize>, sy: number, isBold: (w: Row) => boolean): void {
  const samples: CapitalSample[] = [];
  for (const [key, words] of byLine) {
    const emPx = (lines.get(key)?.size ?? 0) / sy;
    if (!words.some((w) => /\p{Ll}/u.test(w.text))) continue;
    for (const w of words) samples.push({ text: w.text, box: { left: w.left, top: w.top, width: w.width, height: w.height }, emPx });
  }
  const cap = capHeight(pixels, samples);
  if (cap === undefined) return;
  for (const [key, words] of byLine) {
    const line = lines.get(key);
    if (!line || words.some((w) => /\p{Ll}/u.test(w.text) || !isBold(w))) continue;
    const size = median(words.filter((w) => CAP_HIGH.test(w.text)).map((w) => (w.height * sy) / cap));
    if (size !== undefined) line.size = size;
  }
}

/** Under this many times the page's usual stem, a word is at the text's weight, not just short of bold. */
const REGULAR_STEM = 1.1;

/** Of a line's weighed characters, at least this share in bold words makes the whole line bold. */
const BOLD_LINE_SHARE = 0.6;

/**
 * Indexes (into `kept`) of the bold words. A word is weighed on its own (a bold run-in head opens
 * a regular line); in a line whose weighed characters are mostly bold, every word is bold (a
 * section number, a short word too light on stems to be weighed), and so is every word of a line
 * whose pooled stems weigh bold with no word at the text's weight. A word of capitals in a line
 * with lower case is left to its line (an acronym); a line in capitals is weighed as capitals.
 */
function boldWords(pixels: GrayImage, kept: readonly Row[], byLine: ReadonlyMap<string, Row[]>, emPx: (line: string) => number): Set<number> {
  const capitalsLine = (key: string): boolean => !(byLine.get(key) ?? []).some((o) => /\p{Ll}/u.test(o.text));
  const weighed: (Weighed | undefined)[] = kept.map((w) => {
    const capitals = capitalsLine(w.line);
    if (!capitals && !/\p{Ll}/u.test(w.text)) return undefined;
    return weigh(pixels, [{ left: w.left, top: w.top, width: w.width, height: w.height }], emPx(w.line), w.text.length, capitals);
  });
  const usual = usualStem(weighed);
  const bold = boldOnes(weighed, usual);
  // A line set in one face: a line with lower case whose words' stems pooled weigh bold, none of
  // them at the text's weight (under REGULAR_STEM times the usual), is bold throughout. Over a
  // whole line the words just short of bold on their own ("between", "Models" in a bold head)
  // count with the rest, while a bold run-in head before regular text stays a run-in.
  const index = new Map(kept.map((w, i) => [w, i]));
  for (const [key, words] of byLine) {
    if (usual === undefined || capitalsLine(key)) continue;
    const indexes = words.map((w) => index.get(w) as number);
    const measured = indexes.filter((i) => weighed[i] !== undefined);
    if (measured.length < 2 || measured.some((i) => (weighed[i] as Weighed).stem < REGULAR_STEM * usual)) continue;
    const line = weigh(pixels, measured.map((i) => kept[i] as Row), emPx(key), 0);
    if (line && line.stem >= BOLD_STEM * usual) for (const i of indexes) bold.add(i);
  }
  const share = new Map<string, { bold: number; all: number }>();
  kept.forEach((w, i) => {
    if (!weighed[i]) return;
    const s = share.get(w.line) ?? { bold: 0, all: 0 };
    s.all += w.text.length;
    if (bold.has(i)) s.bold += w.text.length;
    share.set(w.line, s);
  });
  kept.forEach((w, i) => {
    const s = share.get(w.line);
    if (s && s.all > 0 && s.bold >= BOLD_LINE_SHARE * s.all) bold.add(i);
  });
  return bold;
}

/**
 * The words of one page. A word's `size` is its line's font size estimated from the heights of
 * the line's words and the letters they hold (emShare), so a heading without descenders and a
 * body line full of them compare the way their fonts do; `baseline` is the median of the words'
 * bottoms less their descent, shared by the whole line. With the rendered page (`pixels`), a
 * word's `bold` is read from the width of its stems (weight.ts); without it every word is regular.
 */
export function wordsFromTsv(tsv: string, page: PageSize, pixels?: GrayImage): Word[] {
  const rows: Row[] = [];
  for (const line of tsv.split('\n')) {
    if (line.length === 0 || line.startsWith('level\t')) continue;
    const row = parseRow(line.split('\t'));
    if (row) rows.push(row);
  }
  const image = rows.find((r) => r.level === 1 && r.width > 0 && r.height > 0);
  // Without the page row, assume the 300 dpi rendering folio asks for.
  const sx = image ? page.width / image.width : 72 / 300;
  const sy = image ? page.height / image.height : 72 / 300;

  const lineHeights = new Map<string, number>();
  for (const r of rows) if (r.level === 4) lineHeights.set(r.line, r.height * sy);

  const leaders = new Set(rows.filter((r) => r.level === 5 && LEADER_READ.test(r.text)));
  const kept = rows.filter((r) => r.level === 5 && r.text.length > 0 && (r.conf >= MIN_WORD_CONFIDENCE || leaders.has(r)) && r.width > 0 && r.height > 0);
  const byLine = new Map<string, Row[]>();
  for (const r of kept) byLine.set(r.line, [...(byLine.get(r.line) ?? []), r]);

  const lines = new Map<string, LineSize>();
  for (const [key, words] of byLine) {
    const estimates: number[] = [];
    for (const w of words) {
      const share = emShare(w.text);
      if (share !== undefined) estimates.push((w.height * sy) / share);
    }
    const size = median(estimates) ?? lineHeights.get(key) ?? (words[0] as Row).height * sy;
    const bottoms = words.map((w) => (w.top + w.height) * sy - (DESCENDING.test(w.text) && LATIN_LETTER.test(w.text) ? DESCENT * size : 0));
    lines.set(key, { size, baseline: median(bottoms) as number });
  }

  // The weight of each word's type, from the rendered page when there is one (weight.ts), read
  // before a bold line in capitals is sized by the cap height (its thresholds were set with the
  // em at ASCENT).
  const bold = pixels ? boldWords(pixels, kept, byLine, (key) => (lines.get(key)?.size ?? 0) / sy) : new Set<number>();
  const index = new Map(kept.map((r, i) => [r, i]));
  if (pixels) sizeCapitalLines(pixels, byLine, lines, sy, (w) => bold.has(index.get(w) ?? -1));

  return kept.map((r, order) => {
    const line = lines.get(r.line);
    const y1 = (r.top + r.height) * sy;
    const size = line?.size ?? r.height * sy;
    return {
      text: leaders.has(r) ? '.'.repeat(Math.max(3, Math.round((r.width * sx) / (LEADER_PITCH * size)))) : r.text,
      x0: r.left * sx,
      y0: r.top * sy,
      x1: (r.left + r.width) * sx,
      y1,
      size,
      font: OCR_FONT,
      bold: bold.has(order),
      italic: false,
      order,
      rotated: false,
      baseline: line?.baseline ?? y1,
    };
  });
}
