/**
 * Running headers and footers (page furniture, marked `<header|footer data-furniture>` so that
 * onlyMainContent drops them):
 *  - on a document of a few pages, a block in the top or bottom band whose text (digits
 *    ignored, so "Page 3" matches "Page 4") recurs on many pages;
 *  - on any page, a block in the band that is a page number ("12", "- 12 -", "Page 3 of 9",
 *    "iv") and nothing else, or a running line of one row that carries one (isFolio), with the
 *    short blocks along its row; a page number closing a page whose text ends early
 *    (closesPage); a line alone in the top band set at most half the text's size
 *    (smallRunningHead); and what the band holds above such a head or below such a foot (the
 *    running lines bound the type area);
 *  - in a tagged PDF, on any page, a block in the band whose text is marked as an artifact
 *    (ISO 32000-1 §14.8.2.2: running heads, page numbers). Untagged documents often mark
 *    artifacts too, but without a structure tree the mark is not taken as the author's word.
 *
 * A running head is furniture set apart from a body that exists: on a page where the recurring
 * text would be all there is (a document whose every page carries the same single line), it is
 * the page's content and stays. Page numbers and tagged artifacts are furniture even alone.
 */
import type { Box } from '../page-model.ts';
import type { Block } from './blocks.ts';
import { plainText } from './inline.ts';
import type { Line } from './lines.ts';
import { mainSize } from './page.ts';
import { mostlyArtifact } from './roles.ts';

/** Bands, as a share of the page height, where running headers and footers sit. */
const BAND = 0.1;
const MIN_PAGES = 3;
const MIN_SHARE = 0.4;

const PAGE_NUMBER = /^(?:[-–—|]\s*)?(?:(?:page|p\.|seite|página|pagina)\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:\/|of|de|von|sur)\s*\d{1,4})?(?:\s*[-–—|])?$/iu;

export type Furniture = 'header' | 'footer';

export interface PageBlocks {
  height: number;
  /** The page's width, where known: a closing page number is centred on it. */
  width?: number;
  blocks: Block[];
  /** The page's tables and figures, where known: content a closing page number must lie under. */
  others?: readonly Box[];
  /** The page has content besides its text blocks (a table): a body a running head can stand apart from. */
  otherContent?: boolean;
}

