/**
 * Small DOM helpers shared by the markdown rules. They work on any DOM (the writer is fed the
 * linkedom tree directly) and use only Node/Element basics: nodeType, nodeName, parentNode,
 * firstChild/nextSibling, getAttribute.
 */

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_NODE = 4;

export function isElement(node: Node | null | undefined): node is Element {
  return node !== null && node !== undefined && node.nodeType === ELEMENT_NODE;
}

/** The element's class tokens (empty when it has none). */
export function classTokens(el: Element): string[] {
  const value = el.getAttribute('class');
  return value ? value.split(/\s+/).filter((t) => t.length > 0) : [];
}

/** Nearest ancestor (not the element itself) whose nodeName is in `names`, or null. */
export function closestAncestor(node: Node, names: ReadonlySet<string>, stopAt?: ReadonlySet<string>): Element | null {
  let cur = node.parentNode;
  while (cur !== null) {
    if (isElement(cur)) {
      if (names.has(cur.nodeName)) return cur;
      if (stopAt?.has(cur.nodeName)) return null;
    }
    cur = cur.parentNode;
  }
  return null;
}

/** Element children, in order, without allocating a NodeList. */
export function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child)) out.push(child);
  }
  return out;
}

/** Whether the element has a descendant with one of the given nodeNames. */
export function hasDescendant(el: Element, names: ReadonlySet<string>): boolean {
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child) && (names.has(child.nodeName) || hasDescendant(child, names))) return true;
  }
  return false;
}

/** A positive integer attribute, clamped to [1, max]; `fallback` when missing or invalid. */
export function intAttribute(el: Element, name: string, fallback: number, max: number): number {
  const raw = el.getAttribute(name);
  if (raw === null) return fallback;
  const n = Number.parseInt(raw.trim(), 10);
  if (!Number.isFinite(n) || Number.isNaN(n)) return fallback;
  return Math.max(0, Math.min(n, max));
}
