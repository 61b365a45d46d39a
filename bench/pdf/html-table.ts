/**
 * HTML tables → the trees opendataloader-bench's `evaluator_table.py` feeds to APTED.
 *
 * The evaluator (a PubTabNet TEDS derivative) does, per document:
 *   1. every `<table>` element of the markdown (pipe tables already converted), nested ones too,
 *      in document order (BeautifulSoup `find_all('table')`);
 *   2. joined into ONE tree: the tables become children of a wrapping `<table>` node (it wraps
 *      `<html><body>\n<table>…</table>\n…</body></html>` in `<table>…</table>`, and lxml drops the
 *      misplaced html/body tags), so a page with two tables is scored as one forest;
 *   3. the exact strings `<thead>`, `</thead>`, `<tbody>`, `</tbody>` deleted (sections with
 *      attributes stay as nodes), every `th` renamed `td`, comments dropped;
 *   4. tree: one node per element, a `td` is a leaf carrying colspan, rowspan (default 1) and its
 *      content: its inner markup serialised as `text<tag>text</tag>tail…` (attributes dropped,
 *      void elements get an end tag too, as the evaluator's tokenizer writes them);
 *   5. node count for the score = elements below the wrapping root (inline elements inside cells
 *      count, the root does not): `TEDS = 1 - distance / max(count_ref, count_pred)`.
 *
 * The parser is a small libxml2-like HTML tree builder for this subset: implied end tags for
 * td/th/tr/thead/tbody/tfoot, void elements, unmatched end tags ignored.
 */

import type { TreeNode } from './tree-edit-distance.ts';

interface Element {
  tag: string;
  attrs: Map<string, string>;
  children: (Element | string)[];
}

export interface TableNode extends TreeNode {
  tag: string;
  colspan: number | null;
  rowspan: number | null;
  /** For `td`: the cell's serialised inner markup, before the evaluator's `_normalize`. */
  content: string | null;
  children: TableNode[];
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const IGNORED = new Set(['html', 'body', 'head']);

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', middot: '·',
  times: '×', divide: '÷', deg: '°', plusmn: '±', micro: 'µ', para: '¶', sect: '§', bull: '•',
  euro: '€', pound: '£', yen: '¥', cent: '¢', laquo: '«', raquo: '»', shy: '\u00ad', le: '≤', ge: '≥',
  ne: '≠', minus: '−', rarr: '→', larr: '←', uarr: '↑', darr: '↓', check: '✓', alpha: 'α', beta: 'β',
  gamma: 'γ', delta: 'δ', mu: 'μ', pi: 'π', sigma: 'σ', Omega: 'Ω', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003',
};

