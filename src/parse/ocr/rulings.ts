/**
 * Ruling lines read from the page image. A scan has no drawing for the table finder to take its
 * grid from (tables/segments.ts reads the page model's rules), but a ruled table's lines are
 * in its pixels: long, thin, straight runs of ink. A horizontal rule is a run of ink along a row
 * of pixels at least MIN_RULE_INCHES long, continued over consecutive rows (a rule's thickness)
 * but never more than MAX_THICKNESS_PT of them: a filled box, a photo or a line of text is thick
 * or broken, a rule is not. Vertical rules alike, along columns. Letters' strokes are too short
 * (a 24 pt capital stands a third of an inch) and a dash or a bar of a letter too short as well.
 *
 * The rules are in page points, like the text layer's (page-model.ts `Rule`).
 */
import type { Rule } from '../readers/pdf/page-model.ts';
import type { PageSize } from './tsv.ts';
import { type GrayImage, INK_BELOW } from './weight.ts';

/** A rule is at least this long: longer than any letter's stroke at text sizes. */
export const MIN_RULE_INCHES = 0.5;
/** A rule is at most this thick (the text layer's rules: extract.ts, 2 pt). */
const MAX_THICKNESS_PT = 2;
/** A gap of this many pixels within a run is a scan's dropout, not the end of the line. */
const DROPOUT_PX = 1;
/** More rules than this is a drawing or a halftone's texture, not a table: none are kept. */
const MAX_RULES = 2000;

interface Segment {
  /** Along the line: first and last pixel (inclusive). */
  from: number;
  to: number;
  /** Across: first and last row (or column) it covers. */
  first: number;
  last: number;
}

interface Run {
  from: number;
  to: number;
}

/**
 * Runs of ink along rows (`across` false) or columns, of at least `minRun` pixels, a dropout of
 * DROPOUT_PX bridged: `runs[i]` holds those of row (or column) i. Both read the image row by row.
 */
function longRuns(image: GrayImage, across: boolean, minRun: number): Run[][] {
  const { width, height, pixels } = image;
  const lines = across ? width : height;
  const runs: Run[][] = Array.from({ length: lines }, () => []);
  // Per line: where its current run started (-1: none) and the light pixels since its last ink.
  const start = new Int32Array(lines).fill(-1);
  const gap = new Int32Array(lines);
  const close = (line: number, at: number): void => {
    const end = at - (gap[line] as number);
    if (end - (start[line] as number) + 1 >= minRun) runs[line]?.push({ from: start[line] as number, to: end });
    start[line] = -1;
    gap[line] = 0;
  };
  const visit = (line: number, i: number, ink: boolean): void => {
    if (ink) {
      if ((start[line] as number) < 0) start[line] = i;
      gap[line] = 0;
    } else if ((start[line] as number) >= 0) {
      gap[line] = (gap[line] as number) + 1;
      if ((gap[line] as number) > DROPOUT_PX) close(line, i);
    }
  };
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const ink = (pixels[row + x] as number) < INK_BELOW;
      if (across) visit(x, y, ink);
      else visit(y, x, ink);
    }
  }
  const length = across ? height : width;
  for (let line = 0; line < lines; line++) if ((start[line] as number) >= 0) close(line, length);
  return runs;
}

/** Runs on consecutive lines that overlap, grouped into segments at most `maxThickness` lines thick. */
function segments(runs: readonly Run[][], maxThickness: number): Segment[] {
  const done: Segment[] = [];
  let open: Segment[] = [];
  runs.forEach((lineRuns, line) => {
    const next: Segment[] = [];
    for (const run of lineRuns) {
      const joined = open.find((s) => Math.min(s.to, run.to) - Math.max(s.from, run.from) >= 0.5 * Math.min(s.to - s.from, run.to - run.from));
      if (joined) {
        open = open.filter((s) => s !== joined);
        next.push({ from: Math.min(joined.from, run.from), to: Math.max(joined.to, run.to), first: joined.first, last: line });
      } else next.push({ from: run.from, to: run.to, first: line, last: line });
    }
    done.push(...open);
    open = next;
  });
  done.push(...open);
  return done.filter((s) => s.last - s.first + 1 <= maxThickness);
}

/** The page's ruling lines as the image shows them, in page points (see the file comment). */
export function rulesFromImage(image: GrayImage, page: PageSize): Rule[] {
  const { width, height } = image;
  if (width === 0 || height === 0) return [];
  const sx = page.width / width;
  const sy = page.height / height;
  const dpi = width / (page.width / 72);
  const minRun = Math.max(8, Math.round(MIN_RULE_INCHES * dpi));
  const maxThickness = Math.max(2, Math.round((MAX_THICKNESS_PT / 72) * dpi));
  const rules: Rule[] = [];
  for (const s of segments(longRuns(image, false, minRun), maxThickness)) {
    rules.push({ x0: s.from * sx, x1: (s.to + 1) * sx, y0: s.first * sy, y1: (s.last + 1) * sy, orientation: 'horizontal' });
  }
  for (const s of segments(longRuns(image, true, minRun), maxThickness)) {
    rules.push({ x0: s.first * sx, x1: (s.last + 1) * sx, y0: s.from * sy, y1: (s.to + 1) * sy, orientation: 'vertical' });
  }
  return rules.length > MAX_RULES ? [] : rules;
}
