/**
 * Small DOM helpers for the cleaners. Traversals are iterative (a deeply nested page must not
 * overflow the stack) and visit each node once, so every cleaner stays linear in page size.
 */

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;

export function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE;
}

/**
 * Pre-order walk over the elements below `root` (not `root` itself). `visit` returns false to
 * skip an element's descendants (e.g. because it is about to be removed).
 */
export function walkElements(root: Element, visit: (element: Element) => boolean | void): void {
  let node: Element | null = root.firstElementChild;
  while (node) {
    const descend = visit(node) !== false;
    const child = descend ? node.firstElementChild : null;
    if (child) {
      node = child;
      continue;
    }
    while (node && node !== root) {
      const next: Element | null = node.nextElementSibling;
      if (next) {
        node = next;
        break;
      }
      const parent: Element | null = node.parentElement;
      node = parent === root ? null : parent;
    }
  }
}

/**
 * Pre-order walk over every node below `root`, with an exit callback after an element's
 * descendants (post-order), for bottom-up sums.
 */
export function walkNodes(root: Node, enter: (node: Node) => boolean | void, exit?: (element: Element) => void): void {
  let node: Node | null = root.firstChild;
  while (node) {
    const descend = enter(node) !== false;
    const child = descend && node.nodeType === ELEMENT_NODE ? node.firstChild : null;
    if (child) {
      node = child;
      continue;
    }
    while (node) {
      if (exit && node.nodeType === ELEMENT_NODE) exit(node as Element);
      const next: Node | null = node.nextSibling;
      if (next) {
        node = next;
        break;
      }
      const parent: Node | null = node.parentNode;
      node = parent === root ? null : parent;
    }
  }
}

/** Removes each element still attached to a parent; returns how many were removed. */
export function removeAll(elements: Iterable<Element>): number {
  let removed = 0;
  for (const element of elements) {
    if (element.parentNode) {
      element.remove();
      removed++;
    }
  }
  return removed;
}

/** Lower-cased class tokens and id of an element, for pattern checks. */
export function classAndId(element: Element): string[] {
  const tokens: string[] = [];
  const cls = element.getAttribute('class');
  if (cls) {
    for (const token of cls.toLowerCase().split(/\s+/)) if (token) tokens.push(token);
  }
  const id = element.getAttribute('id');
  if (id) tokens.push(id.toLowerCase());
  return tokens;
}

/** Whether `ancestor` contains `node` (or is it). Linear in depth. */
export function isInside(node: Node, ancestor: Node): boolean {
  for (let n: Node | null = node; n; n = n.parentNode) if (n === ancestor) return true;
  return false;
}
