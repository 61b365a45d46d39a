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
  'TABLE', 'PRE', 'CODE', 'FORM', 'FIGURE', 'FIGCAPTION',
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BUTTON', 'SELECT', 'TEXTAREA', 'SVG', 'MATH', 'IMG', 'IFRAME',
]);
/**
 * Page furniture, skipped unless it wraps the content: the cleaner (onlyMainContent) keeps a
 * <header> that holds the article, as some blog templates have it.
 */
const FURNITURE = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE']);
const MIN_CONTENT_PARAGRAPHS = 2;

function isFurniture(el: Element): boolean {
  return FURNITURE.has(el.tagName) && el.querySelectorAll('p').length < MIN_CONTENT_PARAGRAPHS;
}

const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
/** Elements whose text is one passage. */
const PASSAGE_TAGS = new Set(['P', 'BLOCKQUOTE', 'DD', 'DT', 'LI']);
/** A list item shorter than this many words is a menu entry or a fragment, not a sentence. */
const MIN_LIST_ITEM_WORDS = 8;
/** Characters that end a passage; one without them may continue in the next (a PDF column break). */
const TERMINAL = /[.!?。！？…:;"'”’)\]]$/u;

/** A passage mostly made of link text is a "read also" line or a menu, not running text. */
const MAX_LINK_SHARE = 0.5;
/** Text a footnote marker consists of: `1`, `*`, `†`, `[12]`, `a`. */
const FOOTNOTE_MARK = /^\s*\[?(?:\d{1,3}|[*†‡§¶#]+|\p{Ll})\]?\s*$/u;

/**
 * A footnote marker after a word or at the start of a passage ("Paris<sup>3</sup>"), not an
 * exponent after a number ("10<sup>3</sup>"): its number would be read into the sentence.
 */
function isFootnoteMark(sup: Element, before: string): boolean {
  return FOOTNOTE_MARK.test(sup.textContent ?? '') && !/\d\s*$/.test(before);
}

interface PassageText {
  text: string;
  linkChars: number;
}

/** Of one passage, at most (a 10 MB spreadsheet cell is not one paragraph to read whole). */
const MAX_PASSAGE_CHARS = 20_000;

function textOf(el: Element, limit = MAX_PASSAGE_CHARS): PassageText {
  let out = '';
  let linkChars = 0;
  const stack: [Node, boolean][] = [[el, el.closest('a') !== null]];
  while (stack.length > 0 && out.length < limit) {
    const [node, inLink] = stack.pop() as [Node, boolean];
    if (node.nodeType === 3) {
      const value = node.nodeValue ?? '';
      out += value;
      if (inLink) linkChars += value.trim().length;
      continue;
    }
    if (node.nodeType !== 1) continue;
    const tag = (node as Element).tagName;
    if (tag === 'BR') {
      out += ' ';
      continue;
    }
    if (node !== el && (SKIPPED.has(tag) || isFurniture(node as Element))) continue;
    if (tag === 'SUP' && isFootnoteMark(node as Element, out)) continue;
    const childInLink = inLink || tag === 'A';
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as Node, childInLink]);
  }
  return { text: out.slice(0, limit).replace(/\s+/g, ' ').trim(), linkChars };
}

/**
 * A table used for page layout (old sites, some converters) holds the running text in its cells:
 * it nests tables or blocks, or has a cell of a paragraph's length. A data table does neither.
 */
function isLayoutTable(table: Element): boolean {
  if (table.querySelector('table, p, h1, h2, h3, h4, h5, h6, blockquote, ul, ol') !== null) return true;
  return [...table.querySelectorAll('td, th')].some((c) => (c.textContent?.length ?? 0) > 200);
}

/** True when an element contains a passage element, so its own text is not one passage. */
function holdsPassages(el: Element): boolean {
  return el.querySelector('p, blockquote, dd, dt, li, h1, h2, h3, h4, h5, h6, ul, ol, table, pre') !== null;
}

/**
 * Passages in document order, a paragraph cut by a column or page break joined back together;
 * collection stops once `maxChars` characters of text were collected.
 */
export function collectPassages(body: Element, maxChars = Infinity): Passage[] {
  const out: Passage[] = [];
  let heading = '';
  let collected = 0;
  const stack: Element[] = [body];
  while (stack.length > 0 && collected < maxChars) {
    const el = stack.pop() as Element;
    const tag = el.tagName;
    if (el !== body && ((SKIPPED.has(tag) && !(tag === 'TABLE' && isLayoutTable(el))) || isFurniture(el))) continue;
    if (HEADINGS.has(tag)) {
      heading = textOf(el).text;
      continue;
    }
    // A passage element, or any other container (div, span, section) holding text but no passages.
    if (el !== body && !holdsPassages(el) && (PASSAGE_TAGS.has(tag) || el.textContent?.trim())) {
      const { text, linkChars } = textOf(el);
      collected += text.length;
      if (text.length === 0 || linkChars > text.replace(/\s/g, '').length * MAX_LINK_SHARE) continue;
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
  return [...body.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => textOf(h).text).filter((t) => t.length > 0);
}
