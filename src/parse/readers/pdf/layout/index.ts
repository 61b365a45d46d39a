/**
 * Layout analysis of a PDF's pages (issue 3 §1), over the PageModel whatever produced it (text
 * layer or OCR): words → lines → reading order (XY-cut) → blocks, then, with the whole document
 * in view, running headers/footers, headings and their levels, lists and footnotes, rendered as
 * the intermediate document's `<section data-page="N">` per page. A tagged PDF's structure
 * (roles of the words' blocks, artifacts) is stronger evidence than the type where present.
 */
import type { PageModel, Word } from '../page-model.ts';
import type { Block } from './blocks.ts';
import { isCodeBlock } from './code.ts';
import { figureFrames, insideFrame } from './figure-frames.ts';
import { band, findFurniture, type Furniture } from './furniture.ts';
import { CAPTION, continuesText, displayStacks, headingLevels, headOverSmallerPage, insideNumberedList, isHeading, isRunningHead, isSubtitle, outsideHeadingFace, styleKey } from './headings.ts';
import { plainText } from './inline.ts';
import { layoutPage, mainFont, mainSize, type LayoutTable, type PageLayout } from './page.ts';
import { renderPage, type Role } from './render.ts';
import { blockRole, headingRoleLevel, mostlyArtifact, notHeadingRole } from './roles.ts';

export { joinLine } from './inline.ts';
export type { LayoutTable } from './page.ts';

/** Finds the tables of a page (the table finder's seam); none by default. */
export type TableFinder = (page: PageModel) => LayoutTable[];

/**
 * Footnotes: a block set smaller than the running text, in the lower part of the page, with no
 * text of the running size below it in its column (the footnote area under the text, often
 * under a short rule). They are read after the page's body. The running text is the page's body
 * size, or, where the notes carry more characters than the text (a page of long notes under a
 * few lines), the text above the note in its column: the nearest block above set larger, when
 * it has two rows or more, and the note area (the block and those of its size under it) holds a
 * numbered note (a lead or an abstract set larger above the running text is no such text).
 * A caption ("Figure 3.", "Table 2:") under a figure at the foot of a column is no footnote.
 */
function isFootnote(block: Block, layout: PageLayout, pageBody: number, blocks: readonly Block[], text: string): boolean {
  if (block.y0 < 0.6 * layout.page.height) return false;
  const beside = (b: Block) => Math.min(b.x1, block.x1) > Math.max(b.x0, block.x0);
  let running = pageBody;
  if (block.size > 0.88 * pageBody) {
    if (CAPTION.test(text.trim())) return false;
    // The nearest larger type above in the column must be running text (two rows or more), not
    // a heading over notes-sized text.
    const above = blocks.filter((b) => b !== block && b.y1 <= block.y0 && beside(b) && b.size > block.size);
    const nearest = above.reduce<Block | undefined>((n, b) => (n === undefined || b.y1 > n.y1 ? b : n), undefined);
    if (!nearest || new Set(nearest.lines.map((l) => l.row)).size < 2 || block.size > 0.88 * nearest.size) return false;
    // Set in the page's own body size, these are notes only where the area is numbered: a lead
    // or an abstract set larger above the running text does not make the text under it notes.
    const area = blocks.filter((b) => b.y0 >= block.y0 && beside(b) && Math.abs(b.size - block.size) <= 0.05 * block.size);
    if (!area.some(opensNote)) return false;
    running = nearest.size;
  }
  return !blocks.some((b) => b !== block && b.y0 > block.y1 && b.size > 0.95 * running && beside(b));
}

/** A note's mark: a number, a sign (*, †, ‡, §), or a raised mark, opening the block. */
const NOTE_MARK = /^(?:\d{1,3}\.?|[*†‡§¶]{1,3}|[\u00B9\u00B2\u00B3\u2070-\u2079]{1,3})$/u;

function opensNote(block: Block): boolean {
  const first = block.lines[0]?.words[0];
  if (!first) return false;
  return NOTE_MARK.test(first.text) || (first.text.length <= 3 && first.size < 0.8 * block.size);
}

