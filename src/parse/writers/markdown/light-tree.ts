/**
 * Builds the writer's light copy of a DOM subtree (light-dom.ts) in one iterative walk.
 *
 * - Comments and elements whose content is never document text (scripts, styles, media, …) are
 *   not copied at all.
 * - Depth limit: turndown converts recursively, and a few thousand nested elements (unclosed
 *   `<font>`/`<b>` tags in old pages do this) overflow the call stack. An element at MAX_DEPTH
 *   gets its subtree flattened to its text, line breaks and images, with a line break after each
 *   block. Shallower content is copied as is.
 */
import { MdElement, MdText } from './light-dom.ts';

export const MAX_DEPTH = 500;

/** Not copied: their content is not document text. (INPUT stays: checkboxes in task lists.) */
export const NOT_COPIED = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK', 'SVG', 'IFRAME',
  'OBJECT', 'EMBED', 'CANVAS', 'SELECT', 'TEXTAREA', 'AUDIO', 'VIDEO', 'AREA', 'MAP',
]);

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const FLAT_LEAVES = new Set(['BR', 'IMG']);
const FLAT_BLOCK_ENDS = new Set(['P', 'DIV', 'LI', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'BLOCKQUOTE', 'TABLE', 'UL', 'OL', 'SECTION', 'ARTICLE']);

function tagName(el: Element): string {
  return el.nodeName.toUpperCase();
}

/** Next node in document order after `node`'s subtree, not leaving `root`; null at the end. */
function nextOutside(node: Node, root: Node, onClimb?: (left: Node) => void): Node | null {
  let cur: Node = node;
  while (cur !== root && cur.nextSibling === null) {
    const parent = cur.parentNode;
    if (parent === null) return null;
    cur = parent;
    if (cur !== root) onClimb?.(cur);
  }
  return cur === root ? null : cur.nextSibling;
}

/** The flattened content of a too-deep element: text, <br> and <img>, a <br> after each block. */
function appendFlattened(target: MdElement, source: Element): void {
  let node: Node | null = source.firstChild;
  const climb = (left: Node): void => {
    if (left.nodeType === ELEMENT && FLAT_BLOCK_ENDS.has(tagName(left as Element))) target.appendChild(new MdElement('BR', null));
  };
  while (node !== null) {
    if (node.nodeType === TEXT || node.nodeType === CDATA) {
      target.appendChild(new MdText((node as CharacterData).data));
    } else if (node.nodeType === ELEMENT) {
      const el = node as Element;
      const name = tagName(el);
      if (FLAT_LEAVES.has(name)) {
        target.appendChild(new MdElement(name, el));
      } else if (!NOT_COPIED.has(name) && el.firstChild !== null) {
        node = el.firstChild;
        continue;
      }
    }
    node = nextOutside(node, source, climb);
  }
}

export function lightTree(root: Element): MdElement {
  const top = new MdElement(tagName(root), root);
  let parent = top;
  let depth = 1;
  let node: Node | null = root.firstChild;
  while (node !== null) {
    if (node.nodeType === TEXT || node.nodeType === CDATA) {
      parent.appendChild(new MdText((node as CharacterData).data));
    } else if (node.nodeType === ELEMENT) {
      const el = node as Element;
      const name = tagName(el);
      if (!NOT_COPIED.has(name)) {
        const copy = new MdElement(name, el);
        parent.appendChild(copy);
        if (el.firstChild !== null) {
          if (depth >= MAX_DEPTH) {
            appendFlattened(copy, el);
          } else {
            parent = copy;
            depth++;
            node = el.firstChild;
            continue;
          }
        }
      }
    }
    node = nextOutside(node, root, () => {
      parent = parent.parentNode ?? top;
      depth--;
    });
  }
  return top;
}
