/**
 * Elements a reader of the page never sees: the `hidden` attribute (except `until-found`, which
 * the browser's find-in-page reveals), `aria-hidden="true"`, inline `display:none` /
 * `visibility:hidden`, a closed `<dialog>`, `<input type=hidden>`.
 *
 * A hidden element that holds nearly all of the page's text (over 80%) is kept: pages that hide
 * their whole body until a script has run would otherwise come out empty.
 */
import type { ElementAttributes, PageIndex } from './page-index.ts';

const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\s*(?:!\s*important\s*)?(?:;|$)/i;
const VISIBILITY_HIDDEN = /(?:^|;)\s*visibility\s*:\s*hidden\s*(?:!\s*important\s*)?(?:;|$)/i;

/** The largest share of the page's text a hidden element may hold and still be removed. */
const MAX_HIDDEN_SHARE = 0.8;

export function isHidden(tag: string, attrs: ElementAttributes | undefined): boolean {
  if (!attrs) return tag === 'dialog';
  if (attrs.hidden !== undefined && attrs.hidden.trim().toLowerCase() !== 'until-found') return true;
  if (attrs.ariaHidden?.trim().toLowerCase() === 'true') return true;
  if (attrs.style && (DISPLAY_NONE.test(attrs.style) || VISIBILITY_HIDDEN.test(attrs.style))) return true;
  if (tag === 'dialog' && attrs.open === undefined) return true;
  if (tag === 'input' && attrs.type?.toLowerCase() === 'hidden') return true;
  return false;
}

export function removeHidden(index: PageIndex): number {
  let removed = 0;
  index.forEach((i) => {
    if (isHidden(index.tags[i] as string, index.attrs[i]) && index.share(i) <= MAX_HIDDEN_SHARE) {
      index.remove(i);
      removed++;
      return false;
    }
  });
  return removed;
}
