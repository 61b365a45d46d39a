/**
 * Page furniture of paged documents (contracts "Page furniture"): readers put running headers
 * and footers in `[data-furniture]` elements. With `onlyMainContent` they are dropped; without
 * it they stay as ordinary content.
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
