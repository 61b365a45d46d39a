/**
 * Layout analysis of a PDF's pages (issue 3 §1), over the PageModel whatever produced it (text
 * layer or OCR): words → lines → reading order (XY-cut) → blocks, then, with the whole document
 * in view, running headers/footers, headings and their levels, lists and footnotes, rendered as
 * the intermediate document's `<section data-page="N">` per page.
 */
import type { PageModel } from '../page-model.ts';
import type { Block } from './blocks.ts';
import { findFurniture, type Furniture } from './furniture.ts';
import { headingLevels, isHeading } from './headings.ts';
import { plainText } from './inline.ts';
import { layoutPage, mainFont, mainSize, type LayoutTable, type PageLayout } from './page.ts';
import { renderPage, type Role } from './render.ts';

export { joinLine } from './inline.ts';
export type { LayoutTable } from './page.ts';

/** Finds the tables of a page (the table finder's seam); none by default. */
export type TableFinder = (page: PageModel) => LayoutTable[];

/**
 * Footnotes: a block set smaller than its page's body, in the lower part of the page, with no
 * body-size text below it in its column (the footnote area under the text, often under a short
 * rule). They are read after the page's body.
 */
function isFootnote(block: Block, layout: PageLayout, pageBody: number, blocks: readonly Block[]): boolean {
  if (block.size > 0.88 * pageBody || block.y0 < 0.6 * layout.page.height) return false;
  return !blocks.some((b) => b !== block && b.y0 > block.y1 && b.size > 0.95 * pageBody && Math.min(b.x1, block.x1) > Math.max(b.x0, block.x0));
}

function weightedBody(layouts: readonly PageLayout[]): number {
  const chars = new Map<number, number>();
  for (const l of layouts) {
    for (const u of l.units) {
      if (u.kind !== 'block') continue;
      for (const line of u.block.lines) for (const w of line.words) chars.set(line.size, (chars.get(line.size) ?? 0) + w.text.length);
    }
  }
  let size = 10;
  let best = -1;
  for (const [s, n] of chars) if (n > best) [size, best] = [s, n];
  return size;
}

/** The pages as HTML: one `<section data-page="N">` each. */
export function layoutDocument(models: readonly PageModel[], findTables: TableFinder = () => []): string {
  const layouts = models.map((page) => layoutPage(page, page.words.length > 0 ? findTables(page) : []));
  const blocksOf = layouts.map((l) => l.units.flatMap((u) => (u.kind === 'block' ? [u.block] : [])));
  const furniture = findFurniture(layouts.map((l, i) => ({ height: l.page.height, blocks: blocksOf[i] ?? [] })));
  const documentBody = weightedBody(layouts);

  const roles = layouts.map(() => new Map<Block, Role>());
  const texts = new Map<Block, string>();
  const headings: Block[] = [];
  layouts.forEach((layout, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageLines = blocks.flatMap((b) => b.lines);
    const pageBody = mainSize(pageLines);
    const pageFont = mainFont(pageLines);
    const marks = furniture[p] as Map<number, Furniture>;
    const pageRoles = roles[p] as Map<Block, Role>;
    blocks.forEach((block, i) => {
      const text = plainText(block.lines);
      texts.set(block, text);
      const where = marks.get(i);
      if (where) pageRoles.set(block, { kind: where });
      else if (isHeading(block, text, { documentBody, pageBody, pageFont })) {
        pageRoles.set(block, { kind: 'heading', level: 0 });
        headings.push(block);
      } else if (isFootnote(block, layout, pageBody, blocks)) pageRoles.set(block, { kind: 'footnote' });
    });
  });
  const levels = headingLevels(headings);
  for (const pageRoles of roles) {
    for (const [block, role] of pageRoles) if (role.kind === 'heading') pageRoles.set(block, { kind: 'heading', level: levels.get(block) ?? 2 });
  }
  return layouts.map((layout, p) => renderPage(layout, roles[p] as Map<Block, Role>, texts)).join('\n');
}
