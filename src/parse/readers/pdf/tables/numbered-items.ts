/**
 * Items numbered across a grid are no table (a page of cards: "1. Euler's Identity …",
 * "2. Pythagorean Theorem …" side by side, "3. …", "4. …" under them): a list laid out in a grid
 * or in columns. A table numbers its rows, in one column, if at all; here every cell starts with
 * an item number and a word, and the numbers run on one by one in reading order — along the
 * rows, or down the columns — through four cells or more in two columns or more.
 */
import type { LaidOutTable } from './grid.ts';

const ITEM = /^(\d{1,3})[.)]\s+\p{L}/u;
/** Cells, at least, of a grid of numbered items. */
const MIN_ITEMS = 4;

function runsOn(numbers: readonly number[]): boolean {
  return numbers.every((n, i) => i === 0 || n === (numbers[i - 1] as number) + 1);
}

export function numberedItems(t: LaidOutTable): boolean {
  const filled = t.cells.filter((c) => c.text !== '');
  if (filled.length < MIN_ITEMS || new Set(filled.map((c) => c.col)).size < 2) return false;
  const number = new Map(filled.map((c) => [c, Number(ITEM.exec(c.text)?.[1] ?? Number.NaN)]));
  if ([...number.values()].some((n) => Number.isNaN(n))) return false;
  const alongRows = [...filled].sort((a, b) => a.row - b.row || a.col - b.col).map((c) => number.get(c) as number);
  const downColumns = [...filled].sort((a, b) => a.col - b.col || a.row - b.row).map((c) => number.get(c) as number);
  return runsOn(alongRows) || runsOn(downColumns);
}
