/**
 * Elements a reader of the page never sees: the `hidden` attribute (except `until-found`, which
 * the browser's find-in-page reveals), `aria-hidden="true"`, inline `display:none` /
 * `visibility:hidden`, a closed `<dialog>`, `<input type=hidden>`.
 *
 * A hidden element that holds most of the page's text is kept: pages that hide their whole body
 * until a script has run would otherwise come out empty.
 */
import type { ContentStats } from './content-stats.ts';
import { removeAll, walkElements } from './dom.ts';

const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\s*(?:!\s*important\s*)?(?:;|$)/i;
const VISIBILITY_HIDDEN = /(?:^|;)\s*visibility\s*:\s*hidden\s*(?:!\s*important\s*)?(?:;|$)/i;

/** The largest share of the page's text a hidden element may hold and still be removed. */
const MAX_HIDDEN_SHARE = 0.5;

export function isHidden(element: Element): boolean {
  const hidden = element.getAttribute('hidden');
  if (hidden !== null && hidden.trim().toLowerCase() !== 'until-found') return true;
  if (element.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true') return true;
  const style = element.getAttribute('style');
  if (style && (DISPLAY_NONE.test(style) || VISIBILITY_HIDDEN.test(style))) return true;
  const tag = element.localName;
  if (tag === 'dialog' && !element.hasAttribute('open')) return true;
  if (tag === 'input' && element.getAttribute('type')?.toLowerCase() === 'hidden') return true;
  return false;
}

export function removeHidden(body: Element, stats: ContentStats): number {
  const doomed: Element[] = [];
  walkElements(body, (element) => {
    if (isHidden(element) && stats.share(element) <= MAX_HIDDEN_SHARE) {
      doomed.push(element);
      return false;
    }
  });
  return removeAll(doomed);
}
