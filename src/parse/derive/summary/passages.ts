/**
 * The running text of the intermediate document, as passages (paragraphs, long list items,
 * quotes) with the heading they sit under. Tables, code, figures, forms and page furniture (nav,
 * header, footer, aside) are not running text and are skipped: their sentences are labels,
 * figures and code, which a summary of the document's own sentences must not pick.
 */

export interface Passage {
  text: string;
  /** The text of the nearest heading above the passage ('' before the first heading). */
  heading: string;
}

/** Elements whose content is never summary material. */
const SKIPPED = new Set([
  'TABLE', 'PRE', 'CODE', 'NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM', 'FIGURE', 'FIGCAPTION',
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BUTTON', 'SELECT', 'TEXTAREA', 'SVG', 'MATH', 'IMG', 'IFRAME',
]);
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
/** Elements whose text is one passage. */
const PASSAGE_TAGS = new Set(['P', 'BLOCKQUOTE', 'DD', 'DT', 'LI']);
/** A list item shorter than this many words is a menu entry or a fragment, not a sentence. */
const MIN_LIST_ITEM_WORDS = 8;
/** Characters that end a passage; one without them may continue in the next (a PDF column break). */
const TERMINAL = /[.!?。！？…:;"'”’)\]]$/u;

function textOf(el: Element): string {
  let out = '';
  const stack: Node[] = [el];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) {
      out += node.nodeValue ?? '';
      continue;
    }
    if (node.nodeType !== 1) continue;
    const tag = (node as Element).tagName;
    if (tag === 'BR') {
      out += ' ';
      continue;
    }
    if (node !== el && SKIPPED.has(tag)) continue;
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** True when an element contains a passage element, so its own text is not one passage. */
function holdsPassages(el: Element): boolean {
  return el.querySelector('p, blockquote, dd, dt, li, h1, h2, h3, h4, h5, h6, ul, ol, table, pre') !== null;
}

/** Passages in document order, a paragraph cut by a column or page break joined back together. */
export function collectPassages(body: Element): Passage[] {
  const out: Passage[] = [];
  let heading = '';
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const tag = el.tagName;
    if (el !== body && SKIPPED.has(tag)) continue;
    if (HEADINGS.has(tag)) {
      heading = textOf(el);
      continue;
    }
    // A passage element, or any other container (div, span, section) holding text but no passages.
    if (el !== body && !holdsPassages(el) && (PASSAGE_TAGS.has(tag) || el.textContent?.trim())) {
      const text = textOf(el);
      if (text.length === 0) continue;
      if (tag === 'LI' && text.split(' ').length < MIN_LIST_ITEM_WORDS) continue;
      const last = out[out.length - 1];
      // A paragraph without a final stop followed by one starting in lower case: one paragraph.
      if (last && tag !== 'LI' && last.heading === heading && !TERMINAL.test(last.text) && /^\p{Ll}/u.test(text)) last.text = `${last.text} ${text}`;
      else out.push({ text, heading });
      continue;
    }
    const children = el.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Element);
  }
  return out;
}

/** The document's headings' text, for weighting sentences that share their words. */
export function headingTexts(body: Element): string[] {
  return [...body.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => textOf(h)).filter((t) => t.length > 0);
}
