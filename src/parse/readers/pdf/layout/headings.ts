/**
 * Headings from type, as a reader sees them: a short block set larger than the body text of its
 * page and of the document (the size most characters are set in), or bold at body size, that
 * does not read like a sentence (no final period or comma) and stands alone (not a cell of a
 * row of several), or a side head in italic over its paragraph (blocks.ts). A section number
 * ("3.1 Status") is supporting evidence. Levels come from the
 * document's distinct heading styles, largest first and bold before regular at one size, so
 * the same style is the same level on every page (in a long document, the inner pages' styles:
 * a cover's display type does not push the heads down). Taken back after the type: fragments of
 * text in their own style, lead-ins inside a numbered list, display lines in the text face, a
 * stack of display lines in one style, running heads over larger heads; a field's label over
 * its value is none, and a page set smaller than its document measures its heads by its own text.
 */
import type { Block } from './blocks.ts';
import type { Line } from './lines.ts';
import { listMarker, SECTION_NUMBER, SUBSECTION_NUMBER } from './markers.ts';

export interface HeadingContext {
  /** Body size of the document and of the block's page. */
  documentBody: number;
  pageBody: number;
  /** The font most of the page's text is set in. */
  pageFont: string;
  /** The page's lines (their right ends give the measure of its running text). */
  pageLines: readonly Line[];
}

const MAX_CHARS = 200;
/** A caption's or note's label opening a block: "Table 3:", "Figure 2.", "Source:". */
export const CAPTION = /^(?:table|figure|fig\.|chart|graph|source|note|notes|exhibit|image|photo)\s*[\d:.]/iu;
const MAX_LINES = 4;
/** A sentence ending inside the text (after a word, not a number or an initial) and another starting. */
const SENTENCES = /\p{L}{3,}[.!?]\s+\p{Lu}/u;
/** A word broken by a hyphen at the end of the text: a letter, then the hyphen. */
const BROKEN_WORD = /\p{L}[-\u00AD\u2010]$/u;
/** A division's label and number alone: "Chapter 7.", "PART II", "Appendix B". */
const DIVISION = /^(?:chapter|part|appendix|book|unit|lesson|module)\s+(?:\d{1,3}|[ivxlc]{1,6}|[a-z])\s*[.:]?$/iu;

export function styleKey(block: Block): string {
  return `${Math.round(block.size * 2) / 2}|${block.bold ? 'b' : 'r'}`;
}

