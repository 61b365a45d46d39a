/**
 * Page furniture of paged documents (contracts "Page furniture"): readers put running headers
 * and footers in `[data-furniture]` elements. With `onlyMainContent` they are dropped; without
 * it they stay as ordinary content. When the furniture was all the text there was, what was
 * removed is said in a warning: an empty answer never goes unexplained.
 */
import type { PageIndex } from './page-index.ts';

export function removeFurniture(index: PageIndex): number {
  let removed = 0;
  index.forEach((i) => {
    if (index.attrs[i]?.furniture) {
      index.remove(i);
      removed++;
      return false;
    }
  });
  return removed;
}

/** The warning for a document whose only text was furniture, once removeFurniture has run; undefined otherwise. */
export function furnitureOnlyWarning(body: Element, removed: number): string | undefined {
  if (removed === 0 || (body.textContent ?? '').trim() !== '') return undefined;
  return `All the text of the document was running headers, footers or page numbers (${removed} removed under onlyMainContent). Set onlyMainContent to false to keep them.`;
}
