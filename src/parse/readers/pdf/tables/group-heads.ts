/**
 * Heads over groups of columns, set above the column heads (a model's name centred over its
 * three metrics: "ReACT" over "Procedure | Completion | Knowledge"): the line right above the
 * head row, within a line space, whose runs of words (a few words each, two runs or more) each
 * stand centred — within two points — over a run of two or more of the grid's columns, inside
 * them. Each is a head spanning its columns; the columns under no group head get an empty cell.
 * A caption or a title runs across the columns, centred over no run of them but the whole.
 */
import type { Word } from '../page-model.ts';
import { textLines } from './aligned.ts';
import { cellText, centreIn } from './cell-text.ts';
import type { GridCell } from './grid.ts';

/** Words in a group head, at most. */
const MAX_GROUP_WORDS = 4;
/** How far (points) a group head's centre may stand from its columns' centre. */
const CENTRED = 2;
/** Columns of a grid whose group heads are sought, at most: each head tries every run of columns. */
const MAX_COLUMNS = 60;

export function groupHeads(words: readonly Word[], top: number, xs: readonly number[], size: number): GridCell[] | undefined {
  if (xs.length - 1 > MAX_COLUMNS) return undefined;
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const lines = textLines(words.filter((w) => centreIn(w, { x0, x1, y0: top - 3 * size, y1: top })), size);
  const line = lines[lines.length - 1];
  if (!line || top - line.y1 > size || line.chunks.length < 2) return undefined;
  const cols = xs.length - 1;
  const taken = new Array<boolean>(cols).fill(false);
  const cells: GridCell[] = [];
  const y0 = line.y0 - 1;
  for (const chunk of line.chunks) {
    if (chunk.words.length > MAX_GROUP_WORDS) return undefined;
    const centre = (chunk.x0 + chunk.x1) / 2;
    // The narrowest run of columns it is centred over (a wider run may share the centre).
    let span: [number, number] | undefined;
    for (let i = 0; i < cols; i++) {
      for (let j = i + 2; j <= cols; j++) {
        const a = xs[i] as number;
        const b = xs[j] as number;
        if (chunk.x0 >= a - 1 && chunk.x1 <= b + 1 && Math.abs((a + b) / 2 - centre) <= CENTRED && (!span || j - i < span[1] - span[0])) span = [i, j];
      }
    }
    if (!span) return undefined;
    const [from, to] = span;
    for (let c = from; c < to; c++) {
      if (taken[c]) return undefined;
      taken[c] = true;
    }
    cells.push({ row: 0, col: from, rowSpan: 1, colSpan: to - from, x0: xs[from] as number, x1: xs[to] as number, y0, y1: top, words: chunk.words, text: cellText(chunk.words) });
  }
  taken.forEach((t, c) => {
    if (!t) cells.push({ row: 0, col: c, rowSpan: 1, colSpan: 1, x0: xs[c] as number, x1: xs[c + 1] as number, y0, y1: top, words: [], text: '' });
  });
  return cells.sort((a, b) => a.col - b.col);
}
