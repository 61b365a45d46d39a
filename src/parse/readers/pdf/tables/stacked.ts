/**
 * Stacked values: a body row whose cells hold a column of short values line for line ("OTSL" over
 * "HTML" beside "0.965" over "0.969", …) while its other cells hold one line set between them (a
 * label the values share) is that many rows, the one-line cells spanning them. A typographer
 * sets it so to group the rows under a shared label without repeating it; a row of wrapped text
 * is not this (its lines are long, and do not hold a value each).
 *
 * The signs, all required: two or more cells of the row hold the same number n ≥ 2 of lines and
 * their lines stand on the same baselines; every other cell holds one line or none, and a cell
 * of one line stands below the first line of the stacks (centred on them or lower: a cell at the
 * top beside wrapped text is the common case, not this); every stacked line is a value — a
 * number, or at most two words — and at least one stack is all numbers.
 */
import type { Word } from '../page-model.ts';
import { lineText, wordLines } from './cell-text.ts';
import { type GridCell, type LaidOutTable, partRows } from './grid.ts';

export const NUMBER = /^[(\-−–+]?[$€£¥]?\s?\d[\d,.\s]*%?\)?[*†‡]*$/u;

/** Whether a line holds a value: a number, or one or two words. */
export function valueLine(text: string): boolean {
  return NUMBER.test(text) || text.split(' ').length <= 2;
}

/** A line's baseline: its words' mean. */
export function baseline(line: readonly Word[]): number {
  return line.reduce((s, w) => s + w.baseline, 0) / line.length;
}

/** The row's cells split into stacks of lines, or undefined when the row is not stacked values. */
function stackedLines(cells: readonly GridCell[]): { n: number; lines: Map<GridCell, Word[][]> } | undefined {
  const lines = new Map<GridCell, Word[][]>();
  for (const c of cells) lines.set(c, wordLines(c.words));
  const n = Math.max(...[...lines.values()].map((l) => l.length));
  if (n < 2) return undefined;
  const stacks = cells.filter((c) => (lines.get(c) as Word[][]).length === n);
  if (stacks.length < 2) return undefined;
  if (cells.some((c) => {
    const k = (lines.get(c) as Word[][]).length;
    return k !== 0 && k !== 1 && k !== n;
  })) return undefined;
  const first = lines.get(stacks[0] as GridCell) as Word[][];
  const size = Math.max(...cells.flatMap((c) => c.words.map((w) => w.size)));
  for (const c of stacks) {
    const l = lines.get(c) as Word[][];
    for (let i = 0; i < n; i++) {
      if (Math.abs(baseline(l[i] as Word[]) - baseline(first[i] as Word[])) > 0.3 * size) return undefined;
      if (!valueLine(lineText(l[i] as Word[]))) return undefined;
    }
  }
  if (!stacks.some((c) => (lines.get(c) as Word[][]).every((l) => NUMBER.test(lineText(l))))) return undefined;
  // A one-line cell centred on the stacks or lower, not on their first line.
  const top = baseline(first[0] as Word[]);
  for (const c of cells) {
    const l = lines.get(c) as Word[][];
    if (l.length === 1 && baseline(l[0] as Word[]) < top + 0.5 * size) return undefined;
  }
  return { n, lines };
}

/** The table with each stacked-values body row (rows at or below `bodyFrom`) parted into its rows. */
export function splitStackedRows(t: LaidOutTable, bodyFrom: number): LaidOutTable {
  return partRows(t, bodyFrom, (row) => {
    const stacked = stackedLines(row);
    if (!stacked) return undefined;
    const { n, lines } = stacked;
    return {
      n,
      cellsOf: (c, r) => {
        const l = lines.get(c) as Word[][];
        return l.length === n ? l.map((line, i) => ({ ...c, row: r + i, words: line, text: lineText(line) })) : [{ ...c, rowSpan: n }];
      },
    };
  });
}
