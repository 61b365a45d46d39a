/**
 * Column heads underlined above a grid: a financial statement sets its heads over the grid with
 * a short rule under each head, each rule running over the columns its head covers ("Jan 26,
 * 2025" over its "$" and figure columns) and broken at the gutters between groups; a head over
 * several groups ("Year Ended") has a broken rule under all of them. The rules' ends fall on the
 * grid's column lines, which is what makes them the grid's heads.
 *
 * Each text line from the line over the topmost such rule down to the grid is a head row; the
 * pieces of rule right under a line go to the nearest of its heads (text parted by gutters), and
 * a head spans the columns of its pieces; a head with no rule under it stands in the column
 * holding its centre. Two or more pieces are required, each with text standing right over it,
 * and heads that would overlap decide nothing.
 */
import type { Box, Word } from '../page-model.ts';
import { cellText } from './cell-text.ts';
import type { GridCell } from './grid.ts';
import { type TextLine, textLines } from './aligned.ts';
import type { Line } from './segments.ts';

/** A rule's end this close (points) to a column line ends on it. */
const ON_LINE = 2.5;
/** Head lines, at most, in ems of the text above the grid. */
const HEAD_DEPTH_EM = 6;

interface Piece {
  at: number;
  /** Grid columns [from, to) the piece runs over. */
  from: number;
  to: number;
}

function pieces(rules: readonly Line[], frame: Box, xs: readonly number[], size: number): Piece[] {
  const out: Piece[] = [];
  for (const r of rules) {
    if (r.at >= frame.y0 - 1 || r.at < frame.y0 - HEAD_DEPTH_EM * size) continue;
    const from = xs.findIndex((x) => Math.abs(x - r.from) <= ON_LINE);
    const to = xs.findIndex((x) => Math.abs(x - r.to) <= ON_LINE);
    // Over the figures' columns only: a rule from the grid's left edge is a table's own rule.
    if (from > 0 && to > from) out.push({ at: r.at, from, to });
  }
  return out;
}

/** The head rows above the grid (rows 0…n-1), or undefined when no rules underline heads there. */
export function underlinedHead(words: readonly Word[], rules: readonly Line[], frame: Box, xs: readonly number[], size: number): GridCell[] | undefined {
  const all = pieces(rules, frame, xs, size);
  // Each rule underlines text: a word standing right over one of its pieces (a drawing's strokes
  // underline nothing; a head over several groups stands over one piece of its broken rule).
  const over = (p: Piece): boolean => words.some((w) => w.baseline <= p.at + 1 && w.baseline > p.at - 1.5 * size && w.x1 > (xs[p.from] as number) && w.x0 < (xs[p.to] as number));
  const under = all.filter((p) => all.some((q) => Math.abs(q.at - p.at) <= 1 && over(q)));
  if (under.length < 2 || under.length < all.length) return undefined;
  const top = Math.min(...under.map((p) => p.at));
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const region = words.filter((w) => {
    const x = (w.x0 + w.x1) / 2;
    return x >= x0 && x <= x1 && w.y1 <= frame.y0 + 1 && w.baseline > top - 1.5 * size;
  });
  const lines = textLines(region, size);
  if (lines.length === 0) return undefined;
  const column = (x: number): number => xs.findIndex((e, i) => i + 1 < xs.length && x >= e && x < (xs[i + 1] as number));
  const cells: GridCell[] = [];
  let y0 = Math.min(...lines.map((l) => l.y0)) - 1;
  for (let r = 0; r < lines.length; r++) {
    const line = lines[r] as TextLine;
    const next = lines[r + 1];
    const bottom = next ? next.y0 : frame.y0;
    const below = under.filter((p) => p.at > line.y1 - 1 && p.at < bottom + 1);
    const spans = line.chunks.map((c) => ({ words: c.words, centre: (c.x0 + c.x1) / 2, from: Infinity, to: -Infinity }));
    for (const p of below) {
      const mid = ((xs[p.from] as number) + (xs[p.to] as number)) / 2;
      const nearest = spans.reduce((a, s) => (Math.abs(s.centre - mid) < Math.abs(a.centre - mid) ? s : a));
      nearest.from = Math.min(nearest.from, p.from);
      nearest.to = Math.max(nearest.to, p.to);
    }
    const taken: boolean[] = new Array<boolean>(xs.length - 1).fill(false);
    const rowY0 = r === 0 ? y0 : (line.y0 + (lines[r - 1] as TextLine).y1) / 2;
    const rowY1 = next ? (line.y1 + next.y0) / 2 : frame.y0;
    for (const s of spans) {
      const from = Number.isFinite(s.from) ? s.from : column(s.centre);
      const to = Number.isFinite(s.to) ? s.to : from + 1;
      if (from < 0 || taken.slice(from, to).some(Boolean)) return undefined;
      taken.fill(true, from, to);
      cells.push({ row: r, col: from, rowSpan: 1, colSpan: to - from, x0: xs[from] as number, x1: xs[to] as number, y0: rowY0, y1: rowY1, words: [...s.words], text: cellText(s.words) });
    }
    taken.forEach((t, c) => {
      if (!t) cells.push({ row: r, col: c, rowSpan: 1, colSpan: 1, x0: xs[c] as number, x1: xs[c + 1] as number, y0: rowY0, y1: rowY1, words: [], text: '' });
    });
    y0 = rowY1;
  }
  return cells.sort((a, b) => a.row - b.row || a.col - b.col);
}
