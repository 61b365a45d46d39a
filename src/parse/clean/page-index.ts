/**
 * One pass over the body that every cleaner then works from, so the clean step walks the DOM
 * once instead of once per concern (a linkedom traversal costs ~0.2 µs per element; reading an
 * attribute costs more). The index holds, per element in document order:
 *  - its tag, parent, and the index of its last descendant (so a subtree is a range [i, end[i]]);
 *  - the attributes the cleaners look at, read once;
 *  - the visible characters of its own text nodes, and how many of them are link text.
 * Aggregated text counts are recomputed from those in one backwards pass over typed arrays
 * whenever removals have changed them, which costs next to nothing.
 *
 * Removing an element through the index detaches it from the DOM and marks its whole range.
 * While reading attributes it also lower-cases HTML attribute names linkedom kept as written.
 */
import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE, walkNodes } from './dom.ts';

/** Attributes the cleaners use; absent ones are undefined. */
export interface ElementAttributes {
  class?: string;
  id?: string;
  role?: string;
  style?: string;
  hidden?: string;
  ariaHidden?: string;
  ariaLabel?: string;
  itemprop?: string;
  type?: string;
  src?: string;
  open?: string;
  /** `data-furniture` is present (contracts "Page furniture"). */
  furniture?: boolean;
  /** An ad-network attribute (`data-ad-slot`, `data-google-query-id`, …) is present. */
  adAttribute?: boolean;
}

const AD_ATTRIBUTES = new Set(['data-ad', 'data-ad-slot', 'data-ad-client', 'data-ad-unit', 'data-adunit', 'data-ad-format', 'data-google-query-id', 'data-dfp', 'data-ad-placement']);

const UPPER = /[A-Z]/;

/**
 * HTML attribute names are case-insensitive, but linkedom keeps them as written (`srcSet`,
 * `HREF`): outside SVG and MathML, where case matters, they are lower-cased here.
 */
function lowerCaseAttributeName(element: Element, name: string): string {
  const lower = name.toLowerCase();
  const value = element.getAttributeNode(name)?.value ?? '';
  element.removeAttribute(name);
  if (!element.hasAttribute(lower)) element.setAttribute(lower, value);
  return lower;
}

function readAttributes(element: Element, foreign: boolean): ElementAttributes | undefined {
  if (!element.hasAttributes()) return undefined;
  let out: ElementAttributes | undefined;
  for (const written of element.getAttributeNames()) {
    const name = !foreign && UPPER.test(written) ? lowerCaseAttributeName(element, written) : written;
    let key: keyof ElementAttributes | undefined;
    switch (name) {
      case 'class':
      case 'id':
      case 'role':
      case 'style':
      case 'hidden':
      case 'itemprop':
      case 'type':
      case 'src':
      case 'open':
        key = name;
        break;
      case 'aria-hidden':
        key = 'ariaHidden';
        break;
      case 'aria-label':
        key = 'ariaLabel';
        break;
      case 'data-furniture':
        (out ??= {}).furniture = true;
        continue;
      default:
        if (AD_ATTRIBUTES.has(name)) (out ??= {}).adAttribute = true;
        continue;
    }
    const value = element.getAttributeNode(name)?.value;
    if (value !== undefined) (out ??= {})[key] = value;
  }
  return out;
}

const NO_TOKENS: string[] = [];

