/**
 * `onlyMainContent`, second half: after the furniture is gone, narrows the body to the element
 * that holds the page's main content.
 *
 * 1. Semantic containers first: the deepest `<article>`, `<main>`, `[role=main]` or
 *    `[itemprop=articleBody]` that holds at least SEMANTIC_SHARE of the page's text.
 * 2. Otherwise a text-density descent from the body: step into the child that holds at least
 *    DESCENT_SHARE of the current element's non-link text, as long as there is one. Link-heavy
 *    siblings (menus, link lists) weigh little, so they do not stop the descent; a sibling with
 *    real text does, which keeps articles whose text is split over several blocks whole.
 *
 * Both use the per-element text counts computed once (content-stats.ts), so the choice is
 * linear in page size. The title heading is kept in front of the chosen container when it lies
 * outside it.
 */
import type { ContentStats } from './content-stats.ts';
import { isInside, walkElements } from './dom.ts';

/** A semantic container must hold this much of the page's non-link text to be trusted. */
export const SEMANTIC_SHARE = 0.5;
/** The descent steps into a child holding at least this much of its parent's non-link text. */
export const DESCENT_SHARE = 0.8;

/** A semantic container beside another one holding this much of its text makes both "one of several". */
const RIVAL_SHARE = 0.25;

/** A container needs this many characters of text to be worth narrowing to. */
const MIN_CONTAINER_TEXT = 200;

function isSemanticContainer(element: Element): boolean {
  const tag = element.localName;
  if (tag === 'article' || tag === 'main') return true;
  if (element.getAttribute('role')?.trim().toLowerCase() === 'main') return true;
  return element.getAttribute('itemprop')?.trim() === 'articleBody';
}

/**
 * The deepest semantic container holding SEMANTIC_SHARE of the text, unless another semantic
 * container beside it (a second `<article>` of a thread or a listing) holds a quarter as much:
 * then it is one of several and their common ancestor is the content.
 */