/** Words of a running line, its separators ("|", "•", "–") not counted. */
function wordCount(text: string): number {
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** A segment of a running line: short, as a head, a title or an issue line is. */
function isRunningSegment(text: string): boolean {
  return text.length <= 60 && wordCount(text) <= 8;
}

const lineText = (line: Line): string => line.words.map((w) => w.text).join(' ');

/**
 * A page number alone, or a running head that carries one ("74 Baird", "Annual report 12",
 * "PLOS Neglected Tropical Diseases | www.plosntds.org   1   March 2014 | Volume 8"): one row,
 * the number set apart from the head by a separator, or by a gap (a line of its own in the row,
 * at either end or between the head's parts, each part of running-line length).
 */
function isFolio(block: Block, text: string): boolean {
  if (PAGE_NUMBER.test(text)) return true;
  if (new Set(block.lines.map((l) => l.row)).size !== 1) return false;
  if (text.length <= 60 && text.split(/\s+/u).length <= 7 && /^\d{1,4}\s*[|•·–—]\s*\S|\S\s*[|•·–—]\s*\d{1,4}$/u.test(text)) return true;
  // A number, beside words: a row of numbers only ("0 5 10 15 20") is a chart's axis; a
  // spread's head may carry two ("208 Global Report Annex 209").
  const numbers = block.lines.filter((l) => /^\d{1,4}$/u.test(l.words.map((w) => w.text).join(''))).length;
  if (block.lines.length < 2 || numbers === 0 || numbers > 2 || numbers === block.lines.length) return false;
  return block.lines.every((l) => isRunningSegment(lineText(l)));
}

/**
 * A running head set as separate blocks along the folio's row ("400   BRITISH HUSBANDRY.   [Ch.
 * XIX."): the band's other one-row blocks of running-line length whose line shares the folio's
 * row (their vertical middles within half a line of each other).
 */
function sharesFolioRow(block: Block, folio: Block, text: string): boolean {
  if (block === folio || text === '' || new Set(block.lines.map((l) => l.row)).size !== 1 || !isRunningSegment(text)) return false;
  const middle = (b: Block) => (b.y0 + b.y1) / 2;
  return Math.abs(middle(block) - middle(folio)) <= 0.5 * Math.max(block.size, folio.size);
}

function key(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** The band (top or bottom share of the page) the block lies in, if any. */
export function band(block: Block, height: number): Furniture | undefined {
  if (block.y1 <= BAND * height) return 'header';
  if (block.y0 >= (1 - BAND) * height) return 'footer';
  return undefined;
}

/**
 * The band a running line lies in, placed by its middle: a folio row set close to the band's
 * edge (a page cropped tight to its type) still reads as the page's first or last line.
 */
function rowBand(block: Block, height: number): Furniture | undefined {
  const middle = (block.y0 + block.y1) / 2;
  if (middle <= BAND * height) return 'header';
  if (middle >= (1 - BAND) * height) return 'footer';
  return undefined;
}

/**
 * A page number closing a page whose text ends above the band (the last page of a section, a
 * statement's notes): digits alone on one line, centred on the page, in its lower half, under
 * everything else on the page and set off from it by a gap of two lines or more.
 */
function closesPage(block: Block, page: PageBlocks, text: string): boolean {
  if (page.width === undefined || block.lines.length !== 1 || !/^\d{1,4}$/u.test(text.trim()) || block.y0 < 0.5 * page.height) return false;
  if (Math.abs((block.x0 + block.x1) / 2 - page.width / 2) > 0.05 * page.width) return false;
  const rest: Box[] = [...page.blocks.filter((b) => b !== block), ...(page.others ?? [])];
  if (rest.length === 0 || rest.some((b) => b.y1 > block.y0)) return false;
  const above = Math.max(...rest.map((b) => b.y1));
  return block.y0 - above >= 2 * (block.y1 - block.y0);
}

/**
 * A running head set small: a one-row line of running-line length, alone in the top band, set
 * at most half the size of the page's text (a journal's or a collection's line over the page).
 */
function smallRunningHead(block: Block, page: PageBlocks, text: string, body: number): boolean {
  if (band(block, page.height) !== 'header' || new Set(block.lines.map((l) => l.row)).size !== 1 || !isRunningSegment(text) || !/\p{L}/u.test(text)) return false;
  if (block.size > 0.5 * body) return false;
  return !page.blocks.some((b) => b !== block && band(b, page.height) === 'header');
}

/** White between a running line and the body it stands over or under, in its own sizes. */
const RUNNING_LINE_CLEARANCE = 2;

/**
 * A running line by its place: a one-row line in the top band (or the bottom band), set no
 * larger than the document's text, standing clear of everything under it (over it, in the
 * bottom band) by two of its sizes, whose every page holds such a line on the same baseline in
 * the same size — the word processor's header and footer area, whatever each page's words
 * (a header that names the section, another on the first page). Taken only where every page of
 * a document of two pages or more has one: a body's first line also starts at the same place
 * on each page, but is not set apart from the text under it.
 */
function placedRunningLines(pages: readonly PageBlocks[], result: Map<number, Furniture>[], texts: readonly string[][]): void {
  if (pages.length < 2) return;
  const body = mainSize(pages.flatMap((p) => p.blocks.flatMap((b) => b.lines)));
  for (const kind of ['header', 'footer'] as const) {
    const candidates = pages.map((page, p) =>
      page.blocks.flatMap((b, i) => {
        const text = texts[p]?.[i] ?? '';
        if (result[p]?.has(i) || band(b, page.height) !== kind || new Set(b.lines.map((l) => l.row)).size !== 1 || !/\p{L}/u.test(text) || b.size > 1.05 * body) return [];
        const clear = RUNNING_LINE_CLEARANCE * b.size;
        // Set apart from the text under (over) it: with no such text, the line is the page's body.
        // The body may be a table or a figure as well as text (a table's box may reach up to a
        // rule drawn under the head, so only text crowds it).
        const beyond = [...page.blocks.filter((_, j) => j !== i && !result[p]?.has(j)), ...(page.others ?? [])].some((o) => (kind === 'header' ? o.y0 >= b.y1 : o.y1 <= b.y0));
        const crowded = page.blocks.some((o) => o !== b && (kind === 'header' ? o.y0 >= b.y1 && o.y0 - b.y1 < clear : o.y1 <= b.y0 && b.y0 - o.y1 < clear));
        return !beyond || crowded ? [] : [{ i, baseline: (b.lines[0] as Line).baseline, size: b.size }];
      }),
    );
    const first = candidates[0] ?? [];
    for (const c of first) {
      const same = (o: { baseline: number; size: number }) => Math.abs(o.baseline - c.baseline) <= 1 && Math.abs(o.size - c.size) <= 0.5;
      if (!candidates.every((list) => list.some(same))) continue;
      candidates.forEach((list, p) => {
        for (const o of list) if (same(o)) result[p]?.set(o.i, kind);
      });
    }
  }
}

/** For each page, the furniture kind of each block (by index) that is furniture. */
export function findFurniture(pages: readonly PageBlocks[], { tagged = false }: { tagged?: boolean } = {}): Map<number, Furniture>[] {
  const result = pages.map(() => new Map<number, Furniture>());
  const texts = pages.map((p) => p.blocks.map((b) => (b.lines.length <= 3 ? plainText(b.lines) : '')));
  pages.forEach((page, p) => {
    const body = mainSize(page.blocks.flatMap((b) => b.lines));
    page.blocks.forEach((b, i) => {
      const where = band(b, page.height);
      const text = texts[p]?.[i] ?? '';
      if (where && tagged && mostlyArtifact(b.lines)) result[p]?.set(i, where);
      else if (isFolio(b, text) && (where ?? rowBand(b, page.height))) result[p]?.set(i, (where ?? rowBand(b, page.height)) as Furniture);
      else if (!where && closesPage(b, page, text)) result[p]?.set(i, 'footer');
      else if (smallRunningHead(b, page, text, body)) result[p]?.set(i, 'header');
    });
    const folios = [...(result[p] as Map<number, Furniture>)];
    page.blocks.forEach((b, i) => {
      if (result[p]?.has(i)) return;
      const along = folios.find(([f]) => sharesFolioRow(b, page.blocks[f] as Block, texts[p]?.[i] ?? ''));
      if (along) result[p]?.set(i, along[1]);
    });
    // The running lines bound the type area: what the band holds beyond them (a download stamp
    // over the head, a line under the foot) lies outside it too.
    const marked = [...(result[p] as Map<number, Furniture>)].map(([f, kind]) => ({ block: page.blocks[f] as Block, kind }));
    page.blocks.forEach((b, i) => {
      if (result[p]?.has(i)) return;
      const where = band(b, page.height);
      if (where === 'header' && marked.some((m) => m.kind === 'header' && b.y1 <= m.block.y0)) result[p]?.set(i, 'header');
      else if (where === 'footer' && marked.some((m) => m.kind === 'footer' && b.y0 >= m.block.y1)) result[p]?.set(i, 'footer');
    });
  });
  placedRunningLines(pages, result, texts);
  if (pages.length < MIN_PAGES) return result;
  const needed = Math.max(MIN_PAGES, Math.ceil(MIN_SHARE * pages.length));
  const counts = new Map<string, number>();
  pages.forEach((page, p) => {
    const seen = new Set<string>();
    page.blocks.forEach((b, i) => {
      const where = band(b, page.height);
      const text = texts[p]?.[i] ?? '';
      if (where && text !== '') seen.add(`${where}\u0000${key(text)}`);
    });
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
  });
  pages.forEach((page, p) => {
    const marks = result[p] as Map<number, Furniture>;
    const recurring: number[] = [];
    page.blocks.forEach((b, i) => {
      const where = band(b, page.height);
      const text = texts[p]?.[i] ?? '';
      if (where && text !== '' && !marks.has(i) && (counts.get(`${where}\u0000${key(text)}`) ?? 0) >= needed) recurring.push(i);
    });
    // The page's body: its blocks that are neither already furniture nor recurring.
    const body = page.blocks.filter((b, i) => !marks.has(i) && !recurring.includes(i) && plainText(b.lines).trim() !== '').length;
    if (body === 0 && !page.otherContent) return;
    for (const i of recurring) marks.set(i, band(page.blocks[i] as Block, page.height) as Furniture);
  });
  return result;
}