/** A tagged heading still needs a few letters and must not run on like a page of text. */
function isTaggedHeading(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length <= 400 && /\p{L}|\p{N}/u.test(trimmed);
}

/** The pages as HTML: one `<section data-page="N">` each. */
export function layoutDocument(models: readonly PageModel[], findTables: TableFinder = () => []): string {
  const layouts = models.map((page) => layoutPage(page, page.words.length > 0 ? findTables(page) : []));
  const blocksOf = layouts.map((l) => l.units.flatMap((u) => (u.kind === 'block' ? [u.block] : [])));
  // A tagged PDF: some words carry the structure type of their block.
  const taggedDocument = models.some((m) => m.words.some((w) => w.role !== undefined));
  const headingsTagged = taggedDocument && models.some((m) => m.words.some((w) => headingRoleLevel(w.role) !== undefined));
  const furniture = findFurniture(
    layouts.map((l, i) => ({
      height: l.page.height,
      width: l.page.width,
      blocks: blocksOf[i] ?? [],
      otherContent: l.units.some((u) => u.kind === 'table'),
      others: l.units.flatMap((u) => (u.kind === 'table' ? [u.table] : u.kind === 'image' ? [u.image] : [])),
    })),
    { tagged: taggedDocument },
  );
  // The text in tables is text: a document set mostly in tables has its body size there.
  const cellWords = layouts.map((l) => l.units.flatMap((u) => (u.kind === 'table' ? u.table.words.map((i) => l.page.words[i] as Word) : [])));
  const documentBody = mainSize(blocksOf.flat().flatMap((b) => b.lines), cellWords.flat());

  const roles = layouts.map(() => new Map<Block, Role>());
  const texts = new Map<Block, string>();
  const headings: Block[] = [];
  // Tagged PDF: headings whose structure type gives their level ('H1'…'H6', 'Title').
  const tagged = new Map<Block, number>();
  layouts.forEach((layout, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageLines = blocks.flatMap((b) => b.lines);
    const pageBody = mainSize(pageLines, cellWords[p]);
    const pageFont = mainFont(pageLines);
    const marks = furniture[p] as Map<number, Furniture>;
    const pageRoles = roles[p] as Map<Block, Role>;
    blocks.forEach((block, i) => {
      const text = plainText(block.lines);
      texts.set(block, text);
      const where = marks.get(i);
      const role = blockRole(block.lines);
      const roleLevel = headingRoleLevel(role);
      if (where) pageRoles.set(block, { kind: where });
      else if (isCodeBlock(block)) pageRoles.set(block, { kind: 'code' });
      else if (roleLevel !== undefined && isTaggedHeading(text)) {
        // The author's structure says heading (§14.8.4.3.2), whatever the type looks like.
        pageRoles.set(block, { kind: 'heading', level: 0 });
        if (roleLevel > 0) tagged.set(block, roleLevel);
        else headings.push(block);
      } else if (notHeadingRole(role, { headingsTagged }) || (band(block, layout.page.height) !== undefined && mostlyArtifact(block.lines))) {
        // …or says body text: a paragraph, a list item, a cell, a caption is no heading; nor is
        // an artifact in the top or bottom band (a running head left in an untagged document's
        // text; elsewhere producers mark display headings as artifacts too).
        if (isFootnote(block, layout, pageBody, blocks, text)) pageRoles.set(block, { kind: 'footnote' });
        else if (role === 'LI') pageRoles.set(block, { kind: 'item' });
      } else if (isHeading(block, text, { documentBody, pageBody, pageFont, pageLines }) || headOverSmallerPage(block, text, blocks[i + 1], { documentBody, pageBody, pageFont, pageLines })) {
        pageRoles.set(block, { kind: 'heading', level: 0 });
        headings.push(block);
      } else if (isFootnote(block, layout, pageBody, blocks, text)) pageRoles.set(block, { kind: 'footnote' });
    });
  });
  /** A heading found by type, taken back: its block reads as text again. */
  const demote = (pageRoles: Map<Block, Role>, block: Block): void => {
    pageRoles.delete(block);
    headings.splice(headings.indexOf(block), 1);
  };
  // A heading found by type that touches text set in its own style is a fragment of that text.
  layouts.forEach((_, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    const isHead = (b: Block) => pageRoles.get(b)?.kind === 'heading';
    const fragments = blocks.filter((b) => isHead(b) && headings.includes(b) && continuesText(b, blocks, isHead));
    for (const block of fragments) demote(pageRoles, block);
  });
  // The lettering inside a captioned figure's frame is the figure's, not a heading.
  layouts.forEach((layout, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    const heads = blocks.filter((b) => pageRoles.get(b)?.kind === 'heading' && headings.includes(b));
    if (heads.length === 0) return;
    const frames = figureFrames(layout.page, blocks, texts);
    for (const block of heads) if (insideFrame(block, frames)) demote(pageRoles, block);
  });
  // A line the numbering of a list runs through (item n above it, n + 1 below) is in the list.
  layouts.forEach((_, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    const isHead = (b: Block) => pageRoles.get(b)?.kind === 'heading';
    const inLists = blocks.filter((b, i) => isHead(b) && headings.includes(b) && insideNumberedList(blocks, i, texts, isHead));
    for (const block of inLists) demote(pageRoles, block);
  });
  // Headings set in a face of their own: display lines in the text face are no headings.
  layouts.forEach((_, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    const heads = blocks.filter((b) => pageRoles.get(b)?.kind === 'heading' && headings.includes(b));
    for (const block of outsideHeadingFace(heads, mainFont(blocks.flatMap((b) => b.lines)), texts)) demote(pageRoles, block);
  });
  // Three or more heads of one style in a stack, with no text between, are display lines.
  layouts.forEach((_, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    for (const block of displayStacks(blocks, (b) => pageRoles.get(b)?.kind === 'heading' && headings.includes(b))) demote(pageRoles, block);
  });
  // A subtitle in italic right under a larger heading is part of its display.
  layouts.forEach((_, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    const decks = blocks.filter((b, i) => i > 0 && pageRoles.get(b)?.kind === 'heading' && headings.includes(b) && pageRoles.get(blocks[i - 1] as Block)?.kind === 'heading' && isSubtitle(b, blocks[i - 1] as Block));
    for (const block of decks) demote(pageRoles, block);
  });
  // A running head or kicker over a larger heading is no heading itself (found by type only: a
  // tagged heading keeps the author's word).
  layouts.forEach((layout, p) => {
    const blocks = blocksOf[p] ?? [];
    const pageRoles = roles[p] as Map<Block, Role>;
    blocks.forEach((block, i) => {
      const next = blocks[i + 1];
      if (pageRoles.get(block)?.kind !== 'heading' || next === undefined || pageRoles.get(next)?.kind !== 'heading' || !headings.includes(block)) return;
      if (isRunningHead(block, texts.get(block) ?? '', next, band(block, layout.page.height) === 'header')) demote(pageRoles, block);
    });
  });
  const pageOf = new Map<Block, number>();
  blocksOf.forEach((blocks, p) => {
    for (const b of blocks ?? []) pageOf.set(b, p);
  });
  const levels = headingLevels(headings, pageOf, layouts.length);
  // A heading the type found takes the level of a tagged heading set in the same style.
  const taggedStyles = new Map<string, number>();
  for (const [block, level] of tagged) if (!taggedStyles.has(styleKey(block))) taggedStyles.set(styleKey(block), level);
  for (const pageRoles of roles) {
    for (const [block, role] of pageRoles) {
      if (role.kind !== 'heading') continue;
      const level = tagged.get(block) ?? taggedStyles.get(styleKey(block)) ?? levels.get(block) ?? 2;
      pageRoles.set(block, { kind: 'heading', level });
    }
  }
  return layouts.map((layout, p) => renderPage(layout, roles[p] as Map<Block, Role>, texts)).join('\n');
}
