/**
 * Words → lines. Upright words on the same baseline band, left to right, form a line (runs on
 * other baselines that overlap them horizontally are lines of their own: interleavedLines); a line
 * is split where the gap between two words is wider than a word space can be (a column gutter,
 * a table cell boundary), except after a lone list marker or section number ("•   text",
 * "3.1   Status"), which belongs to the text it introduces. In a tagged PDF a line also ends where
 * the words' structure element changes (another block role, or artifact against content).
 *
 * Rotated words never join upright lines: they are returned apart (margin notes, vertical
 * labels) and read after the page's main text.
 */
import type { Box, Word } from '../page-model.ts';
import { joinDropCaps } from './drop-caps.ts';
import { MARKER } from './markers.ts';
import { otherStructure } from './roles.ts';

export interface Line extends Box {
  words: Word[];
  /** The line's main font size: that of most of its characters. */
  size: number;
  /** The main baseline (of the words in the main size). */
  baseline: number;
  /** Every character is bold / italic. */
  bold: boolean;
  italic: boolean;
  /** Every word is set in a fixed-pitch font. */
  monospace: boolean;
  /** The font of most characters. */
  font: string;
  /** Lines on the same baseline band share a row number; `rowSize` is how many they are. */
  row: number;
  rowSize: number;
  /**
   * How many lines of the row are cell-sized (ROW_CELL_WORDS words or fewer): a row of cells
   * (a table's, a form's) has several; a heading in one column of a three-column page stands
   * beside lines of running text, which are not cells.
   */
  rowCells: number;
}

const ROW_CELL_WORDS = 3;

/**
 * A gap wider than this many font sizes is not a word space when it is also clearly wider than
 * the band's ordinary spaces; wider than WIDE_GUTTER_EM, never.
 */
const GUTTER_EM = 1.0;
const WIDE_GUTTER_EM = 2.5;
/** Evenly spaced words closer than this many font sizes are one justified line. */
const EVEN_SPACE_EM = 4;
/** Between fixed-pitch words (code): wider than this many font sizes is another column. */
const CODE_GUTTER_EM = 8;

export function lineOf(words: Word[], row = 0): Line {
  // One pass: extent (em boxes vertically: the same measure whatever the font metrics), the
  // size and font carrying most characters (a line holds a few of each: arrays beat maps).
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let bold = true;
  let italic = true;
  let monospace = true;
  const sizes: number[] = [];
  const sizeChars: number[] = [];
  const fonts: string[] = [];
  const fontChars: number[] = [];
  for (const w of words) {
    if (w.x0 < x0) x0 = w.x0;
    if (w.x1 > x1) x1 = w.x1;
    const top = emTop(w);
    const bottom = emBottom(w);
    if (top < y0) y0 = top;
    if (bottom > y1) y1 = bottom;
    bold &&= w.bold;
    italic &&= w.italic;
    monospace &&= w.monospace === true;
    const size = Math.round(w.size * 2) / 2;
    const n = w.text.length;
    const si = sizes.indexOf(size);
    if (si < 0) {
      sizes.push(size);
      sizeChars.push(n);
    } else sizeChars[si] = (sizeChars[si] as number) + n;
    const fi = fonts.indexOf(w.font);
    if (fi < 0) {
      fonts.push(w.font);
      fontChars.push(n);
    } else fontChars[fi] = (fontChars[fi] as number) + n;
  }
  let best = 0;
  for (let i = 1; i < sizes.length; i++) if ((sizeChars[i] as number) > (sizeChars[best] as number)) best = i;
  const size = sizes[best] as number;
  let bestFont = 0;
  for (let i = 1; i < fonts.length; i++) if ((fontChars[i] as number) > (fontChars[bestFont] as number)) bestFont = i;
  const main = words.find((w) => Math.abs(w.size - size) <= 0.25) ?? (words[0] as Word);
  return { x0, y0, x1, y1, words, size, baseline: main.baseline, bold, italic, monospace, font: fonts[bestFont] as string, row, rowSize: 1, rowCells: 1 };
}

/**
 * The em box of an upright word, from its baseline and size (ascenders above, descenders below):
 * the same measure for every source, whatever ascent/descent a font's metrics claim.
 */
function emTop(w: Word): number {
  return w.baseline - 0.75 * w.size;
}

function emBottom(w: Word): number {
  return w.baseline + 0.25 * w.size;
}

/** How much of the shorter em box two words share (0…1). */
function verticalOverlap(a: Word, b: Word): number {
  const overlap = Math.min(emBottom(a), emBottom(b)) - Math.max(emTop(a), emTop(b));
  const shorter = Math.min(a.size, b.size);
  return shorter > 0 ? overlap / shorter : 0;
}

