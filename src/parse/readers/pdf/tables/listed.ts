/**
 * Listed rows: a ruled row whose first cell lists several entries, one to a line ("1) Ricavi …",
 * "2) Variazione …", "3) …"), each with its values on its own baseline in the other cells, is
 * that many rows. A statement ruled only around its totals sets its items so: the rules group
 * them, the lines are the rows. A row of wrapped text is not this: its label's lines run to the
 * measure and the next goes on, often in lower case, and its other cells wrap over lines of
 * their own.
 *
 * The signs, all required: the first cell holds two or more entries — a line starts one when it
 * starts with an item mark ("a)", "b.", "12)"), or in upper case (or a figure) after a line that
 * ended short (the line's first word would have fitted after it: the author ended the line, it
 * did not wrap); every line of every other cell stands on the baseline of one of the first
 * cell's lines and is a value (a number, or at most two words), one line per entry and cell at
 * most; some cell other than the first holds a value, and one of the values is a number (a
 * form's box labels, "9a", are not).
 */
import type { Word } from '../page-model.ts';
import { joinLines, lineText, wordLines } from './cell-text.ts';
import { type GridCell, type LaidOutTable, partRows } from './grid.ts';
import { baseline, NUMBER, valueLine } from './stacked.ts';

/** An item mark opening a line: "a)", "b.", "(iv)", "12)". */
export const ITEM_MARK = /^\(?(?:\p{Ll}{1,2}|[ivx]{1,4}|\d{1,3})[.)]$/u;

/** A baseline within this share of the type size of another is the same line. */
const SAME_LINE = 0.3;

/** A word space, in ems. */
const SPACE_EM = 0.25;

/**
 * Whether a label line goes on with the entry above it rather than starting one: it starts in
 * lower case (not with an item mark), or the line above was full — its first word would not
 * have fitted at the end of the line above within the label's measure (its cell less the padding
 * on the left, or its longest line when that is wider), so
 * the line was wrapped, not ended.
 */
export function continues(above: readonly Word[], line: readonly Word[], measure: number): boolean {
  const first = line[0];
  if (!first) return false;
  if (ITEM_MARK.test(first.text)) return false;
  if (/^\p{Ll}/u.test(first.text)) return true;
  const end = Math.max(...above.map((w) => w.x1));
  return end + SPACE_EM * first.size + (first.x1 - first.x0) > measure + 0.5;
}

/** The row's cells, each as its lines per entry (entry index → line), or undefined when the row is not listed. */
function listedLines(row: readonly GridCell[]): { entries: Word[][][]; lines: Map<GridCell, Map<number, Word[]>> } | undefined {
  const label = row.find((c) => c.col === 0);
  if (!label) return undefined;
  const labelLines = wordLines(label.words);
  if (labelLines.length < 2) return undefined;
  // Entries: label lines, a line going on in lower case joined to the one above.
  // The label's measure: its cell less the padding its text keeps on the left, or its longest line.
  const measure = Math.max(...label.words.map((w) => w.x1), label.x1 - (Math.min(...label.words.map((w) => w.x0)) - label.x0));
  const entries: Word[][][] = [];
  const entryOf: number[] = [];
  labelLines.forEach((line, i) => {
    const above = labelLines[i - 1];
    if (above && continues(above, line, measure)) (entries[entries.length - 1] as Word[][]).push(line);
    else entries.push([line]);
    entryOf.push(entries.length - 1);
  });
  if (entries.length < 2) return undefined;
  const size = Math.max(...row.flatMap((c) => c.words.map((w) => w.size)));
  const baselines = labelLines.map(baseline);
  const lines = new Map<GridCell, Map<number, Word[]>>();
  const withValues = new Set<number>();
  let numbers = false;
  for (const c of row) {
    if (c === label) continue;
    const byEntry = new Map<number, Word[]>();
    for (const line of wordLines(c.words)) {
      const at = baselines.findIndex((b) => Math.abs(b - baseline(line)) <= SAME_LINE * size);
      if (at < 0 || !valueLine(lineText(line))) return undefined;
      const entry = entryOf[at] as number;
      if (byEntry.has(entry)) return undefined;
      byEntry.set(entry, line);
      numbers ||= NUMBER.test(lineText(line));
      withValues.add(entry);
    }
    lines.set(c, byEntry);
  }
  if (withValues.size === 0 || !numbers) return undefined;
  return { entries, lines };
}

/** The table with each listed body row (rows at or below `bodyFrom`) parted into a row per entry. */
export function splitListedRows(t: LaidOutTable, bodyFrom: number): LaidOutTable {
  return partRows(t, bodyFrom, (row) => {
    const listed = listedLines(row);
    if (!listed) return undefined;
    const { entries, lines } = listed;
    return {
      n: entries.length,
      cellsOf: (c, r) => {
        if (c.col === 0) return entries.map((entry, i) => ({ ...c, row: r + i, words: entry.flat(), text: joinLines(entry.map(lineText)) }));
        const byEntry = lines.get(c) as Map<number, Word[]>;
        return entries.map((_, i) => {
          const line = byEntry.get(i) ?? [];
          return { ...c, row: r + i, words: line, text: lineText(line) };
        });
      },
    };
  });
}
