/**
 * Borderless tables with no rule at all, found conservatively (a false table in running text costs
 * more than a missed one): at least three consecutive lines at row spacing, each split into
 * several runs by wide gaps with at least one short run (a figure, a label), whose columns then
 * hold aligned cells — flush left, flush right or centred — in most rows.
 */
import type { Word } from '../page-model.ts';
import { type AlignedRegion, flushGutters, type TextLine, textLines } from './aligned.ts';
import type { LaidOutTable } from './grid.ts';
import type { Line } from './segments.ts';

const MIN_LINES = 3;
/** A head line over a borderless table holds a few words per column at most. */
const MAX_HEAD_WORDS = 12;
/** Words in a run that still count as a short cell. */
const SHORT_RUN = 3;
/** Share of a column's cells that must line up on one edge or on their centre. */
const ALIGNED_SHARE = 0.6;

function tabular(line: TextLine): boolean {
  return line.chunks.length >= 2 && line.chunks.some((c) => c.words.length <= SHORT_RUN);
}

/** Runs of table-like lines, as regions (with the rules that cross them). */
export function borderlessRegions(words: readonly Word[], size: number, rules: readonly Line[]): AlignedRegion[] {
  const lines = textLines(words, size);
  const out: AlignedRegion[] = [];
  let run: TextLine[] = [];
  let before: TextLine | undefined;
  const flush = (): void => {
    // One row under a bold head line whose words each head one of its cells (set flush
    // under them): a table of two rows, too few to find by alignment alone.
    const only = run.length === 1 ? run[0] : undefined;
    if (only && before && only.y0 - before.y1 <= 1.2 * size && flushGutters([before, only]).length > 0) {
      const pair = [before, only];
      const box = { x0: Math.min(...pair.map((l) => l.x0)), x1: Math.max(...pair.map((l) => l.x1)), y0: before.y0 - 1, y1: only.y1 + 1 };
      out.push({ ...box, rules: rules.filter((r) => r.at > box.y0 && r.at < box.y1 && r.to > box.x0 && r.from < box.x1), headed: true });
    } else if (run.filter(tabular).length >= MIN_LINES) {
      const x0 = Math.min(...run.map((l) => l.x0));
      const x1 = Math.max(...run.map((l) => l.x1));
      // The head line just above (across most of the width), when its words set closer than a
      // gutter made it one run — not a sentence introducing the table ("Here is a comparison of
      // popular programming languages:"), which ends in a colon.
      const first = run[0] as TextLine;
      const intro = before !== undefined && /:$/u.test(before.words[before.words.length - 1]?.text ?? '');
      if (before && !intro && first.y0 - before.y1 <= 1.2 * size && before.x0 >= x0 - size && before.x1 <= x1 + 0.5 * (x1 - x0) && before.x1 - before.x0 >= 0.5 * (x1 - x0) && before.chunks.flatMap((c) => c.words).length <= MAX_HEAD_WORDS) run.unshift(before);
      const box = {
        x0: Math.min(...run.map((l) => l.x0)),
        x1: Math.max(...run.map((l) => l.x1)),
        y0: Math.min(...run.map((l) => l.y0)) - 1,
        y1: Math.max(...run.map((l) => l.y1)) + 1,
      };
      out.push({ ...box, rules: rules.filter((r) => r.at > box.y0 && r.at < box.y1 && r.to > box.x0 && r.from < box.x1) });
    }
    run = [];
  };
  // A short line of one run between two table-like lines (a row whose cells happen to sit
  // closer than a gutter) stays in the table; it does not count towards the three lines.
  let pending: TextLine | undefined;
  for (const line of lines) {
    const prev = pending ?? run[run.length - 1];
    const close = prev !== undefined && line.y0 - prev.y1 <= 1.2 * size;
    if (tabular(line)) {
      if (run.length > 0 && !close) {
        flush();
        before = pending;
      } else if (pending) run.push(pending);
      pending = undefined;
      run.push(line);
      continue;
    }
    const short = line.chunks.length === 1 && (line.chunks[0]?.words.length ?? 0) <= 2 * SHORT_RUN;
    if (run.length > 0 && !pending && close && short) {
      pending = line;
      continue;
    }
    flush();
    pending = undefined;
    before = line;
  }
  flush();
  return out;
}

function lineUp(values: number[], tolerance: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return values.filter((v) => Math.abs(v - median) <= tolerance).length / values.length;
}

/** Every column lines its cells up on one edge or their centre in most rows. */
export function columnsAligned(t: LaidOutTable, size: number): boolean {
  let judged = 0;
  for (let c = 0; c < t.cols; c++) {
    const boxes = t.cells.filter((cell) => cell.col === c && cell.colSpan === 1 && cell.words.length > 0).map((cell) => ({
      x0: Math.min(...cell.words.map((w) => w.x0)),
      x1: Math.max(...cell.words.map((w) => w.x1)),
    }));
    // A column of one cell (a currency sign on the first and total rows only) is not judged.
    if (boxes.length < 2) continue;
    judged++;
    const tolerance = 0.5 * size;
    const best = Math.max(
      lineUp(boxes.map((b) => b.x0), tolerance),
      lineUp(boxes.map((b) => b.x1), tolerance),
      lineUp(boxes.map((b) => (b.x0 + b.x1) / 2), tolerance),
    );
    if (best < ALIGNED_SHARE) return false;
  }
  return judged >= 2;
}

/** Running-text cells: a column whose cells are mostly longer than a few words. */
const LONG_CELL_WORDS = 5;

/**
 * What a borderless candidate must also pass, being found on alignment alone: every column short
 * (no column of running text beside a column of numbers, which is two columns of prose with
 * footnote marks or side notes), one type size (an infographic mixes sizes), and not a table of
 * contents (entries and their page numbers, which read as text).
 */
export function plausibleBorderless(t: LaidOutTable): boolean {
  for (let c = 0; c < t.cols; c++) {
    const counts = t.cells
      .filter((cell) => cell.col === c && cell.colSpan === 1 && cell.text !== '')
      .map((cell) => cell.text.split(' ').length)
      .sort((a, b) => a - b);
    if ((counts[Math.floor(counts.length / 2)] ?? 0) > LONG_CELL_WORDS) return false;
  }
  const words = t.cells.flatMap((c) => c.words);
  const sizes = words.map((w) => w.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 0;
  if (words.filter((w) => Math.abs(w.size - median) <= 0.2 * median).length < 0.8 * words.length) return false;
  return !contentsLike(t);
}

const PAGE_NUMBER = /^(?:\d{1,4}|[ivxlc]{1,7})$/i;

/**
 * A table of contents: two columns, entries and their page numbers (arabic or roman), with no
 * column head over the numbers. Read as text, as the references and readers expect.
 */
export function contentsLike(t: LaidOutTable): boolean {
  if (t.cols !== 2) return false;
  const last = t.cells.filter((c) => c.col === 1 && c.text !== '');
  return last.length >= 3 && last.every((c) => PAGE_NUMBER.test(c.text));
}