/** A narrower gap is a gutter when the text after it starts at a left edge shared by this many rows. */
const NARROW_GUTTER_EM = 0.5;
const EDGE_ROWS = 4;

/**
 * Left edges of columns: x positions where, in several bands, a word starts after a gap of at
 * least NARROW_GUTTER_EM, and which (almost) no word of the bands between them crosses. Word
 * spaces of justified text may line up by chance in a few rows; a gutter runs down the column.
 */
function columnEdges(bands: readonly Word[][]): Set<number> {
  const rows = new Map<number, number[]>();
  bands.forEach((band, b) => {
    for (let i = 1; i < band.length; i++) {
      const prev = band[i - 1] as Word;
      const w = band[i] as Word;
      if (w.x0 - prev.x1 < NARROW_GUTTER_EM * Math.min(prev.size, w.size)) continue;
      const x = Math.round(w.x0);
      const list = rows.get(x) ?? [];
      if (list[list.length - 1] !== b) list.push(b);
      rows.set(x, list);
    }
  });
  const edges = new Set<number>();
  for (const [x, list] of rows) {
    const near = [...(rows.get(x - 1) ?? []), ...list, ...(rows.get(x + 1) ?? [])];
    if (near.length < EDGE_ROWS) continue;
    const first = Math.min(...near);
    const last = Math.max(...near);
    let crossed = 0;
    for (let b = first; b <= last; b++) {
      if ((bands[b] as Word[]).some((w) => w.x0 < x - 1.5 && w.x1 > x + 1.5)) crossed++;
    }
    if (crossed <= 0.2 * near.length) edges.add(x);
  }
  return edges;
}

/** Consecutive bands a whitespace river must run through to be a gutter. */
const RIVER_ROWS = 5;

/**
 * Rivers: x positions (rounded) that lie inside a gap of at least NARROW_GUTTER_EM in each of
 * RIVER_ROWS consecutive bands or more — the gutter beside a centred or ragged column, which
 * shares no left edge. Bands that do not reach that far neither count nor break the run.
 */
function rivers(bands: readonly Word[][]): number[] {
  const candidates = new Set<number>();
  for (const band of bands) {
    for (let i = 1; i < band.length; i++) {
      const prev = band[i - 1] as Word;
      const w = band[i] as Word;
      if (w.x0 - prev.x1 >= NARROW_GUTTER_EM * Math.min(prev.size, w.size)) candidates.add(Math.round((prev.x1 + w.x0) / 4) * 2);
    }
  }
  const found: number[] = [];
  for (const x of candidates) {
    let run = 0;
    let best = 0;
    for (const band of bands) {
      const first = band[0] as Word;
      const last = band[band.length - 1] as Word;
      if (last.x1 <= x || first.x0 >= x) continue;
      let open = false;
      for (let i = 1; i < band.length; i++) {
        const prev = band[i - 1] as Word;
        const w = band[i] as Word;
        if (prev.x1 <= x && w.x0 >= x) {
          open = w.x0 - prev.x1 >= NARROW_GUTTER_EM * Math.min(prev.size, w.size);
          break;
        }
      }
      run = open ? run + 1 : 0;
      if (run > best) best = run;
    }
    if (best >= RIVER_ROWS) found.push(x);
  }
  return found;
}

function sharedEdge(edges: ReadonlySet<number>, x: number): boolean {
  const r = Math.round(x);
  return edges.has(r) || edges.has(r - 1) || edges.has(r + 1);
}

/**
 * Splits one baseline band (sorted by x) into lines at gaps no word space explains: wider than
 * an em, or half an em when the text after the gap starts at the left edge of a column (an edge
 * several rows share; word spaces of justified text fall anywhere).
 */