/** Whether the block reads as a heading. `text` is its plain text. */
export function isHeading(block: Block, text: string, context: HeadingContext): boolean {
  // A run of table-of-contents entries is a list, however its chapter entries are set.
  if (block.contents) return false;
  const trimmed = text.trim();
  if (trimmed.length < 2 || trimmed.length > MAX_CHARS || block.lines.length > MAX_LINES) return false;
  if ((trimmed.match(/\p{L}/gu)?.length ?? 0) < 2) return false;
  const body = Math.max(context.documentBody, context.pageBody);
  const clearlyLarger = block.size >= 1.15 * body && block.lines.length <= 2;
  // "CHAPTER 7.", "Part II", "Appendix B" alone on a line opens a division of the book, whatever
  // its type (often the body face in capitals over a larger title); its period ends no sentence.
  if (block.lines.length === 1 && DIVISION.test(trimmed) && block.size >= 0.95 * Math.min(context.documentBody, context.pageBody)) return true;
  // Two sentences are prose, however the type is set ("Proof. Let S be…", a lemma's statement).
  if (SENTENCES.test(trimmed) && trimmed.split(/\s+/u).length >= 8) return false;
  // Prose set large: lines flush left, the first filling the measure, a sentence's end.
  if (setAsProse(block, trimmed, context.pageLines)) return false;
  // A word broken at the block's end goes on in the text after it ("…arrays are zero-" over
  // "indexed: the first…", a bold run filling a paragraph's line): a head ends on a whole word.
  if (BROKEN_WORD.test(trimmed)) return false;
  // A sentence ends with a period; a heading does not, unless it is set clearly larger.
  if (/[,;]$/u.test(trimmed) || (/\.$/u.test(trimmed) && !clearlyLarger)) return false;
  // A cell of a row of several (a table row, a form) is not a heading.
  if (cellOfRow(block, context.pageLines)) return false;
  const marker = listMarker(trimmed);
  if (marker?.kind === 'ul') return false;
  // A table of contents entry: the title, then its page number across a gap on the same row.
  const last = block.lines[block.lines.length - 1];
  const beforeLast = block.lines[block.lines.length - 2];
  if (last && beforeLast && last.row === beforeLast.row && /^[\divxlc]+$/iu.test(last.words.map((w) => w.text).join(''))) return false;
  // Captions and notes are set apart too, but they are not headings.
  if (CAPTION.test(trimmed)) return false;
  // A field's label over its value ("Published in:" in italic over the conference's name).
  if (labelOverValue(block)) return false;
  // A side head in italic over its paragraph (blocks.ts), at the text's size.
  if (block.sideHead && block.lines.length === 1 && block.size >= 0.95 * Math.min(context.documentBody, context.pageBody)) return true;
  const oneLine = new Set(block.lines.map((l) => l.row)).size === 1 && trimmed.length <= 100;
  const larger = block.size >= 1.15 * body || (block.size >= 1.08 * body && (block.bold || oneLine));
  if (larger) return block.lines.length <= 3 || trimmed.length <= 120;
  const numbered = SECTION_NUMBER.test(trimmed.split(/\s+/u)[0] ?? '');
  // "4.3.2 Alignment Tuning" on a line of its own, in another face than the text (a bold face
  // whose name does not say so).
  const words = trimmed.split(/\s+/u);
  const titled = /^\p{Lu}/u.test(words[1] ?? '') && !/\d$/u.test(trimmed);
  if (numbered && oneLine && titled && block.size >= 0.95 * body && (block.font !== context.pageFont || SUBSECTION_NUMBER.test(words[0] ?? ''))) return true;
  const bodySized = block.size >= 0.95 * Math.min(context.documentBody, context.pageBody);
  if (block.bold && bodySized && trimmed.length <= 120 && block.lines.length <= 2) {
    // A bold numbered list item is still a heading when it is short and numbered like a section.
    return marker === undefined || numbered;
  }
  return false;
}

/** How far apart two baselines may be and still be one row's, in ems of the line. */
const ROW_BASELINE_EM = 0.15;

/**
 * A cell of a row of several: a line of the block shares its baseline band with two or more
 * other short lines (a table's row, a form's, a diagram's labels). A head in one column of a
 * two-column page shares a band with the other column's lines — a justified line there, parted
 * at its wide word spaces, makes short pieces of it — but neither their type (the head is set
 * larger or bolder) nor their baseline (its size and the space above it set it off the text's
 * grid): those lines are no cells of its row. A row's cells share a baseline or a type.
 */
export function cellOfRow(block: Block, pageLines: readonly Line[]): boolean {
  return block.lines.some((l) => {
    if (l.rowSize < 3 || l.rowCells < 3) return false;
    const sameType = (m: Line) => Math.abs(m.size - l.size) <= 0.05 * l.size && m.bold === l.bold;
    const cells = pageLines.filter((m) => m !== l && m.row === l.row && (Math.abs(m.baseline - l.baseline) <= ROW_BASELINE_EM * l.size || sameType(m)));
    // With none of its row among `pageLines` (a caller passing no page), the band's count stands.
    if (!pageLines.some((m) => m !== l && m.row === l.row)) return true;
    return cells.length >= 2;
  });
}

