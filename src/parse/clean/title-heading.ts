/**
 * The page's title heading: the `<h1>` (or, failing that, `<h2>`) whose text matches the page
 * title, or the page's only `<h1>` when there is no title to compare with. Main-content
 * extraction keeps it even when it sits outside the chosen container (in a page `<header>`).
 */
import type { PageIndex } from './page-index.ts';

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function words(text: string): Set<string> {
  return new Set(text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0));
}

/** Whether a heading's text is the page title (titles often add " | Site" or "Site - "). */
export function matchesTitle(heading: string, title: string): boolean {
  const h = normalize(heading);
  const t = normalize(title);
  if (h.length === 0 || t.length === 0) return false;
  if (h === t) return true;
  if (h.length >= 8 && t.includes(h)) return true;
  if (t.length >= 8 && h.includes(t)) return true;
  const hw = words(h);
  const tw = words(t);
  if (hw.size === 0) return false;
  let common = 0;
  for (const w of hw) if (tw.has(w)) common++;
  return common / hw.size >= 0.75 && common / Math.max(tw.size, 1) >= 0.5;
}

/** The position of the title heading in the index, if the page has one. */
export function findTitleHeading(index: PageIndex, title: string | undefined): number | undefined {
  const h1: number[] = [];
  const h2: number[] = [];
  index.forEach((i) => {
    const tag = index.tags[i];
    if (tag === 'h1') h1.push(i);
    else if (tag === 'h2') h2.push(i);
  });
  const text = (i: number): string => index.element(i).textContent ?? '';
  if (title) {
    const match = h1.find((h) => matchesTitle(text(h), title)) ?? h2.find((h) => matchesTitle(text(h), title));
    if (match !== undefined) return match;
  }
  return h1.length === 1 ? h1[0] : undefined;
}
