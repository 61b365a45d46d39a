/**
 * `onlyMainContent`, second half: after the furniture is gone, narrows the body to the element
 * that holds the page's main content.
 *
 * 1. Semantic containers first: the deepest `<article>`, `<main>`, `[role=main]` or
 *    `[itemprop=articleBody]` holding at least SEMANTIC_SHARE of the page's non-link text —
 *    unless another such container beside it holds a quarter as much (a thread of posts, a
 *    listing): then none of them alone is the content.
 * 2. Otherwise a text-density descent from the body: step into the child whose score (non-link
 *    text × (1 − link density)) is at least DESCENT_SHARE of all its siblings' scores together,
 *    as long as there is one. Link lists weigh little, so they do not stop the descent; a
 *    sibling with real text does, which keeps articles split over several blocks whole.
 *    Readability's sibling step then takes back the text-rich, link-poor siblings of the last
 *    step (a standfirst, a closing note), and the headings just before each step are kept.
 *
 * The title heading (title-heading.ts) is kept in front of the container when it lies outside
 * it, with the small block around it (kicker, standfirst) when there is one. Everything works on
 * the page index's counts, so the choice is linear in page size. The thresholds were tuned on
 * the Readability and Defuddle corpora (test/parse/clean-readability.test.ts holds the ratchet).
 */
import type { PageIndex } from './page-index.ts';

/** A semantic container must hold this much of the page's non-link text to be trusted. */
export const SEMANTIC_SHARE = 0.5;
/** The descent steps into a child holding at least this much of its parent's score. */
export const DESCENT_SHARE = 0.8;
/** A semantic container beside another one holding this much of its text makes both "one of several". */
const RIVAL_SHARE = 0.25;
/** A container needs this many characters of text to be worth narrowing to. */
const MIN_CONTAINER_TEXT = 200;
/** A sibling of the chosen container with this much text and few links is part of the article. */
const SIBLING_MIN_TEXT = 80;
const SIBLING_MAX_LINK_DENSITY = 0.25;
/** Largest text, and link density, of a block kept around the title heading. */
const TITLE_BLOCK_MAX_TEXT = 600;
const TITLE_BLOCK_MAX_LINK_DENSITY = 0.3;

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup']);
const CELL_LIKE = new Set(['td', 'th', 'li', 'dd', 'dt']);
const ROW_LIKE = new Set(['tr', 'tbody', 'thead', 'tfoot', 'caption']);

function isSemanticContainer(index: PageIndex, i: number): boolean {
  const tag = index.tags[i];
  if (tag === 'article' || tag === 'main') return true;
  const attrs = index.attrs[i];
  if (attrs?.role?.trim().toLowerCase() === 'main') return true;
  return attrs?.itemprop?.trim() === 'articleBody';
}

function semanticContainer(index: PageIndex): number | undefined {
  const candidates: number[] = [];
  const minShare = SEMANTIC_SHARE * RIVAL_SHARE;
  index.forEach((i) => {
    if (isSemanticContainer(index, i) && index.share(i) >= minShare) candidates.push(i);
  });
  const total = index.mass(0);
  let best: number | undefined;
  for (const c of candidates) {
    const mass = index.mass(c);
    if (mass < SEMANTIC_SHARE * total) continue;
    const rival = candidates.some((o) => o !== c && index.mass(o) >= RIVAL_SHARE * mass && !index.contains(o, c) && !index.contains(c, o));
    // Candidates come in document order, so a later one that nests is deeper.
    if (!rival && (best === undefined || index.contains(best, c))) best = c;
  }
  return best;
}

/** Non-link text, discounted by the element's link density: link lists with blurbs weigh little. */
function score(index: PageIndex, i: number): number {
  return index.mass(i) * (1 - index.linkDensity(i));
}

/** Headings right before `i` among its siblings (its section title, a subtitle), in order. */
function leadingHeadings(index: PageIndex, i: number, siblings: number[]): number[] {
  const out: number[] = [];
  const at = siblings.indexOf(i);
  for (let k = at - 1; k >= 0; k--) {
    const s = siblings[k] as number;
    if (HEADINGS.has(index.tags[s] as string)) out.unshift(s);
    else if (index.text(s) > 0) break;
  }
  return out;
}

interface Choice {
  container: number;
  /** Headings left behind on the way down that introduce the container. */
  headings: number[];
}