/**
 * Prose, however large it is set: a block of two rows or more whose rows start at one left edge,
 * whose first row runs to the right edge of the measure (where two other lines of the page end
 * too: a justified column's margin), and that ends with a sentence's period (not a question
 * mark: "…: hope or hype?" is a title). A heading broken over two lines is broken before the
 * measure is full, or centred; a paragraph set in the larger of a page's two text sizes (an
 * article's 12 pt text over its 10 pt references) fills its lines.
 */
export function setAsProse(block: Block, text: string, pageLines: readonly Line[]): boolean {
  if (!/\.$/u.test(text)) return false;
  const first = block.lines[0];
  const rows = new Set(block.lines.map((l) => l.row));
  if (first === undefined || rows.size < 2) return false;
  const tolerance = 0.5 * block.size;
  if (block.lines.some((l) => l.row !== first.row && Math.abs(l.x0 - block.x0) > tolerance)) return false;
  const firstEnd = Math.max(...block.lines.filter((l) => l.row === first.row).map((l) => l.x1));
  const margin = pageLines.filter((l) => !block.lines.includes(l) && Math.abs(l.x1 - firstEnd) <= tolerance);
  return margin.length >= 2;
}

/**
 * A field's label over its value: the block's first row ends with a colon and is set in another
 * style (italic, bold, face) than the rows under it — a cover page's "Published in:" in italic
 * over "International Conference on Law and Technology…" in roman, "Publication date:" over
 * "2002". A heading's rows share one style, and a heading ending in a colon stands alone.
 */
export function labelOverValue(block: Block): boolean {
  const first = block.lines[0];
  if (first === undefined) return false;
  const label = block.lines.filter((l) => l.row === first.row);
  const value = block.lines.filter((l) => l.row !== first.row);
  const lastOfLabel = label[label.length - 1] as Line;
  if (value.length === 0 || !/:$/u.test(lastOfLabel.words.map((w) => w.text).join(' ').trim())) return false;
  const style = (l: Line) => `${l.font}|${l.italic}|${l.bold}`;
  const labelStyles = new Set(label.map(style));
  return value.every((l) => !labelStyles.has(style(l)));
}

/**
 * A head on a page set in a smaller scale than the rest of the document (a brochure bound into a
 * book: its text at 7.5 pt, the book's at 10): measured against the page's own text, a single
 * row in a face other than that text's, standing right over a block of it at its left edge
 * ("We build confident, satisfied clients" at 9.5 pt over the brochure's paragraph), with the
 * page's text size as the body size for every other test of `isHeading`. `next` is the block
 * after it in reading order.
 */
export function headOverSmallerPage(block: Block, text: string, next: Block | undefined, context: HeadingContext): boolean {
  const { pageBody, documentBody, pageFont } = context;
  if (next === undefined || pageBody >= 0.9 * documentBody || block.font === pageFont) return false;
  if (new Set(block.lines.map((l) => l.row)).size !== 1) return false;
  if (next.font !== pageFont || Math.abs(next.size - pageBody) > 0.05 * pageBody) return false;
  const gap = next.y0 - block.y1;
  if (gap < -1 || gap > block.size || Math.abs(next.x0 - block.x0) > block.size) return false;
  return isHeading(block, text, { ...context, documentBody: pageBody });
}

/**
 * A stack of display lines: three or more heads found by type, one after another in reading
 * order with no text between them, all set in one size, weight and face, at one left edge — a
 * cover's blurbs ("Implement roles and separation of duties", "Leverage row permissions on the
 * database", "Protect columns by defining column masks"). A heading heads text; heads of one
 * style follow one another only with their sections between, so a stack is a list of display
 * lines; its last line, when text follows right under it, heads that text. `isHead` says which blocks are heads found by type; returns the stacks' blocks.
 */
