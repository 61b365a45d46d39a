/**
 * `includeTags` / `excludeTags`: CSS selectors (validated by selectors.ts) run against the
 * document as the reader produced it, before any main-content extraction, so a selector means
 * what it says on the page (`#sidebar p` still finds the sidebar's paragraphs).
 *
 * - excludeTags: every match is removed with its descendants.
 * - includeTags: the body keeps only the matches (the outermost ones when matches nest), in
 *   document order, and nothing else. A match inside an excluded element stays excluded.
 *   Matching `<html>` or `<body>` keeps everything.
 *
 * Returns the kept include roots (undefined when `includeTags` is not given): the user chose
 * the content, so main-content extraction does not run.
 */
import { ServiceError } from '../../errors.ts';
import type { PageIndex } from './page-index.ts';

function usable(selectors: readonly string[] | undefined): string[] {
  return (selectors ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

function isDocumentLevel(element: Element): boolean {
  return element.localName === 'html' || element.localName === 'body';
}

function select(document: Document, selector: string, option: string): Element[] {
  try {
    return Array.from(document.querySelectorAll(selector));
  } catch {
    // selectors.ts validated it; a selector can still fail on elements the probe did not have.
    throw new ServiceError('BAD_REQUEST', `Invalid options: \`${option}\`: '${selector}' could not be applied to this document. Use a simpler CSS selector.`);
  }
}

/** Positions of the matches inside the body, in document order, each once. */
function matchPositions(document: Document, index: PageIndex, selectors: string[], option: string): { positions: number[]; documentLevel: boolean } {
  const positions = new Set<number>();
  let documentLevel = false;
  for (const selector of selectors) {
    for (const element of select(document, selector, option)) {
      if (isDocumentLevel(element)) documentLevel = true;
      const i = index.indexOf(element);
      if (i > 0) positions.add(i);
    }
  }
  return { positions: [...positions].sort((a, b) => a - b), documentLevel };
}

export function applyTagFilters(
  document: Document,
  index: PageIndex,
  includeTags: readonly string[] | undefined,
  excludeTags: readonly string[] | undefined,
): number[] | undefined {
  const include = usable(includeTags);
  const exclude = usable(excludeTags);
  // Both selector lists see the page before either has changed it.
  const included = include.length > 0 ? matchPositions(document, index, include, 'includeTags') : undefined;
  const excluded = exclude.length > 0 ? matchPositions(document, index, exclude, 'excludeTags') : undefined;

  if (excluded) {
    if (excluded.documentLevel) index.keepOnly([]);
    for (const i of excluded.positions) index.remove(i);
    if (excluded.documentLevel) document.body.replaceChildren();
  }
  if (!included) return undefined;
  if (included.documentLevel) return [0];

  const roots: number[] = [];
  for (const i of included.positions) {
    const last = roots[roots.length - 1];
    if (last !== undefined && index.contains(last, i)) continue;
    if (!index.isRemoved(i)) roots.push(i);
  }
  index.keepOnly(roots);
  document.body.replaceChildren(...roots.map((i) => index.element(i)));
  return roots;
}
