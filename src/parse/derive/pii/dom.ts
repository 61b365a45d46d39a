/**
 * Segments of the intermediate document: its text nodes (inline runs joined, blocks apart) and
 * the attributes that carry text or addresses (`alt`, `title`, `href`, `src`). Redacting only
 * these leaves every element in place, so tables keep their cells and links their syntax.
 */
import type { Segment } from './replace.ts';

const INLINE = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'FONT', 'I', 'KBD', 'LABEL', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'U', 'VAR', 'DEL', 'INS']);
const TEXT_ATTRIBUTES = ['alt', 'title', 'aria-label'];
const URL_ATTRIBUTES = ['href', 'src'];

export function documentSegments(root: Element): Segment[] {
  const segments: Segment[] = [];
  let pending = '\n';
  const visit = (node: Node): void => {
    if (node.nodeType === 3) {
      const text = node as Text;
      if (text.data === '') return;
      segments.push({ text: text.data, before: pending, write: (t) => { text.data = t; } });
      pending = '';
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (el.nodeName === 'SCRIPT' || el.nodeName === 'STYLE' || el.nodeName === 'TEMPLATE') return;
    const block = !INLINE.has(el.nodeName);
    if (block || el.nodeName === 'BR') pending = '\n';
    const before = segments.length;
    for (const name of TEXT_ATTRIBUTES) attributeSegment(el, name, false, segments);
    for (const name of URL_ATTRIBUTES) attributeSegment(el, name, true, segments);
    if (segments.length > before) pending = '\n'; // an attribute's text never runs into the element's
    for (let child = el.firstChild; child !== null; child = child.nextSibling) visit(child);
    if (block) pending = '\n';
  };
  visit(root);
  return segments;
}

function attributeSegment(el: Element, name: string, url: boolean, segments: Segment[]): void {
  const value = el.getAttribute(name);
  if (value === null || value === '') return;
  if (url && /^data:/i.test(value)) return;
  // A URL is looked at decoded (mailto:jane%40example.com); what is written back stays a URL.
  let text = value;
  if (url) {
    try {
      text = decodeURIComponent(value);
    } catch {
      text = value;
    }
  }
  segments.push({ text, url, before: '\n', write: (t) => el.setAttribute(name, url && text !== value ? encodeURI(t) : t) });
}
