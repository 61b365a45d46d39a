/**
 * Node count and nesting depth of an HTML page, measured on its markup before it is parsed: a
 * page of millions of elements or 100,000 nested ones is refused in milliseconds instead of
 * building a tree that takes seconds and gigabytes (linkedom needs 9 s for a depth of 100,000).
 *
 * Elements are counted by their start tags (each makes at most one element). Depth is estimated
 * the way the tree builder nests (HTML §13.2): void elements never open a level, and elements
 * whose end tag may be left out (p, li, td, …) are not counted as levels, so pages that omit
 * `</p>` or `</li>` are not mistaken for deep ones. Raw-text elements (script, style, …) and
 * comments are skipped whole.
 */
import { ServiceError } from '../../../errors.ts';
import type { SourceLimits } from '../../limits.ts';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen', 'frame', 'basefont', 'bgsound', 'image']);
const OPTIONAL_END = new Set(['html', 'head', 'body', 'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption', 'rb', 'rt', 'rp', 'rtc']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** `subject` is what could not be read: "The HTML page", or a page imported into another document. */
export function checkHtmlBounds(html: string, limits: Pick<SourceLimits, 'maxHtmlNodes' | 'maxHtmlDepth'>, subject = 'The HTML page could not be read: it'): void {
  const tooComplex = (what: string): ServiceError =>
    new ServiceError('CORRUPT_FILE', `${subject} ${what}. Real pages stay far below that; if yours is one, raise the limit on the server.`);
  const tag = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)(?:[^<>"']|"[^"]*"|'[^']*')*?(\/?)>/g;
  let nodes = 0;
  const open: string[] = [];
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    const name = m[2]?.toLowerCase();
    if (name === undefined) continue; // a comment
    if (m[1] === '/') {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
      continue;
    }
    nodes++;
    if (nodes > limits.maxHtmlNodes) throw tooComplex(`has more than ${limits.maxHtmlNodes} elements (the limit FOLIO_MAX_HTML_NODES)`);
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}`, 'gi');
      close.lastIndex = tag.lastIndex;
      const end = close.exec(html);
      tag.lastIndex = end === null ? html.length : end.index;
      continue;
    }
    if (m[3] === '/' || VOID.has(name) || OPTIONAL_END.has(name)) continue;
    open.push(name);
    if (open.length > limits.maxHtmlDepth) throw tooComplex(`nests its elements more than ${limits.maxHtmlDepth} deep (the limit FOLIO_MAX_HTML_DEPTH)`);
  }
}
