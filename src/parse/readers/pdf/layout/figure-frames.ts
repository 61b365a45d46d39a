/**
 * A figure's frame: the box a figure is drawn in (four rules meeting at their corners, or a
 * filled panel), with the figure's caption ("Figure 3-1 …", "Fig. 2.") set right under it or
 * right over it. The text inside such a frame is the figure's own lettering — the clauses of a
 * syntax diagram, a screen's "Signed on as ALICE" — however it is set, not the document's
 * headings (redp5110's Figure 3-1 and Figure 3-5). A box with no figure caption beside it (a
 * sidebar, a boxed note) is no figure's frame, and its heads stay heads.
 */
import type { Box, PageModel } from '../page-model.ts';
import type { Block } from './blocks.ts';

/** A figure's caption label opening a block: "Figure 3-1", "Fig. 2", "Chart 4", "Exhibit 1". */
const FIGURE_CAPTION = /^(?:figure|fig\.|chart|exhibit)\s*\d/iu;
/** How far a caption may stand from its frame, in the caption's size. */
const CAPTION_GAP = 2.5;
/** Rules meeting at a corner: how far their ends may miss each other, in points. */
const CORNER = 3;
/**
 * Rules, at most, searched for frames (pairs of rules are tried): a page drawing more is hatching,
 * a chart or a map, not worth it — and a page of a hundred thousand rules must not cost minutes.
 * The table finder bounds its frames the same way (tables/ruled.ts).
 */
const MAX_RULES = 600;

function overlapsAcross(a: Box, b: Box): boolean {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
}

/** The caption stands right under the box, or right over it, across the same columns. */
function besideCaption(box: Box, caption: Block): boolean {
  if (!overlapsAcross(box, caption)) return false;
  const gap = CAPTION_GAP * caption.size;
  const under = caption.y0 - box.y1;
  const over = box.y0 - caption.y1;
  return (under > -0.5 * caption.size && under <= gap) || (over > -0.5 * caption.size && over <= gap);
}

/** Rectangles drawn as four rules: two horizontal rules of one width, joined by vertical rules at both ends. */
function ruledRectangles(page: PageModel, near: (box: Box) => boolean): Box[] {
  if (page.rules.length > MAX_RULES) return [];
  const horizontal = page.rules.filter((r) => r.orientation === 'horizontal');
  const vertical = page.rules.filter((r) => r.orientation === 'vertical');
  const rectangles: Box[] = [];
  for (const bottom of horizontal) {
    for (const top of horizontal) {
      if (top === bottom || bottom.y0 - top.y0 < 20 || Math.abs(top.x0 - bottom.x0) > CORNER || Math.abs(top.x1 - bottom.x1) > CORNER) continue;
      const box = { x0: Math.min(top.x0, bottom.x0), y0: top.y0, x1: Math.max(top.x1, bottom.x1), y1: bottom.y1 };
      if (!near(box)) continue;
      const side = (x: number) => vertical.some((v) => Math.abs(v.x0 - x) <= CORNER && v.y0 <= box.y0 + CORNER && v.y1 >= box.y1 - CORNER);
      if (side(box.x0) && side(box.x1)) rectangles.push(box);
    }
  }
  return rectangles;
}

/** The frames of the page's captioned figures. `texts` gives each block's plain text. */
export function figureFrames(page: PageModel, blocks: readonly Block[], texts: ReadonlyMap<Block, string>): Box[] {
  const captions = blocks.filter((b) => FIGURE_CAPTION.test((texts.get(b) ?? '').trim()));
  if (captions.length === 0) return [];
  // A frame round most of the page is the page's border, not a figure's.
  const figureSized = (box: Box) => box.y1 - box.y0 < 0.8 * page.height;
  const near = (box: Box) => figureSized(box) && captions.some((c) => besideCaption(box, c));
  const panels = page.fills.filter((f) => f.y1 - f.y0 >= 20 && near(f));
  return [...ruledRectangles(page, near), ...panels];
}

/** The block lies wholly inside one of the frames. */
export function insideFrame(block: Box, frames: readonly Box[]): boolean {
  return frames.some((f) => block.x0 >= f.x0 - 1 && block.x1 <= f.x1 + 1 && block.y0 >= f.y0 - 1 && block.y1 <= f.y1 + 1);
}