function descend(index: PageIndex): Choice {
  let current = 0;
  const headings: number[] = [];
  for (;;) {
    const children = index.children(current);
    let best: number | undefined;
    let bestScore = -1;
    let childrenMass = 0;
    let childrenScore = 0;
    for (const child of children) {
      const s = score(index, child);
      childrenMass += index.mass(child);
      childrenScore += s;
      if (s > bestScore) {
        bestScore = s;
        best = child;
      }
    }
    // Text directly inside `current` (not in a child element) counts as it is.
    const total = childrenScore + Math.max(0, index.mass(current) - childrenMass);
    if (best === undefined || bestScore < DESCENT_SHARE * total || index.text(best) < MIN_CONTAINER_TEXT) {
      return { container: current, headings };
    }
    headings.push(...leadingHeadings(index, best, children));
    current = best;
  }
}

/**
 * Readability's sibling step: when the last step left text-rich, link-poor siblings behind,
 * the parent becomes the container and keeps only them, the container and its leading headings.
 */
function withContentSiblings(index: PageIndex, choice: Choice, titleHeading: number | undefined): Choice {
  const { container } = choice;
  if (container === 0) return choice;
  const parent = index.parent[container] as number;
  const siblings = index.children(parent);
  const keep = new Set<number>([container, ...leadingHeadings(index, container, siblings)]);
  let found = false;
  for (const s of siblings) {
    if (s !== container && index.text(s) >= SIBLING_MIN_TEXT && index.linkDensity(s) < SIBLING_MAX_LINK_DENSITY) {
      keep.add(s);
      found = true;
    }
  }
  // The sibling holding the title heading stays in place rather than being moved to the front.
  const titleSibling = titleHeading === undefined ? undefined : siblings.find((s) => index.contains(s, titleHeading));
  if (found && titleSibling !== undefined) keep.add(titleSibling);
  if (!found) return choice;
  for (const s of siblings) if (!keep.has(s)) index.remove(s);
  return { container: parent, headings: choice.headings.filter((h) => !keep.has(h)) };
}

function isTitleBlock(index: PageIndex, i: number): boolean {
  return index.text(i) <= TITLE_BLOCK_MAX_TEXT && index.linkDensity(i) < TITLE_BLOCK_MAX_LINK_DENSITY;
}

/**
 * The title heading with what belongs to it: its parent when that is a small block (the
 * heading with its kicker and standfirst), or a small `<header>`/`<hgroup>` up to three levels
 * up; otherwise the heading alone.
 */
function titleBlock(index: PageIndex, heading: number, container: number): number {
  let i = index.parent[heading] as number;
  for (let level = 0; i > 0 && level < 3; level++, i = index.parent[i] as number) {
    if (index.contains(i, container)) break;
    const tag = index.tags[i];
    if (tag === 'header' || tag === 'hgroup') return isTitleBlock(index, i) ? i : heading;
    if (level === 0 && isTitleBlock(index, i)) return i;
  }
  return heading;
}

/** A table row or cell cannot stand alone in the body: use its table, or a div with the cell's content. */
function standalone(index: PageIndex, container: number, document: Document): { position: number; element: Element } {
  const element = index.element(container);
  const tag = index.tags[container] as string;
  if (ROW_LIKE.has(tag)) {
    for (let i = index.parent[container] as number; i > 0; i = index.parent[i] as number) {
      if (index.tags[i] === 'table') return { position: i, element: index.element(i) };
    }
  }
  if (CELL_LIKE.has(tag)) {
    const div = document.createElement('div');
    div.append(...Array.from(element.childNodes));
    return { position: container, element: div };
  }
  return { position: container, element };
}

/** Narrows the body to the main content; returns the container element, or undefined when the whole body is it. */
export function pickMainContent(document: Document, index: PageIndex, titleHeading: number | undefined): Element | undefined {
  if (index.mass(0) === 0) return undefined;
  const semantic = semanticContainer(index);
  const choice = semantic !== undefined ? { container: semantic, headings: [] } : withContentSiblings(index, descend(index), titleHeading);
  if (choice.container === 0) return undefined;

  const kept: number[] = [];
  const title = titleHeading;
  if (title !== undefined && !index.contains(choice.container, title) && !choice.headings.some((h) => index.contains(h, title))) {
    kept.push(titleBlock(index, title, choice.container));
  }
  for (const h of choice.headings) if (!kept.some((k) => index.contains(k, h))) kept.push(h);
  const container = standalone(index, choice.container, document);
  kept.push(container.position);
  index.keepOnly(kept);
  document.body.replaceChildren(...kept.slice(0, -1).map((i) => index.element(i)), container.element);
  return container.element;
}