/** Python `html.unescape` for numeric references and the common named ones. */
export function unescapeHtml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 0) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED[ref] ?? whole;
  });
}

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^>]*>?|<\?[^>]*>?|<\/([A-Za-z][^\s/>]*)[^>]*>?|<([A-Za-z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</;

const ATTR = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function parseAttrs(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of source.matchAll(ATTR)) {
    const name = (m[1] as string).toLowerCase();
    if (!attrs.has(name)) attrs.set(name, unescapeHtml(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

/** Parse an HTML fragment into a synthetic root element. */
function parseFragment(html: string): Element {
  const root: Element = { tag: '#root', attrs: new Map(), children: [] };
  const stack: Element[] = [root];
  const top = (): Element => stack[stack.length - 1] as Element;
  /** Pop through the nearest open element named in `targets`, unless a `barrier` comes first. */
  const closeThrough = (targets: Set<string>, barriers: Set<string>): void => {
    for (let k = stack.length - 1; k > 0; k--) {
      const tag = (stack[k] as Element).tag;
      if (targets.has(tag)) {
        stack.length = k;
        return;
      }
      if (barriers.has(tag)) return;
    }
  };
  const cells = new Set(['td', 'th']);
  const rowBarrier = new Set(['tr', 'table', 'thead', 'tbody', 'tfoot']);
  const rows = new Set(['tr']);
  const sections = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);
  const tableBarrier = new Set(['table']);
  const re = new RegExp(TOKEN.source, 'y');
  let pos = 0;
  while (pos < html.length) {
    re.lastIndex = pos;
    const m = re.exec(html);
    if (!m) {
      top().children.push(unescapeHtml(html.slice(pos, pos + 1)));
      pos++;
      continue;
    }
    pos += m[0].length;
    const token = m[0];
    if (token.startsWith('<!') || token.startsWith('<?')) continue;
    if (m[1] !== undefined) {
      const tag = m[1].toLowerCase();
      if (IGNORED.has(tag)) continue;
      for (let k = stack.length - 1; k > 0; k--) {
        if ((stack[k] as Element).tag === tag) {
          stack.length = k;
          break;
        }
      }
      continue;
    }
    if (m[2] !== undefined) {
      const tag = m[2].toLowerCase();
      if (IGNORED.has(tag)) continue;
      if (tag === 'td' || tag === 'th') closeThrough(cells, rowBarrier);
      else if (tag === 'tr') closeThrough(rows, tableBarrier);
      else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
        for (let k = stack.length - 1; k > 0; k--) {
          const open = (stack[k] as Element).tag;
          if (open === 'table') break;
          if (sections.has(open)) {
            stack.length = k;
          }
        }
      }
      const attrSource = m[3] ?? '';
      const element: Element = { tag, attrs: parseAttrs(attrSource), children: [] };
      top().children.push(element);
      if (!VOID.has(tag) && !/\/\s*$/.test(attrSource)) stack.push(element);
      continue;
    }
    top().children.push(unescapeHtml(token));
  }
  return root;
}

/** The tables of a (converted) markdown text, nested ones included, in document order. */
export function extractTables(text: string): string[] {
  const tables: string[] = [];
  const tag = /<(\/?)table\b[^>]*>/gi;
  const starts: number[] = [];
  const found: { start: number; end: number }[] = [];
  for (const m of text.matchAll(tag)) {
    const at = m.index ?? 0;
    if (m[1] === '') starts.push(at);
    else {
      const start = starts.pop();
      if (start !== undefined) found.push({ start, end: at + m[0].length });
    }
  }
  // Unclosed tables run to the end (BeautifulSoup closes them there).
  for (const start of starts) found.push({ start, end: text.length });
  found.sort((a, b) => a.start - b.start);
  for (const f of found) tables.push(text.slice(f.start, f.end));
  return tables;
}

function serialiseInner(element: Element): string {
  let out = '';
  for (const child of element.children) {
    if (typeof child === 'string') out += child;
    else out += `<${child.tag}>${serialiseInner(child)}</${child.tag}>`;
  }
  return out;
}

function spanOf(element: Element, name: string): number {
  const raw = element.attrs.get(name);
  if (raw === undefined) return 1;
  const n = Number.parseInt(raw.trim(), 10);
  return Number.isFinite(n) ? n : 1;
}

function toTableNode(element: Element): TableNode {
  const tag = element.tag === 'th' ? 'td' : element.tag;
  if (tag === 'td') {
    return { tag, colspan: spanOf(element, 'colspan'), rowspan: spanOf(element, 'rowspan'), content: serialiseInner(element), children: [] };
  }
  const children: TableNode[] = [];
  for (const child of element.children) if (typeof child !== 'string') children.push(toTableNode(child));
  return { tag, colspan: null, rowspan: null, content: null, children };
}

function countElements(element: Element): number {
  let n = 0;
  for (const child of element.children) if (typeof child !== 'string') n += 1 + countElements(child);
  return n;
}

export interface TableForest {
  tree: TableNode;
  /** Elements below the wrapping root, the evaluator's `len(table.xpath('.//*'))`. */
  nodeCount: number;
}

/** All tables of a page as one tree under a wrapping `table` root (see the file comment). */
export function tableForest(tables: string[]): TableForest {
  let html = `<table><html><body>\n${tables.join('\n')}\n</body></html></table>`;
  for (const tok of ['<thead>', '</thead>', '<tbody>', '</tbody>']) html = html.replaceAll(tok, '');
  const root = parseFragment(html);
  const wrapper = root.children.find((c): c is Element => typeof c !== 'string' && c.tag === 'table') as Element;
  return { tree: toTableNode(wrapper), nodeCount: countElements(wrapper) };
}