export function countVisible(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

export interface IndexOptions {
  /** Elements to leave out of the index (with their subtrees); they are returned for removal. */
  exclude?: (element: Element) => boolean;
}

export class PageIndex {
  /** Index 0 is the root (the body). */
  readonly elements: Element[] = [];
  readonly tags: string[] = [];
  readonly attrs: (ElementAttributes | undefined)[] = [];
  parent: Int32Array = new Int32Array(0);
  end: Int32Array = new Int32Array(0);
  private ownText: Int32Array = new Int32Array(0);
  private ownLink: Int32Array = new Int32Array(0);
  private textAgg: Int32Array = new Int32Array(0);
  private linkAgg: Int32Array = new Int32Array(0);
  private removedMask: Uint8Array = new Uint8Array(0);
  private tokenCache: (string[] | undefined)[] = [];
  private positions: Map<Element, number> | undefined;
  /** Elements left out by `exclude`, and comment nodes: the caller decides what to do with them. */
  readonly excluded: Element[] = [];
  readonly comments: Node[] = [];

  constructor(root: Element, options: IndexOptions = {}) {
    this.build(root, options);
    this.aggregate();
  }

  get size(): number {
    return this.elements.length;
  }

  get root(): Element {
    return this.elements[0] as Element;
  }

  private build(root: Element, options: IndexOptions): void {
    const parents: number[] = [-1];
    const ends: number[] = [0];
    const own: number[] = [0];
    const ownLink: number[] = [0];
    this.elements.push(root);
    this.tags.push(root.localName);
    this.attrs.push(readAttributes(root, false));
    const stack: number[] = [0];
    let linkDepth = 0;
    let foreignDepth = 0;
    walkNodes(
      root,
      (node) => {
        const type = node.nodeType;
        if (type === TEXT_NODE) {
          const n = countVisible((node as Text).data);
          if (n > 0) {
            const top = stack[stack.length - 1] as number;
            own[top] = (own[top] as number) + n;
            if (linkDepth > 0) ownLink[top] = (ownLink[top] as number) + n;
          }
          return;
        }
        if (type === COMMENT_NODE) {
          this.comments.push(node);
          return;
        }
        if (type !== ELEMENT_NODE) return;
        const element = node as Element;
        if (options.exclude?.(element)) {
          this.excluded.push(element);
          return false;
        }
        const index = this.elements.length;
        this.elements.push(element);
        const tag = element.localName;
        this.tags.push(tag);
        if (tag === 'svg' || tag === 'math') foreignDepth++;
        this.attrs.push(readAttributes(element, foreignDepth > 0));
        parents.push(stack[stack.length - 1] as number);
        ends.push(index);
        own.push(0);
        ownLink.push(0);
        stack.push(index);
        if (tag === 'a') linkDepth++;
      },
      (element) => {
        const top = stack[stack.length - 1] as number;
        if (this.elements[top] !== element) return;
        stack.pop();
        ends[top] = this.elements.length - 1;
        const tag = this.tags[top];
        if (tag === 'a') linkDepth--;
        else if (tag === 'svg' || tag === 'math') foreignDepth--;
      },
    );
    ends[0] = this.elements.length - 1;
    this.parent = Int32Array.from(parents);
    this.end = Int32Array.from(ends);
    this.ownText = Int32Array.from(own);
    this.ownLink = Int32Array.from(ownLink);
    this.removedMask = new Uint8Array(this.elements.length);
  }

  /** Recomputes the aggregated text counts of every element still in place. */
  aggregate(): void {
    const n = this.elements.length;
    this.textAgg = Int32Array.from(this.ownText);
    this.linkAgg = Int32Array.from(this.ownLink);
    const text = this.textAgg;
    const link = this.linkAgg;
    const parent = this.parent;
    const removed = this.removedMask;
    for (let i = n - 1; i > 0; i--) {
      if (removed[i]) {
        text[i] = 0;
        link[i] = 0;
        continue;
      }
      const p = parent[i] as number;
      text[p] = (text[p] as number) + (text[i] as number);
      link[p] = (link[p] as number) + (link[i] as number);
    }
  }

  isRemoved(i: number): boolean {
    return this.removedMask[i] === 1;
  }

  /** Detaches element `i` from the DOM and marks its subtree removed. */
  remove(i: number): void {
    if (this.removedMask[i] || i === 0) return;
    (this.elements[i] as Element).remove();
    this.removedMask.fill(1, i, (this.end[i] as number) + 1);
  }

  /** Marks element `i`'s subtree removed without touching the DOM (the caller detached it). */
  markRemoved(i: number): void {
    this.removedMask.fill(1, i, (this.end[i] as number) + 1);
  }

  /** Whether `i` is `ancestor` or inside it. */
  contains(ancestor: number, i: number): boolean {
    return i >= ancestor && i <= (this.end[ancestor] as number);
  }

  /** The position of an element, or -1 when it is not indexed. */
  indexOf(element: Element): number {
    if (!this.positions) {
      this.positions = new Map();
      this.elements.forEach((e, i) => this.positions?.set(e, i));
    }
    return this.positions.get(element) ?? -1;
  }

  /**
   * Keeps only the given elements (and their subtrees): everything else is marked removed and
   * the kept ones become children of the root, in the order given. The caller puts them into
   * the DOM (`body.replaceChildren(…)`).
   */
  keepOnly(kept: readonly number[]): void {
    const n = this.elements.length;
    const mask = this.removedMask;
    const sorted = [...kept].sort((a, b) => a - b);
    let k = 0;
    for (let i = 1; i < n; ) {
      const next = sorted[k];
      if (next !== undefined && i === next) {
        this.parent[i] = 0;
        i = (this.end[i] as number) + 1;
        while (k < sorted.length && (sorted[k] as number) < i) k++;
        continue;
      }
      mask[i] = 1;
      i++;
    }
  }

  /**
   * Pre-order visit of the elements still in place below the root. `visit` returns false to
   * skip an element's subtree. Removed elements are stepped over one by one (after `keepOnly`
   * a removed ancestor may hold kept elements).
   */
  forEach(visit: (i: number) => boolean | void): void {
    const n = this.elements.length;
    const removed = this.removedMask;
    const end = this.end;
    let i = 1;
    while (i < n) {
      if (removed[i]) i++;
      else if (visit(i) === false) i = (end[i] as number) + 1;
      else i++;
    }
  }

  /** The element children of `i` still in place, in order. */
  children(i: number): number[] {
    const out: number[] = [];
    const last = this.end[i] as number;
    for (let j = i + 1; j <= last; ) {
      if (this.removedMask[j]) {
        j++;
        continue;
      }
      if (this.parent[j] === i) out.push(j);
      j = (this.end[j] as number) + 1;
    }
    return out;
  }

  text(i: number): number {
    return this.textAgg[i] as number;
  }

  /** Non-link text: the measure of "content" used throughout. */
  mass(i: number): number {
    return (this.textAgg[i] as number) - (this.linkAgg[i] as number);
  }

  linkDensity(i: number): number {
    const t = this.textAgg[i] as number;
    return t === 0 ? 0 : (this.linkAgg[i] as number) / t;
  }

  /** The element's share of the root's non-link text (0 when the root has none). */
  share(i: number): number {
    const total = this.mass(0);
    return total === 0 ? 0 : this.mass(i) / total;
  }

  /** Lower-cased class tokens and id. */
  tokens(i: number): string[] {
    const a = this.attrs[i];
    if (!a || (a.class === undefined && a.id === undefined)) return NO_TOKENS;
    let cached = this.tokenCache[i];
    if (cached) return cached;
    cached = [];
    if (a.class) for (const t of a.class.toLowerCase().split(/\s+/)) if (t) cached.push(t);
    if (a.id) cached.push(a.id.toLowerCase());
    this.tokenCache[i] = cached;
    return cached;
  }

  element(i: number): Element {
    return this.elements[i] as Element;
  }
}
