/**
 * A page's text layer → lines → paragraphs, in content-stream order. Deliberately simple (no
 * columns, tables or reading-order repair): runs on the same baseline form a line, lines close
 * together with the same font size form a paragraph.
 *
 * Coordinates are PDF user space (y grows upwards). Each run is measured in its own writing
 * direction, so a page of rotated text groups the same way as an upright one.
 */
import { normaliseText } from './text-normalise.ts';

/** One text item of pdf.js's getTextContent(). */
export interface TextRun {
  text: string;
  /** Text-space matrix [a, b, c, d, e, f] of the run's start. */
  transform: readonly number[];
  /** Advance width in user space. */
  width: number;
  /** Glyph height in user space (used when the matrix has no vertical scale). */
  height: number;
  /** pdf.js decided a line break follows this run. */
  hasEOL: boolean;
  /** pdf.js's name for the run's font. */
  font: string;
}

export interface Line {
  text: string;
  /** Position along the writing direction where the line starts. */
  start: number;
  /** Position across it (the baseline); larger is higher on the page. */
  baseline: number;
  /** Font size (the largest of the line's runs). */
  size: number;
  /** The font of the line's longest run. */
  font: string;
}

export interface Paragraph {
  text: string;
  /** Baselines of the first and last line. */
  top: number;
  bottom: number;
  size: number;
}

interface MeasuredRun {
  text: string;
  along: number;
  across: number;
  end: number;
  size: number;
  direction: number;
  hasEOL: boolean;
  font: string;
}

function measure(run: TextRun): MeasuredRun | undefined {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = run.transform;
  const scaleX = Math.hypot(a, b);
  const size = Math.hypot(c, d) || run.height;
  if (!Number.isFinite(size) || size <= 0 || scaleX === 0) return undefined;
  const ux = a / scaleX;
  const uy = b / scaleX;
  const along = e * ux + f * uy;
  const across = -e * uy + f * ux;
  return {
    text: normaliseText(run.text),
    along,
    across,
    end: along + Math.abs(run.width),
    size,
    direction: Math.round(Math.atan2(uy, ux) * 100) / 100,
    hasEOL: run.hasEOL,
    font: run.font,
  };
}

/** Groups runs into lines: a line ends where pdf.js marks one or the baseline moves. */
export function linesOf(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: (Line & { end: number; direction: number; baseSize: number; fontLength: number }) | undefined;
  let breakPending = false;

  const finish = () => {
    if (current) {
      const text = current.text.trim();
      if (text !== '') lines.push({ text, start: current.start, baseline: current.baseline, size: current.size, font: current.font });
    }
    current = undefined;
  };

  for (const run of runs) {
    const m = measure(run);
    if (!m) continue;
    if (m.text === '' || m.text === ' ') {
      if (m.text === ' ' && current && !breakPending) current.text += ' ';
      if (m.hasEOL) breakPending = true;
      continue;
    }
    const sameLine =
      current !== undefined &&
      !breakPending &&
      m.direction === current.direction &&
      Math.abs(m.across - current.baseline) <= 0.5 * Math.max(m.size, current.baseSize);
    if (!sameLine) {
      finish();
      current = {
        text: m.text,
        start: m.along,
        baseline: m.across,
        size: m.size,
        font: m.font,
        fontLength: m.text.length,
        end: m.end,
        direction: m.direction,
        baseSize: m.size,
      };
    } else if (current) {
      const gap = m.along - current.end;
      const needsSpace = gap > 0.15 * Math.min(m.size, current.size) && !current.text.endsWith(' ') && !m.text.startsWith(' ');
      current.text += (needsSpace ? ' ' : '') + m.text;
      current.end = Math.max(current.end, m.end);
      if (m.size > current.baseSize) {
        // The line's baseline is that of its main text, not of a leading superscript.
        current.baseline = m.across;
        current.baseSize = m.size;
      }
      current.size = Math.max(current.size, m.size);
      if (m.text.length > current.fontLength) {
        current.font = m.font;
        current.fontLength = m.text.length;
      }
    }
    breakPending = m.hasEOL;
  }
  finish();
  return lines;
}

/**
 * Joins a line to the paragraph text so far, undoing end-of-line hyphenation: "com-" + "pile"
 * → "compile"; before a capital or a digit the hyphen is kept ("COVID-" + "19" → "COVID-19").
 */
export function joinLine(text: string, next: string): string {
  if (text === '') return next;
  if (text.endsWith('\u00AD')) return text.slice(0, -1) + next;
  if (/\p{L}-$/u.test(text)) {
    if (/^\p{Ll}/u.test(next)) return text.slice(0, -1) + next;
    if (/^[\p{Lu}\p{Nd}]/u.test(next)) return text + next;
  }
  return text + ' ' + next;
}

/** A line that starts a list item: a bullet glyph, or a dash followed by a space. */
const BULLET = /^(?:[•◦▪▫●○■□►▸‣⁃∙]|[-–—*] )/u;

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Groups lines into paragraphs. A new paragraph starts when the type changes (the size by a
 * quarter, or by a tenth with another font: OCR text layers jitter in size but not in font),
 * at a bullet, when the text moves up (a new column or block in the stream), or when the gap to the previous
 * line is clearly larger than the page's usual line spacing.
 */
export function paragraphsOf(lines: readonly Line[]): Paragraph[] {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1] as Line;
    const line = lines[i] as Line;
    const gap = prev.baseline - line.baseline;
    const size = Math.max(prev.size, line.size);
    if (gap > 0.6 * size && gap < 3 * size) gaps.push(gap / size);
  }
  // The usual spacing in font sizes (1.2 for single-spaced text); unknown on a one-line page.
  const usual = median(gaps) ?? 1.2;

  const paragraphs: Paragraph[] = [];
  let current: Paragraph | undefined;
  let prev: Line | undefined;
  for (const line of lines) {
    let startsNew = current === undefined || prev === undefined;
    if (!startsNew && prev) {
      const size = Math.max(prev.size, line.size);
      const gap = prev.baseline - line.baseline;
      const change = Math.abs(prev.size - line.size) / size;
      const typeChanged = change > 0.25 || (change > 0.1 && prev.font !== line.font);
      startsNew = typeChanged || BULLET.test(line.text) || gap < 0.3 * size || gap > Math.max(usual * 1.3, usual + 0.25) * size;
    }
    if (startsNew || !current) {
      current = { text: line.text, top: line.baseline, bottom: line.baseline, size: line.size };
      paragraphs.push(current);
    } else {
      current.text = joinLine(current.text, line.text);
      current.bottom = line.baseline;
    }
    prev = line;
  }
  return paragraphs;
}
