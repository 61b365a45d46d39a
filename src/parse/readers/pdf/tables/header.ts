/**
 * Header rows: the leading rows above a rule that sets the head off (booktabs' mid rule), else
 * the leading rows whose words are all bold while the rows below are not all bold, else a first
 * row set in capitals over a body that is not (a typographer sets column heads apart by a rule,
 * by weight or by case), else a first row of words over a body of figures (figure-heads.ts). A header
 * cell spanning several rows makes
 * those rows header rows too (a two-level header: "Result" over "Seats" and "Votes").
 */
import type { LaidOutTable } from './grid.ts';
import { SNAP } from './segments.ts';
import { wordsOverFigures } from './figure-heads.ts';

function allBold(t: LaidOutTable, row: number): boolean {
  const words = t.cells.filter((c) => c.row === row).flatMap((c) => c.words);
  return words.length > 0 && words.every((w) => w.bold);
}

/** Whether every cell starting in the row ends above the head rule. */
function aboveRule(t: LaidOutTable, row: number, rule: number): boolean {
  const cells = t.cells.filter((c) => c.row === row);
  return cells.length > 0 && cells.every((c) => c.y1 <= rule + SNAP);
}

/**
 * Column heads set in capitals over a body that is not: the row's cells (two or more hold text)
 * are each words in upper case, none a figure, and some body row has lower-case letters.
 */
function capitalsHead(t: LaidOutTable): boolean {
  const cells = t.cells.filter((c) => c.row === 0 && c.text !== '');
  if (cells.length < 2 || !cells.every((c) => /\p{Lu}{2}/u.test(c.text) && !/\p{Ll}/u.test(c.text) && !/^[\d\s.,%()$€£+-]+$/u.test(c.text))) return false;
  return t.cells.some((c) => c.row > 0 && /\p{Ll}/u.test(c.text));
}

export function headerRows(t: LaidOutTable, { capitals = true } = {}): number {
  let rows = 0;
  const rule = t.headRule;
  if (rule !== undefined) while (rows < t.rows && aboveRule(t, rows, rule)) rows++;
  if (rows === 0) while (rows < t.rows && allBold(t, rows)) rows++;
  if (rows === 0 && capitals && capitalsHead(t)) rows = 1;
  if (rows === 0 && capitals && wordsOverFigures(t)) rows = 1;
  // All bold (or none): no header told apart by weight or a rule.
  if (rows === 0 || rows === t.rows) return 0;
  // Rows under a header cell's span belong to the header.
  let end = rows;
  for (const c of t.cells) if (c.row < rows) end = Math.max(end, c.row + c.rowSpan);
  return end < t.rows ? end : 0;
}
