/**
 * The writer's private copy of the tree: a minimal DOM with just what turndown and our rules use.
 *
 * Why not hand turndown the linkedom node: turndown clones its input (it rewrites whitespace in
 * place), and a linkedom clone costs an EventTarget, a WeakMap entry and a Map per node — in
 * measurements the clone and the garbage it left were about a third of the writer's time. These
 * nodes are plain objects, attributes are read from the source element on demand, and an
 * element's text is computed once and cached (turndown asks every node for its textContent).
 *
 * `cloneNode` returns the node itself: turndown clones the tree it is given, and this tree is
 * already a private copy built for one conversion.
 */

import type TurndownService from 'turndown';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export type MdNode = MdElement | MdText;

/** Properties turndown sets on every node it visits (declared so all nodes share one shape). */
interface TurndownExpandos {
  isBlock: boolean;
  isCode: boolean;
  isBlank: boolean;
  flankingWhitespace: unknown;
}

export class MdText implements TurndownExpandos {
  readonly nodeType = TEXT_NODE;
  readonly nodeName = '#text';
  parentNode: MdElement | null = null;
  nextSibling: MdNode | null = null;
  previousSibling: MdNode | null = null;
  isBlock = false;
  isCode = false;
  isBlank = false;
  flankingWhitespace: unknown = undefined;
  private value: string;

  constructor(data: string) {
    this.value = data;
  }

  get data(): string {
    return this.value;
  }

  set data(value: string) {
    this.value = value;
    this.parentNode?.invalidateText();
  }

  get nodeValue(): string {
    return this.value;
  }

  get textContent(): string {
    return this.value;
  }
}

export class MdElement implements TurndownExpandos {
  readonly nodeType = ELEMENT_NODE;
  /** Upper-case tag name, as in HTML documents. */
  readonly nodeName: string;
  parentNode: MdElement | null = null;
  nextSibling: MdNode | null = null;
  previousSibling: MdNode | null = null;
  firstChild: MdNode | null = null;
  lastChild: MdNode | null = null;
  isBlock = false;
  isCode = false;
  isBlank = false;
  flankingWhitespace: unknown = undefined;
  private readonly source: Element | null;
  private text: string | undefined = undefined;

  constructor(nodeName: string, source: Element | null) {
    this.nodeName = nodeName;
    this.source = source;
  }

  getAttribute(name: string): string | null {
    return this.source === null ? null : this.source.getAttribute(name);
  }

  hasAttribute(name: string): boolean {
    return this.source !== null && this.source.hasAttribute(name);
  }

  appendChild(child: MdNode): MdNode {
    child.parentNode = this;
    child.previousSibling = this.lastChild;
    child.nextSibling = null;
    if (this.lastChild === null) this.firstChild = child;
    else this.lastChild.nextSibling = child;
    this.lastChild = child;
    this.invalidateText();
    return child;
  }

  removeChild(child: MdNode): MdNode {
    if (child.previousSibling === null) this.firstChild = child.nextSibling;
    else child.previousSibling.nextSibling = child.nextSibling;
    if (child.nextSibling === null) this.lastChild = child.previousSibling;
    else child.nextSibling.previousSibling = child.previousSibling;
    child.parentNode = null;
    child.nextSibling = null;
    child.previousSibling = null;
    this.invalidateText();
    return child;
  }

  /** Drops cached text here and above (a cached parent implies cached children, so stop early). */
  invalidateText(): void {
    for (let el: MdElement | null = this; el !== null && el.text !== undefined; el = el.parentNode) el.text = undefined;
  }

  get textContent(): string {
    if (this.text === undefined) {
      let text = '';
      for (let child = this.firstChild; child !== null; child = child.nextSibling) text += child.textContent;
      this.text = text;
    }
    return this.text;
  }

  get childNodes(): MdNode[] {
    const out: MdNode[] = [];
    for (let child = this.firstChild; child !== null; child = child.nextSibling) out.push(child);
    return out;
  }

  get lastElementChild(): MdElement | null {
    let child = this.lastChild;
    while (child !== null && child.nodeType !== ELEMENT_NODE) child = child.previousSibling;
    return child;
  }

  /** Descendants with the tag name ('*' for all), in document order. */
  getElementsByTagName(name: string): MdElement[] {
    const wanted = name.toUpperCase();
    const out: MdElement[] = [];
    let node: MdNode | null = this.firstChild;
    while (node !== null) {
      if (node.nodeType === ELEMENT_NODE) {
        if (wanted === '*' || node.nodeName === wanted) out.push(node);
        if (node.firstChild !== null) {
          node = node.firstChild;
          continue;
        }
      }
      while (node !== null && node !== this && node.nextSibling === null) node = node.parentNode;
      if (node === null || node === this) break;
      node = node.nextSibling;
    }
    return out;
  }

  cloneNode(): this {
    return this;
  }
}

export function isElement(node: MdNode | null | undefined): node is MdElement {
  return node !== null && node !== undefined && node.nodeType === ELEMENT_NODE;
}

/** The element's class tokens (empty when it has none). */
export function classTokens(el: MdElement): string[] {
  const value = el.getAttribute('class');
  return value ? value.split(/\s+/).filter((t) => t.length > 0) : [];
}

/** Nearest ancestor (not the element itself) whose nodeName is in `names`, or null. */
export function closestAncestor(node: MdNode, names: ReadonlySet<string>): MdElement | null {
  for (let cur = node.parentNode; cur !== null; cur = cur.parentNode) {
    if (names.has(cur.nodeName)) return cur;
  }
  return null;
}

/** Element children, in order. */
export function elementChildren(el: MdElement): MdElement[] {
  const out: MdElement[] = [];
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child)) out.push(child);
  }
  return out;
}

/** The first descendant whose nodeName is in `names`, in document order, or null. */
export function findDescendant(el: MdElement, names: ReadonlySet<string>): MdElement | null {
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (!isElement(child)) continue;
    if (names.has(child.nodeName)) return child;
    const found = findDescendant(child, names);
    if (found !== null) return found;
  }
  return null;
}

/** A non-negative integer attribute, clamped to [0, max]; `fallback` when missing or invalid. */
export function intAttribute(el: MdElement, name: string, fallback: number, max: number): number {
  const raw = el.getAttribute(name);
  if (raw === null) return fallback;
  const n = Number.parseInt(raw.trim(), 10);
  if (Number.isNaN(n)) return fallback;
  return Math.max(0, Math.min(n, max));
}

/** A turndown rule written against the light nodes (turndown's types say HTMLElement). */
export function mdRule(filter: (el: MdElement) => boolean, replacement: (content: string, el: MdElement) => string): TurndownService.Rule {
  return {
    filter: (node) => filter(node as unknown as MdElement),
    replacement: (content, node) => replacement(content, node as unknown as MdElement),
  };
}
