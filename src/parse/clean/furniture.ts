/**
 * Page furniture of paged documents (contracts "Page furniture"): readers put running headers
 * and footers in `[data-furniture]` elements. With `onlyMainContent` they are dropped; without
 * it they stay as ordinary content.
 */
import { removeAll } from './dom.ts';

export function removeFurniture(body: Element): number {
  return removeAll(Array.from(body.querySelectorAll('[data-furniture]')));
}
