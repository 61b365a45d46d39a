/**
 * One page's geometry → its units in reading order: text blocks, tables (from the table
 * finder, with the words they consumed taken out first) and image placeholders, plus the
 * rotated text kept apart.
 */
import type { Box, ImageBox, PageModel, Word } from '../page-model.ts';
import { blocksOf, type Block } from './blocks.ts';
import { contentsEntries } from './contents.ts';
import { linesOf, type Line } from './lines.ts';
import { readingOrder } from './reading-order.ts';

/** A table found on the page: its box, the words it consumed (indexes into page.words), its HTML. */
export interface LayoutTable extends Box {
  words: number[];
  html: string;
}

export type Unit = { kind: 'block'; block: Block } | { kind: 'table'; table: LayoutTable } | { kind: 'image'; image: ImageBox };

export interface PageLayout {
  page: PageModel;
  units: Unit[];
  /** Rotated words grouped into runs (source order), read after the main text. */
  rotated: Word[][];
}

/**
 * Images smaller than this (points, either side) are bullets, rules or decorations drawn as
 * images, not figures: no placeholder.
 */
const MIN_IMAGE_SIDE = 24;

/** What the reading order sorts: the unit's box and the unit (one object shape for all). */
interface Item extends Box {
  line?: Line;
  table?: LayoutTable;
  image?: ImageBox;
}

function itemOf(box: Box, part: Pick<Item, 'line' | 'table' | 'image'>): Item {
  return { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1, line: part.line, table: part.table, image: part.image };
}

function contains(box: Box, x: number, y: number): boolean {
  return x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;
}

function rotatedRuns(words: readonly Word[]): Word[][] {
  const runs: Word[][] = [];
  let run: Word[] = [];
  for (const w of words) {
    const prev = run[run.length - 1];
    if (prev && Math.hypot((w.x0 + w.x1 - prev.x0 - prev.x1) / 2, (w.y0 + w.y1 - prev.y0 - prev.y1) / 2) > 6 * Math.max(w.size, prev.size) + Math.max(prev.x1 - prev.x0, prev.y1 - prev.y0)) {
      runs.push(run);
      run = [];
    }
    run.push(w);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The font size most characters of these lines are set in: the body size. Characters in a
 * fixed-pitch face (a listing, code in the running text) count only where the lines hold no
 * other text: a listing is set apart from the text, often a size or two smaller, and a page
 * that is mostly listing still has its text's size (a browser prints code at 13 px under 16 px
 * text; with the listing counted, every sentence introducing a listing read as a heading).
 */
export function mainSize(lines: readonly Line[], cellWords: readonly Word[] = []): number {
  const chars = new Map<number, number>();
  const count = (proportional: boolean) => {
    for (const l of lines) for (const w of l.words) if (!proportional || w.monospace !== true) chars.set(l.size, (chars.get(l.size) ?? 0) + w.text.length);
    for (const w of cellWords) if (!proportional || w.monospace !== true) chars.set(w.size, (chars.get(w.size) ?? 0) + w.text.length);
  };
  count(true);
  if (chars.size === 0) count(false);
  let size = 10;
  let best = -1;
  for (const [s, n] of chars) if (n > best) [size, best] = [s, n];
  return size;
}

/** The font most characters of these lines are set in. */
export function mainFont(lines: readonly Line[]): string {
  const chars = new Map<string, number>();
  for (const l of lines) for (const w of l.words) chars.set(w.font, (chars.get(w.font) ?? 0) + w.text.length);
  let font = '';
  let best = -1;
  for (const [f, n] of chars) if (n > best) [font, best] = [f, n];
  return font;
}

export function layoutPage(page: PageModel, tables: readonly LayoutTable[] = []): PageLayout {
  const consumed = new Set<number>();
  for (const t of tables) for (const i of t.words) consumed.add(i);
  const words = consumed.size === 0 ? page.words : page.words.filter((_, i) => !consumed.has(i));
  const { lines, rotated } = linesOf(words);
  const entries = contentsEntries(lines);
  const items: Item[] = lines.map((line) => itemOf(line, { line }));
  for (const table of tables) items.push(itemOf(table, { table }));
  for (const image of page.images) {
    if (image.x1 - image.x0 < MIN_IMAGE_SIDE || image.y1 - image.y0 < MIN_IMAGE_SIDE) continue;
    // Text drawn over an image (a background, a chart's labels) is read; the image adds nothing.
    if (lines.some((l) => contains(image, (l.x0 + l.x1) / 2, (l.y0 + l.y1) / 2))) continue;
    if ((image.x1 - image.x0) * (image.y1 - image.y0) > 0.9 * page.width * page.height) continue;
    items.push(itemOf(image, { image }));
  }
  const wordsOf = (item: Item): Word[] => item.line?.words ?? [];
  const ordered = readingOrder(items, {
    em: mainSize(lines),
    words: (item) => wordsOf(item).length,
    baseline: (item: Item) => item.line?.baseline,
    numeric: (item) => {
      const words = wordsOf(item);
      return words.length > 0 && words.length <= 2 && words.every((w) => /^(?:[\d.,%()$€£¥+\-–]+|[ivxlc]{1,7})$/iu.test(w.text));
    },
  });
  const units: Unit[] = [];
  let run: Line[] = [];
  const flush = () => {
    for (const block of blocksOf(run, entries)) units.push({ kind: 'block', block });
    run = [];
  };
  for (const item of ordered) {
    if (item.line) {
      run.push(item.line);
      continue;
    }
    flush();
    if (item.table) units.push({ kind: 'table', table: item.table });
    else if (item.image) units.push({ kind: 'image', image: item.image });
  }
  flush();
  return { page, units, rotated: rotatedRuns(rotated) };
}
