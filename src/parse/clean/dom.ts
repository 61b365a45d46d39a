/**
 * DOM traversal for the page index. Iterative (a deeply nested page must not overflow the
 * stack) and visiting each node once.
 */

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;

/**
 * Pre-order walk over every node below `root`; `enter` returns false to skip an element's
 * descendants. `exit` runs after an element's descendants (post-order), for every element
 * entered, skipped or not.
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