function splitBand(band: Word[], row: number, edges: ReadonlySet<number>, riverAt: readonly number[], out: Line[]): void {
  const first = out.length;
  const gaps: number[] = [];
  for (let i = 1; i < band.length; i++) gaps.push((band[i] as Word).x0 - (band[i - 1] as Word).x1);
  gaps.sort((a, b) => a - b);
  // The band's ordinary word space (loosely justified lines space words widely).
  const space = gaps[Math.floor(gaps.length / 2)] ?? 0;
  let current: Word[] = [];
  // The gap before the current segment (Infinity at the band's start).
  let gapBefore = Infinity;
  band.forEach((w, index) => {
    const prev = current[current.length - 1];
    if (prev) {
      const gap = w.x0 - prev.x1;
      const em = Math.max(Math.min(prev.size, w.size), 1);
      // A marker opens the text after it: it stands further from what precedes it than from that.
      const markerOnly = current.length === 1 && MARKER.test(prev.text) && gapBefore > gap;
      // Across a wide gap, other type or another baseline is other text (a caption beside a column).
      const otherText = Math.abs(prev.size - w.size) > 0.05 * em || Math.abs(prev.baseline - w.baseline) > 0.1 * em;
      // Between two fixed-pitch words a wide space is alignment inside a code line (a comment
      // set to a tab stop), not a gutter: only a very wide one parts them.
      const code = prev.monospace === true && w.monospace === true;
      const shared = gap >= NARROW_GUTTER_EM * em && (sharedEdge(edges, w.x0) || riverAt.some((x) => x > prev.x1 && x < w.x0));
      // A justified line set loose (a short line beside a drop cap or a figure) spaces its words
      // evenly, however wide: a gap as wide as the word space before it in the segment or the
      // one after it, of one type, and no gutter others share, is a word space.
      const next = band[index + 1];
      const inside = current.length >= 2 ? prev.x0 - (current[current.length - 2] as Word).x1 : undefined;
      const after = next ? next.x0 - w.x1 : undefined;
      const evenly = (other: number | undefined) => other !== undefined && Math.abs(other - gap) <= 0.15 * gap;
      const justified = !otherText && gap < EVEN_SPACE_EM * em && (evenly(inside) || evenly(after));
      const gutter = code
        ? gap > CODE_GUTTER_EM * em
        : shared || (!justified && (gap > WIDE_GUTTER_EM * em || (gap > GUTTER_EM * em && (gap >= 1.6 * space || otherText))));
      // Tagged PDF: the words of two structure elements (a heading and the paragraph beside it,
      // a running head's artifact and the text) are two texts, however close they stand.
      if ((gutter && !(markerOnly && gap < 6 * em)) || otherStructure(prev, w)) {
        out.push(lineOf(current, row));
        current = [];
        gapBefore = gap;
      }
    }
    current.push(w);
  });
  if (current.length > 0) out.push(lineOf(current, row));
  let cells = 0;
  for (let i = first; i < out.length; i++) if ((out[i] as Line).words.length <= ROW_CELL_WORDS) cells++;
  for (let i = first; i < out.length; i++) {
    (out[i] as Line).rowSize = out.length - first;
    (out[i] as Line).rowCells = cells;
  }
}

export interface PageLines {
  lines: Line[];
  /** Rotated words, in source order. */
  rotated: Word[];
}

/** Words whose baselines differ by less than this share of their size stand on one baseline. */
const SAME_BASELINE_EM = 0.2;
/** A run of words of at most DECORATION_CHARS characters may be marks (¹, ², *, †) or a drop cap. */
const DECORATION_WORDS = 3;
const DECORATION_CHARS = 4;

interface BaselineRun {
  words: Word[];
  baseline: number;
  size: number;
  x0: number;
  x1: number;
}

/**
 * Marks rather than text: short words only, and either a few of them (a drop cap) or set smaller
 * than the band's largest type (a row of superscript marks after the authors' names).
 */
const isDecoration = (run: BaselineRun, largest: number): boolean =>
  run.words.every((w) => w.text.length <= DECORATION_CHARS) && (run.words.length <= DECORATION_WORDS || run.size <= 0.85 * largest);

/**
 * A band's words by baseline: lines that overlap vertically can fall into one band (a 7 pt
 * footnote block whose lines sit between the baselines of a 9 pt column beside it, a drop cap
 * three lines tall), and sorted by x their words would interleave ("distributed foron theprofit
 * firstor page."). A typesetter's line is the words on one baseline; so when two runs of text on
 * different baselines overlap horizontally, each becomes a band of its own. Marks (superscripts,
 * subscripts, footnote signs, a drop cap: a few short words) stay with the run they stand
 * nearest to. Runs side by side (table cells set a little higher or lower) keep their band.
 */
