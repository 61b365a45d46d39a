/**
 * Turndown converts recursively, and a few thousand nested elements (unclosed `<font>`/`<b>` tags
 * in old pages do this) overflow the call stack. When the tree is deeper than MAX_DEPTH, the
 * writer works on a copy in which every element at that depth has its subtree flattened to its
 * text, line breaks and images (block boundaries become line breaks). Shallower content is
 * untouched, so ordinary documents never pay more than one iterative walk.
 */
import { ELEMENT_NODE, TEXT_NODE, CDATA_NODE, isElement } from './dom.ts';

export const MAX_DEPTH = 500;

const KEEP_LEAVES = new Set(['BR', 'IMG']);
const BLOCK_ENDS = new Set(['P', 'DIV', 'LI', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'BLOCKQUOTE', 'TABLE', 'UL', 'OL', 'SECTION', 'ARTICLE']);

/** Elements at exactly `depth` below root (root is depth 0), in document order. */
function elementsAtDepth(root: Element, depth: number): Element[] {
  const found: Element[] = [];
  let node: Node | null = root.firstChild;
  let level = 1;
  while (node !== null && node !== root) {
    if (isElement(node) && level === depth) {
      found.push(node);
    } else if (isElement(node) && node.firstChild !== null) {
      node = node.firstChild;
      level++;
      continue;
    }
    while (node !== null && node !== root && node.nextSibling === null) {
      node = node.parentNode;
      level--;
    }
    if (node === null || node === root) break;
    node = node.nextSibling;
  }
  return found;
}

function flattenInto(el: Element): void {
  const doc = el.ownerDocument;
  const parts: Node[] = [];
  let node: Node | null = el.firstChild;
  while (node !== null && node !== el) {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_NODE) {
      parts.push(doc.createTextNode((node as CharacterData).data));
    } else if (node.nodeType === ELEMENT_NODE && KEEP_LEAVES.has(node.nodeName)) {
      parts.push(node.cloneNode(false));
    }
    if (isElement(node) && node.firstChild !== null && !KEEP_LEAVES.has(node.nodeName)) {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node !== el && node.nextSibling === null) {
      node = node.parentNode;
      if (isElement(node) && node !== el && BLOCK_ENDS.has(node.nodeName)) parts.push(doc.createElement('br'));
    }
    if (node === null || node === el) break;
    node = node.nextSibling;
  }
  while (el.firstChild !== null) el.removeChild(el.firstChild);
  for (const part of parts) el.appendChild(part);
}

/** `root` itself when it is shallow enough, otherwise a flattened copy. */
export function limitDepth(root: Element): Element {
  if (elementsAtDepth(root, MAX_DEPTH).length === 0) return root;
  const copy = root.cloneNode(true) as Element;
  for (const el of elementsAtDepth(copy, MAX_DEPTH)) flattenInto(el);
  return copy;
}
