/**
 * Text statistics per element, computed bottom-up in one pass: how many visible characters an
 * element holds, and how many of those are link text. "Characters" are non-white-space
 * characters, so the measure works the same for languages written without spaces.
 */
import { TEXT_NODE, walkNodes } from './dom.ts';

export interface TextStats {
  /** Non-white-space characters of all text below the element. */
  text: number;
  /** The part of `text` inside `<a>` elements. */
  link: number;
}

export class ContentStats {
  private readonly stats = new Map<Element, TextStats>();
  readonly root: Element;

  constructor(root: Element) {
    this.root = root;
    this.compute();
  }

  private compute(): void {
    // Running totals: each element records the totals when it is entered, and its own totals
    // are the difference when it is left, so no per-element arrays are needed.
    let text = 0;
    let link = 0;
    let linkDepth = 0;
    const startText = new Map<Element, number>();
    const startLink = new Map<Element, number>();
    walkNodes(
      this.root,
      (node) => {
        if (node.nodeType === TEXT_NODE) {
          const n = countVisible((node as Text).data);
          text += n;
          if (linkDepth > 0) link += n;
          return;
        }
        if (node.nodeType !== 1) return;
        const element = node as Element;
        startText.set(element, text);
        startLink.set(element, link);
        if (element.localName === 'a') linkDepth++;
      },
      (element) => {
        if (element.localName === 'a') linkDepth--;
        this.stats.set(element, {
          text: text - (startText.get(element) ?? text),
          link: link - (startLink.get(element) ?? link),
        });
      },
    );
    this.stats.set(this.root, { text, link });
  }

  get(element: Element): TextStats {
    return this.stats.get(element) ?? { text: 0, link: 0 };
  }

  /** Text that is not link text: the measure of "content" used throughout. */
  mass(element: Element): number {
    const s = this.get(element);
    return s.text - s.link;
  }

  linkDensity(element: Element): number {
    const s = this.get(element);
    return s.text === 0 ? 0 : s.link / s.text;
  }

  /** The element's share of the root's non-link text (0 when the root has none). */
  share(element: Element): number {
    const total = this.mass(this.root);
    return total === 0 ? 0 : this.mass(element) / total;
  }
}

export function countVisible(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}
