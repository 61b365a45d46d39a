/**
 * The elements metadata is read from — `<meta>`, `<link>`, `<title>`, `<base>` — collected in
 * one walk over the document (pages also put them in the body; a `<title>` inside an inline SVG
 * is the icon's, not the page's, and is left out).
 */

export interface HeadElements {
  metas: Element[];
  links: Element[];
  titles: Element[];
  bases: Element[];
}

export function collectHeadElements(document: Document): HeadElements {
  const found: HeadElements = { metas: [], links: [], titles: [], bases: [] };
  const root = document.documentElement;
  if (!root) return found;
  let svgDepth = 0;
  let node: Element | null = root;
  while (node) {
    const tag = node.localName;
    if (tag === 'meta') found.metas.push(node);
    else if (tag === 'link') found.links.push(node);
    else if (tag === 'title' && svgDepth === 0) found.titles.push(node);
    else if (tag === 'base') found.bases.push(node);
    else if (tag === 'svg') svgDepth++;
    const child: Element | null = node.firstElementChild;
    if (child) {
      node = child;
      continue;
    }
    // Climb until a next sibling, leaving SVGs on the way.
    while (node && node !== root) {
      if (node.localName === 'svg') svgDepth--;
      const next: Element | null = node.nextElementSibling;
      if (next) {
        node = next;
        break;
      }
      node = node.parentElement;
    }
    if (node === root) break;
  }
  return found;
}