export function displayStacks(blocks: readonly Block[], isHead: (b: Block) => boolean): Block[] {
  const stacked: Block[] = [];
  let run: Block[] = [];
  const flush = (text?: Block) => {
    // The last line of the stack heads the text right under it: a section's head, not a blurb.
    const last = run[run.length - 1];
    if (last !== undefined && text !== undefined && text.y0 >= last.y1 - 1 && text.y0 - last.y1 <= 2 * last.size && Math.min(text.x1, last.x1) > Math.max(text.x0, last.x0)) run.pop();
    if (run.length >= 3) stacked.push(...run);
    run = [];
  };
  for (const b of blocks) {
    const first = run[0];
    if (!isHead(b)) {
      flush(b);
      continue;
    }
    if (first !== undefined && (styleKey(b) !== styleKey(first) || b.font !== first.font || Math.abs(b.x0 - first.x0) > 0.5 * b.size || b.y0 < (run[run.length - 1] as Block).y1)) flush();
    run.push(b);
  }
  flush();
  return stacked;
}

/**
 * A subtitle (a deck): a single row in italic set right under a heading clearly larger than it
 * (within half its size below, at the heading's left edge or centred under it), part of that
 * heading's display, not a heading of its own ("Expert help to achieve your business
 * requirements" under "DB2 for i Center of Excellence").
 */
export function isSubtitle(block: Block, above: Block): boolean {
  if (new Set(block.lines.map((l) => l.row)).size !== 1 || !block.lines.every((l) => l.italic)) return false;
  if (block.size > 0.75 * above.size) return false;
  const gap = block.y0 - above.y1;
  if (gap < -1 || gap > 0.5 * block.size) return false;
  const centred = Math.abs((block.x0 + block.x1) / 2 - (above.x0 + above.x1) / 2) <= block.size;
  return Math.abs(block.x0 - above.x0) <= block.size || centred;
}

/**
 * A running head or a kicker: a single short line in the page's top band (`band`) standing
 * right above a heading set clearly larger ("8 Encinas Franco and Laguna" over "Filipino Women
 * in Electoral Politics" on a page cut out of a book, "Semantic Search Pack: Value" over a
 * slide's title). A section head is not set over a larger head with nothing between them (a
 * division's label is, "CHAPTER 7." over its title, and stays a heading).
 */
export function isRunningHead(block: Block, text: string, next: Block | undefined, inTopBand: boolean): boolean {
  if (!inTopBand || next === undefined || block.lines.length !== 1 || DIVISION.test(text.trim())) return false;
  return next.y0 >= block.y1 && next.size >= 1.15 * block.size;
}

/**
 * A fragment of a text set in one style: a block touching another block of the page set in the
 * same size, face and weight that is no heading (within a line's height above, below or on the
 * same row, overlapping or a few ems apart across): an author's name parted from the list of
 * authors by the marks between them, the last line of a paragraph parted from it. A heading
 * stands apart from the text around it in its type or its space.
 */
export function continuesText(block: Block, blocks: readonly Block[], isHead: (b: Block) => boolean): boolean {
  const size = block.size;
  return blocks.some((b) => {
    if (b === block || isHead(b) || b.font !== block.font || b.bold !== block.bold || Math.abs(b.size - size) > 0.05 * size) return false;
    const vertical = Math.max(b.y0 - block.y1, block.y0 - b.y1);
    const across = Math.max(b.x0 - block.x1, block.x0 - b.x1);
    return vertical < 0.8 * size && across < 2 * size;
  });
}

/**
 * A line standing inside one numbered list: the nearest numbered item before it (on its page, in
 * reading order; bulleted items between are passed over) is number n, the first numbered item
 * after it, with no heading between, is item n + 1
 * ("19. Allow the tubes to dry…", "Restriction Enzyme Digest Prep (…):", "20. Use a
 * micropipette…"), and the line is set in the items' size. A section head ends the list or
 * starts its numbering again; a lead-in the numbering runs through is part of the list. `at` is
 * the block's index in `blocks`.
 */
