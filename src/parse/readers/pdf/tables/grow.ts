/**
 * A table around a lone rule (the line under a borderless table's head) or an open frame (a rule
 * under the head and one between the first column and the rest): the region grows from the rule
 * to the text lines above and below it that look like table rows — several cells, or one short
 * one; above it, a head's wrapped line too; below, a cell's text wrapped under its row — and stops at a blank line, at running text, or at the head of another table sitting on
 * its own head rule (`nextHeads`), leaving out a title of one run set over that head.
 */
import type { Box, Word } from '../page-model.ts';
import { type AlignedRegion, type TextLine, textLines } from './aligned.ts';
import type { Line } from './segments.ts';

/** A line of one run this many words long, or this share of the width, is running text. */
const PROSE_WORDS = 6;
const PROSE_SHARE = 0.6;
/** A line set this many times the rows' size, or larger, is a head. */
const LARGER = 1.1;

function rowLike(line: TextLine, width: number): boolean {
  if (line.chunks.length >= 2) return true;
  const only = line.chunks[0];
  return only !== undefined && only.words.length < PROSE_WORDS && only.x1 - only.x0 < PROSE_SHARE * width;
}

/** Lines of a cell's text running on under its row, at most, taken as the row's. */
const MAX_WRAPPED = 5;

/**
 * Whether the line goes on with a cell of the line above (a cell's text wrapped under its row):
 * one run of text, right under that line at line spacing, starting flush with one of its cells
 * other than the first column's, and ending within the table's width.
 */
function cellGoesOn(prev: TextLine, line: TextLine, seed: Box, size: number): boolean {
  const only = line.chunks[0];
  if (line.chunks.length !== 1 || !only || line.y0 - prev.y1 > 0.6 * size || only.x1 > seed.x1 + size) return false;
  if (only.x0 < seed.x0 + 2 * size) return false;
  return prev.chunks.some((c) => Math.abs(c.x0 - only.x0) <= 1);
}

/**
 * The region around `seed` (a rule's or an open frame's box), or undefined when fewer than three
 * rows of table-like lines surround it. `words` are the page's words not yet in a table.
 */
export function grownRegion(seed: Box, rules: Line[], words: readonly Word[], size: number, { headed = false, nextHeads = [] as readonly Line[] } = {}): AlignedRegion | undefined {
  const width = seed.x1 - seed.x0;
  const near = words.filter((w) => {
    const x = (w.x0 + w.x1) / 2;
    return x >= seed.x0 - size && x <= seed.x1 + size;
  });
  const lines = textLines(near, size);
  let first = lines.findIndex((l) => l.y0 >= seed.y0 - 1);
  if (first < 0) return undefined;
  let last = first - 1;
  // Down from the top of the seed: inside it, then while lines look like rows at row spacing.
  let wrapped = 0;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i] as TextLine;
    const prev = lines[i - 1];
    const inside = line.y1 <= seed.y1 + 1;
    if (!inside) {
      const going = prev !== undefined && i > first && cellGoesOn(prev, line, seed, size);
      wrapped = going ? wrapped + 1 : 0;
      if (!rowLike(line, width) && !(going && wrapped <= MAX_WRAPPED)) break;
      if (prev && i > first && line.y0 - prev.y1 > 1.2 * size) break;
      // A line of one run set larger than the rows is a head after the table, not a row.
      if (headed && line.chunks.length === 1 && Math.min(...line.words.map((w) => w.size)) > LARGER * Math.max(...lines.slice(first, i).flatMap((l) => l.words.map((w) => w.size)))) break;
      // The head of the next table, sitting on its own head rule, and a title of one run over it.
      if (nextHeads.some((r) => r.at >= line.y1 && r.at - line.y1 <= 0.5 * size)) {
        while (last > first && (lines[last] as TextLine).chunks.length < 2 && (lines[last] as TextLine).y0 > seed.y1) last--;
        break;
      }
    }
    last = i;
  }
  // Up from the seed: lines close above it with several cells (the head, rows above a shaded
  // one), and a line of one cell whose text goes on a head cell of the line right above it at
  // line spacing (column heads wrapped: "Assoc" over "status").
  for (;;) {
    const above = lines[first - 1];
    const below = lines[first];
    if (!above || !below || below.y0 - above.y1 > 1.2 * size) break;
    if (above.chunks.length >= 2) {
      first--;
      continue;
    }
    const top = lines[first - 2];
    if (!top || top.chunks.length < 2 || above.y0 - top.y1 > 0.6 * size || !above.chunks.every((c) => top.chunks.some((t) => c.x0 >= t.x0 - 1 && c.x0 <= t.x1))) break;
    first -= 2;
  }
  if (last - first + 1 < 3) return undefined;
  const taken = lines.slice(first, last + 1);
  return {
    x0: Math.min(seed.x0, ...taken.map((l) => l.x0)),
    x1: Math.max(seed.x1, ...taken.map((l) => l.x1)),
    y0: Math.min(seed.y0, ...taken.map((l) => l.y0)) - 1,
    y1: Math.max(seed.y1, ...taken.map((l) => l.y1)) + 1,
    rules,
  };
}