function semanticContainer(body: Element, stats: ContentStats): Element | undefined {
  const candidates: { element: Element; depth: number; mass: number }[] = [];
  const depth = new Map<Element, number>([[body, 0]]);
  const minShare = SEMANTIC_SHARE * RIVAL_SHARE;
  walkElements(body, (element) => {
    const d = (depth.get(element.parentElement as Element) ?? 0) + 1;
    depth.set(element, d);
    if (isSemanticContainer(element) && stats.share(element) >= minShare) {
      candidates.push({ element, depth: d, mass: stats.mass(element) });
    }
  });
  const total = stats.mass(body);
  let best: { element: Element; depth: number } | undefined;
  for (const c of candidates) {
    if (c.mass < SEMANTIC_SHARE * total) continue;
    const rival = candidates.some(
      (o) => o !== c && o.mass >= RIVAL_SHARE * c.mass && !isInside(o.element, c.element) && !isInside(c.element, o.element),
    );
    if (!rival && (!best || c.depth > best.depth)) best = c;
  }
  return best?.element;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup']);

/** Headings right before an element (its section title, a subtitle), in document order. */
function leadingHeadings(element: Element, stats: ContentStats): Element[] {
  const out: Element[] = [];
  for (let s = element.previousElementSibling; s; s = s.previousElementSibling) {
    if (HEADINGS.has(s.localName)) out.unshift(s);
    else if (stats.get(s).text > 0) break;
  }
  return out;
}

interface Descent {
  container: Element;
  /** Headings left behind on the way down that introduce the container. */
  headings: Element[];
}

/** Non-link text, discounted by the element's link density: link lists with blurbs weigh little. */
function score(element: Element, stats: ContentStats): number {
  return stats.mass(element) * (1 - stats.linkDensity(element));
}

function descend(body: Element, stats: ContentStats): Descent {
  let current = body;
  const headings: Element[] = [];
  for (;;) {
    let bestChild: Element | undefined;
    let bestScore = -1;
    let childrenMass = 0;
    let childrenScore = 0;
    for (let child = current.firstElementChild; child; child = child.nextElementSibling) {
      const s = score(child, stats);
      childrenMass += stats.mass(child);
      childrenScore += s;
      if (s > bestScore) {
        bestScore = s;
        bestChild = child;
      }
    }
    // Text directly inside `current` (not in a child element) counts as it is.
    const total = childrenScore + Math.max(0, stats.mass(current) - childrenMass);
    if (!bestChild || bestScore < DESCENT_SHARE * total || stats.get(bestChild).text < MIN_CONTAINER_TEXT) {
      return { container: current, headings };
    }
    headings.push(...leadingHeadings(bestChild, stats));
    current = bestChild;
  }
}

/** A sibling of the chosen container with this much text and few links is part of the article (a lead, a note). */
const SIBLING_MIN_TEXT = 80;
const SIBLING_MAX_LINK_DENSITY = 0.25;

/**
 * Readability's sibling step: the descent's last step may leave behind a standfirst or a
 * closing note beside the container. When such siblings exist, the parent becomes the container
 * and keeps only them, the container, and its leading headings.
 */
function withContentSiblings(descent: Descent, body: Element, stats: ContentStats): Descent {
  const { container } = descent;
  const parent = container.parentElement;
  if (!parent || container === body) return descent;
  const keep = new Set<Element>([container, ...leadingHeadings(container, stats)]);
  let found = false;
  for (let s = parent.firstElementChild; s; s = s.nextElementSibling) {
    if (s === container) continue;
    const { text } = stats.get(s);
    if (text >= SIBLING_MIN_TEXT && stats.linkDensity(s) < SIBLING_MAX_LINK_DENSITY) {
      keep.add(s);
      found = true;
    }
  }
  if (!found) return descent;
  for (const child of Array.from(parent.children)) if (!keep.has(child)) child.remove();
  return { container: parent, headings: descent.headings.filter((h) => !keep.has(h)) };
}

/** Largest text of a header block kept around the title heading. */
const TITLE_BLOCK_MAX_TEXT = 600;

/**
 * What to keep of the title: the heading, or the small `<header>`/`<hgroup>` around it (with the
 * kicker and the standfirst) when there is one close by.
 */
function titleBlock(heading: Element, chosen: Element, stats: ContentStats): Element {
  let element: Element | null = heading.parentElement;
  for (let level = 0; element && level < 3; level++, element = element.parentElement) {
    if (element.localName === 'body' || isInside(chosen, element)) break;
    if (element.localName !== 'header' && element.localName !== 'hgroup') continue;
    const { text } = stats.get(element);
    return text <= TITLE_BLOCK_MAX_TEXT && stats.linkDensity(element) < 0.5 ? element : heading;
  }
  return heading;
}

const CELL_LIKE = new Set(['td', 'th', 'li', 'dd', 'dt']);
const ROW_LIKE = new Set(['tr', 'tbody', 'thead', 'tfoot', 'caption']);

/** A table row or cell cannot stand alone in the body: use its table, or a div with the cell's content. */
function standalone(container: Element, document: Document): Element {
  if (ROW_LIKE.has(container.localName)) {
    return container.closest('table') ?? container;
  }
  if (CELL_LIKE.has(container.localName)) {
    const div = document.createElement('div');
    div.append(...Array.from(container.childNodes));
    return div;
  }
  return container;
}

export function pickMainContent(document: Document, stats: ContentStats, titleHeading: Element | undefined): Element | undefined {
  const body = document.body;
  if (stats.mass(body) === 0) return undefined;
  const semantic = semanticContainer(body, stats);
  const { container: chosen, headings } = semantic
    ? { container: semantic, headings: [] }
    : withContentSiblings(descend(body, stats), body, stats);
  if (chosen === body) return undefined;
  const kept: Element[] = [];
  if (titleHeading && !isInside(titleHeading, chosen) && !headings.some((h) => isInside(titleHeading, h))) {
    kept.push(titleBlock(titleHeading, chosen, stats));
  }
  for (const h of headings) if (!kept.some((k) => isInside(h, k))) kept.push(h);
  const container = standalone(chosen, document);
  body.replaceChildren(...kept, container);
  return container;
}