function interleavedLines(band: Word[]): Word[][] {
  if (band.length < 2) return [band];
  const runs: BaselineRun[] = [];
  for (const w of [...band].sort((a, b) => a.baseline - b.baseline)) {
    const last = runs[runs.length - 1];
    if (last && Math.abs(w.baseline - last.baseline) <= SAME_BASELINE_EM * Math.min(last.size, w.size)) {
      last.words.push(w);
      last.size = Math.max(last.size, w.size);
      last.x0 = Math.min(last.x0, w.x0);
      last.x1 = Math.max(last.x1, w.x1);
    } else runs.push({ words: [w], baseline: w.baseline, size: w.size, x0: w.x0, x1: w.x1 });
  }
  if (runs.length === 1) return [band];
  const largest = Math.max(...runs.map((r) => r.size));
  const text = runs.filter((r) => !isDecoration(r, largest));
  const interleaved = text.some((a, i) =>
    text.slice(i + 1).some((b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > Math.min(a.size, b.size)),
  );
  if (!interleaved) return [band];
  const parts = text.map((r) => [...r.words]);
  for (const mark of runs.filter((r) => isDecoration(r, largest)).flatMap((r) => r.words)) {
    // Each mark goes with the run that has the word nearest to it, horizontally; the nearer
    // baseline breaks a tie.
    let best = 0;
    let bestGap = Infinity;
    text.forEach((r, i) => {
      for (const w of r.words) {
        const gap = Math.max(0, w.x0 - mark.x1, mark.x0 - w.x1) + 1e-3 * Math.abs(w.baseline - mark.baseline);
        if (gap < bestGap) {
          bestGap = gap;
          best = i;
        }
      }
    });
    parts[best]?.push(mark);
  }
  return parts;
}

/** The least gap between a fixed-pitch "o" and its item's text for the "o" to be a bullet, in ems. */
const HANGING_INDENT_EM = 0.5;

/**
 * Word's second-level bullet is the letter "o" set in Courier New: a lone "o" in a fixed-pitch
 * font opening its line, the text after it in a proportional font past more than a word space
 * (the item's hanging indent), is the bullet it shows (◦), not a letter of the text. Anywhere
 * else (inside a line, set beside code, or closed up to the next word) it stays a letter.
 */
function fixedPitchBullet(band: Word[]): Word[] {
  const mark = band[0];
  const text = band[1];
  if (!mark || !text || mark.text !== 'o' || mark.monospace !== true || text.monospace === true) return band;
  if (text.x0 - mark.x1 < HANGING_INDENT_EM * Math.max(mark.size, 1) || Math.abs(text.baseline - mark.baseline) > 0.1 * mark.size) return band;
  return [{ ...mark, text: '\u25E6' }, ...band.slice(1)];
}

/** A leader dot drawn as a word of its own. */
const LEADER_DOT = /^[.·]$/u;
/** Dot leaders are at least this many dots. */
const LEADER_DOTS = 4;

/**
 * Dot leaders set as spaced single dots (". . . . .", each a word) are one fill, not words: a run
 * of LEADER_DOTS or more becomes one word of dots spanning them, as a leader drawn in one run
 * reads. A band sorted by x in, the same band out.
 */
function joinLeaders(band: Word[]): Word[] {
  if (!band.some((w) => LEADER_DOT.test(w.text))) return band;
  const out: Word[] = [];
  for (let i = 0; i < band.length; i++) {
    const first = band[i] as Word;
    let j = i;
    if (LEADER_DOT.test(first.text)) {
      while (j + 1 < band.length && LEADER_DOT.test((band[j + 1] as Word).text) && (band[j + 1] as Word).x0 - (band[j] as Word).x1 < (band[j] as Word).size) j++;
    }
    if (j - i + 1 >= LEADER_DOTS) {
      const last = band[j] as Word;
      out.push({ ...first, text: first.text.repeat(j - i + 1), x1: last.x1, y0: Math.min(first.y0, last.y0), y1: Math.max(first.y1, last.y1) });
    } else out.push(...band.slice(i, j + 1));
    i = j;
  }
  return out;
}

/**
 * Groups the words into lines. Words are taken by their vertical centre; a word joins the
 * band when it shares most of its height with the band's first (anchor) word of normal size,
 * so raised footnote marks stay on their line while the next line does not chain in.
 */
export function linesOf(words: readonly Word[]): PageLines {
  const rotated: Word[] = [];
  const upright: Word[] = [];
  for (const w of joinDropCaps(words)) (w.rotated ? rotated : upright).push(w);
  upright.sort((a, b) => emTop(a) + emBottom(a) - (emTop(b) + emBottom(b)) || a.x0 - b.x0);
  const bands: Word[][] = [];
  let band: Word[] = [];
  let anchor: Word | undefined;
  const flush = () => {
    if (band.length > 0) for (const part of interleavedLines(band)) bands.push(part.sort((a, b) => a.x0 - b.x0));
    band = [];
  };
  for (const w of upright) {
    if (anchor && verticalOverlap(anchor, w) >= 0.5) {
      band.push(w);
      // A taller word (the line's main text after a small superscript) becomes the anchor.
      if (w.size > anchor.size) anchor = w;
      continue;
    }
    flush();
    band = [w];
    anchor = w;
  }
  flush();
  for (let b = 0; b < bands.length; b++) bands[b] = fixedPitchBullet(joinLeaders(bands[b] as Word[]));
  const edges = columnEdges(bands);
  const riverAt = rivers(bands);
  const lines: Line[] = [];
  bands.forEach((b, row) => splitBand(b, row, edges, riverAt, lines));
  rotated.sort((a, b) => a.order - b.order);
  return { lines, rotated };
}
