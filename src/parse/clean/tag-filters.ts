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
 * Returns the kept include roots (undefined when `includeTags` is not given), so later cleaners
 * know the user chose the content.
 */
import { isInside, removeAll } from './dom.ts';

function usable(selectors: readonly string[] | undefined): string[] {
  return (selectors ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

function isDocumentLevel(element: Element): boolean {
  return element.localName === 'html' || element.localName === 'body';
}

/** Matches with no matched ancestor, in document order. */
function outermost(matches: Element[]): Element[] {
  const set = new Set(matches);
  return matches.filter((element) => {
    for (let p = element.parentElement; p; p = p.parentElement) if (set.has(p)) return false;
    return true;
  });
}

export function applyTagFilters(
  document: Document,
  includeTags: readonly string[] | undefined,
  excludeTags: readonly string[] | undefined,
): Element[] | undefined {
  const body = document.body;
  const include = usable(includeTags);
  const exclude = usable(excludeTags);

  let includeRoots: Element[] | undefined;
  let keepAll = false;
  if (include.length > 0) {
    const matches = Array.from(document.querySelectorAll(include.join(', ')));
    keepAll = matches.some(isDocumentLevel);
    includeRoots = outermost(matches.filter((m) => isInside(m, body) && m !== body));
  }

  if (exclude.length > 0) {
    const matches = Array.from(document.querySelectorAll(exclude.join(', ')));
    if (matches.some(isDocumentLevel)) body.replaceChildren();
    else removeAll(matches.filter((m) => isInside(m, body)));
  }

  if (includeRoots === undefined || keepAll) return keepAll ? [body] : undefined;
  const kept = includeRoots.filter((root) => isInside(root, body));
  body.replaceChildren(...kept);
  return kept;
}