export function insideNumberedList(blocks: readonly Block[], at: number, texts: ReadonlyMap<Block, string>, isHead: (b: Block) => boolean): boolean {
  const block = blocks[at] as Block;
  if (listMarker((texts.get(block) ?? '').trim()) !== undefined) return false;
  let before: Block | undefined;
  for (let i = at - 1; i >= 0 && before === undefined; i--) {
    const b = blocks[i] as Block;
    if (isHead(b)) return false;
    if (listMarker((texts.get(b) ?? '').trim())?.kind === 'ol') before = b;
  }
  let after: Block | undefined;
  for (let i = at + 1; i < blocks.length && after === undefined; i++) {
    const b = blocks[i] as Block;
    if (isHead(b)) return false;
    if (listMarker((texts.get(b) ?? '').trim())?.kind === 'ol') after = b;
  }
  if (before === undefined || after === undefined) return false;
  const n = listMarker((texts.get(before) ?? '').trim());
  const m = listMarker((texts.get(after) ?? '').trim());
  if (n?.kind !== 'ol' || m?.kind !== 'ol' || n.value === undefined || m.value !== n.value + 1) return false;
  // Set in the items' own size: a head set larger than the list stays a head.
  return block.size < 1.08 * Math.max(before.size, after.size);
}

/**
 * Where a page's headings are set in a face of their own (two or more, none in the face of the
 * running text), a line found by its size alone in the text face, regular and unnumbered, is
 * display text beside them — an affiliation under the authors, a journal's or a repository's
 * line on a cover page — not a heading. Returns those blocks among the page's headings.
 */
export function outsideHeadingFace(heads: readonly Block[], textFont: string, texts: ReadonlyMap<Block, string>): Block[] {
  const plain = heads.filter((b) => b.font === textFont && !b.bold && !SECTION_NUMBER.test((texts.get(b) ?? '').trim().split(/\s+/u)[0] ?? ''));
  const others = heads.filter((b) => !plain.includes(b));
  if (plain.length === 0 || others.length < 2 || others.some((b) => b.font === textFont)) return [];
  return plain;
}

/**
 * Heading levels: the distinct styles of the document's headings, by size then weight. In a
 * document of three pages or more the ranks are those of the inner pages' styles: a cover's or a
 * back cover's display type (the first and last pages' styles found nowhere else) takes the level
 * of the inner style below it, so it does not push the document's own heads down the ranks
 * (redp5110's cover blurbs and back-cover lines had its "1.1" and "1.3.1" heads both at h6). The
 * first page's title, larger than every inner style, is h1. `pageOf` gives each heading's page
 * index; `pages` is how many pages the document has.
 */
export function headingLevels(headings: readonly Block[], pageOf?: ReadonlyMap<Block, number>, pages = 1): Map<Block, number> {
  const styleOf = (h: Block) => ({ size: Math.round(h.size * 2) / 2, bold: h.bold });
  const larger = (a: { size: number; bold: boolean }, b: { size: number; bold: boolean }) => a.size > b.size || (a.size === b.size && a.bold && !b.bold);
  const inner = pages >= 3 && pageOf !== undefined ? headings.filter((h) => (pageOf.get(h) ?? 0) > 0 && (pageOf.get(h) ?? 0) < pages - 1) : headings;
  const styles = new Map<string, { size: number; bold: boolean }>();
  for (const h of inner.length > 0 ? inner : headings) styles.set(styleKey(h), styleOf(h));
  // The title page's title, set larger than every inner head, ranks above them.
  const innerStyles = [...styles.values()];
  for (const h of headings) if ((pageOf?.get(h) ?? 0) === 0 && innerStyles.every((s) => larger(styleOf(h), s))) styles.set(styleKey(h), styleOf(h));
  const ranked = [...styles.values()];
  const levels = new Map<Block, number>();
  // A style's level: one more than the number of ranked styles set larger than it.
  for (const h of headings) levels.set(h, Math.min(6, ranked.filter((s) => larger(s, styleOf(h))).length + 1));
  return levels;
}
