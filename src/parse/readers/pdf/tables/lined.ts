/**
 * Rows drawn by the text where a ruled grid leaves a column unruled: a grid whose rows are drawn
 * in some columns only (shaded value cells, a rule under each group) would merge the other
 * columns' cells over several rows. Where such a column holds one line in the row above the
 * missing edge and one in the row below, each on its row's baseline (the line the other
 * columns' text stands on), and the lower line starts an entry of its own (not a wrapped
 * label's next line: listed.ts; two figures one over the other always are), the text draws the
 * edge: "Slope only" / "Linear regression" beside the rows of their values are two cells, not one.
 */
import type { Word } from '../page-model.ts';
import { lineText, wordLines } from './cell-text.ts';
import { continues, ITEM_MARK } from './listed.ts';
import { baseline, NUMBER } from './stacked.ts';

/** A baseline within this share of the type size of another is the same line. */
const SAME_LINE = 0.3;

function inColumn(w: Word, x0: number, x1: number): boolean {
  const x = (w.x0 + w.x1) / 2;
  return x >= x0 && x < x1;
}

/** The one line of the column's words in a row, on the baseline of the row's other text, or undefined. */
function rowLine(row: readonly Word[], x0: number, x1: number): Word[] | undefined {
  const lines = wordLines(row.filter((w) => inColumn(w, x0, x1)));
  const line = lines[0];
  if (lines.length !== 1 || !line) return undefined;
  const at = baseline(line);
  const size = Math.max(...line.map((w) => w.size));
  const others = row.filter((w) => !inColumn(w, x0, x1));
  return others.some((w) => Math.abs(w.baseline - at) <= SAME_LINE * size) ? line : undefined;
}

/**
 * Whether the text draws the edge between two rows (their words, `above` and `below`) in the
 * column x0..x1 where no rule does.
 */
export function textDrawsEdge(above: readonly Word[], below: readonly Word[], x0: number, x1: number): boolean {
  const upper = rowLine(above, x0, x1);
  const lower = rowLine(below, x0, x1);
  if (!upper || !lower) return false;
  // Two figures one over the other are two values: a number does not wrap.
  if (NUMBER.test(lineText(upper)) && NUMBER.test(lineText(lower))) return true;
  // The column's measure: its width less the padding its text keeps on the left. A line running
  // out of its column (a group's label over the columns beside it, a label in a diagram's box)
  // is followed by an entry of its own only when that entry is numbered ("Reactor Lab" over "10").
  if (Math.max(...upper.map((w) => w.x1)) > x1) return NUMBER.test(lower[0]?.text ?? '') || ITEM_MARK.test(lower[0]?.text ?? '');
  const left = Math.min(...upper.map((w) => w.x0), ...lower.map((w) => w.x0));
  return !continues(upper, lower, x1 - Math.max(0, left - x0));
}
