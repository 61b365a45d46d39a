/**
 * Running headers and footers: paragraphs in the top or bottom band of the page whose text
 * (digits ignored, so "Page 3" matches "Page 4") recurs on many pages. They are marked as page
 * furniture (the contracts: `<header|footer data-furniture>`) so that onlyMainContent drops them.
 * A document needs a few pages before anything counts as running.
 */
import type { Paragraph } from './text-layout.ts';

export interface PageParagraphs {
  paragraphs: Paragraph[];
  /** The page's vertical extent in user space (from its view box). */
  bottom: number;
  top: number;
}

export interface PageFurniture {
  header: Set<number>;
  footer: Set<number>;
}

/** Bands, as a share of the page height, where running headers and footers sit. */
const BAND = 0.1;
const MIN_PAGES = 3;
const MIN_SHARE = 0.4;

function key(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

function bandMembers(page: PageParagraphs, where: 'header' | 'footer'): number[] {
  const height = page.top - page.bottom;
  if (!(height > 0)) return [];
  const out: number[] = [];
  page.paragraphs.forEach((p, i) => {
    const inBand = where === 'header' ? p.top >= page.top - BAND * height : p.bottom <= page.bottom + BAND * height;
    if (inBand) out.push(i);
  });
  return out;
}

export function findFurniture(pages: readonly PageParagraphs[]): PageFurniture[] {
  const result: PageFurniture[] = pages.map(() => ({ header: new Set(), footer: new Set() }));
  if (pages.length < MIN_PAGES) return result;
  const needed = Math.max(MIN_PAGES, Math.ceil(MIN_SHARE * pages.length));
  for (const where of ['header', 'footer'] as const) {
    const members = pages.map((page) => bandMembers(page, where));
    const counts = new Map<string, number>();
    members.forEach((indexes, p) => {
      const seen = new Set(indexes.map((i) => key(pages[p]?.paragraphs[i]?.text ?? '')));
      for (const k of seen) if (k !== '') counts.set(k, (counts.get(k) ?? 0) + 1);
    });
    members.forEach((indexes, p) => {
      for (const i of indexes) {
        const k = key(pages[p]?.paragraphs[i]?.text ?? '');
        if ((counts.get(k) ?? 0) >= needed) result[p]?.[where].add(i);
      }
    });
  }
  return result;
}
