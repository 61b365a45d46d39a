/**
 * What the document states in a structured way, gathered once: its tables, its `key: value`
 * pairs (lines of text, definition lists, two-column tables) and its sections (a heading and
 * the text under it), each with the heading it sits under, for scoping nested objects.
 */
import { nameKey } from './names.ts';
import { cellText, tableGrid, type Grid } from './tables.ts';

export interface Pair {
  key: string;
  /** The key as names.ts matches it (computed once: a schema asks every pair per property). */
  name: string;
  value: string;
  /** The nearest heading above ('' before the first), and its nameKey. */
  heading: string;
  headingName: string;
}

export interface Section {
  heading: string;
  /** The heading as names.ts matches it. */
  name: string;
  /** The paragraphs' text under the heading, up to the next heading. */
  text: string;
  /** List items directly under the heading, when there are any. */
  items: string[];
}

export interface Facts {
  tables: Grid[];
  pairs: Pair[];
  sections: Section[];
  /** The first h1's text. */
  firstHeading?: string;
}

/** `Label: value` — a label of one to six words, starting with a letter ("Order No.: 17" too). */
const KEY_VALUE = /^\s*([\p{L}#][^:：!?;]{0,60}?)\s*[:：]\s+(\S.*?)\s*$/u;
const MAX_KEY_WORDS = 6;
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const LINE_TAGS = new Set(['P', 'LI', 'DIV', 'SPAN', 'BLOCKQUOTE', 'TD', 'TH']);
const SKIPPED = new Set(['PRE', 'CODE', 'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'NAV', 'FORM']);

export function pairFromLine(line: string): { key: string; value: string } | undefined {
  const m = KEY_VALUE.exec(line);
  if (!m) return undefined;
  const key = (m[1] as string).trim();
  if (key.split(/\s+/).length > MAX_KEY_WORDS || /^https?$/i.test(key)) return undefined;
  // A label ends at its line; a value that runs on into more sentences ends at its first.
  const value = ((m[2] as string).split(/(?<=[.!?])\s+(?=[\p{Lu}\d])/u)[0] as string).trim().replace(/(?<=\S\S)\.$/u, '');
  return value ? { key, value } : undefined;
}

function pair(key: string, value: string, heading: string): Pair {
  const label = key.replace(/[:：]\s*$/, '');
  return { key: label, name: nameKey(label), value, heading, headingName: nameKey(heading) };
}

function hasBlockChildren(el: Element): boolean {
  return el.querySelector('p, li, div, table, dl, ul, ol, h1, h2, h3, h4, h5, h6, blockquote, pre') !== null;
}

export function gatherFacts(body: Element): Facts {
  const facts: Facts = { tables: [], pairs: [], sections: [] };
  let heading = '';
  let section: Section | undefined;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const tag = el.tagName;
    if (SKIPPED.has(tag)) continue;
    if (HEADINGS.has(tag)) {
      heading = cellText(el).replace(/\s+/g, ' ');
      if (tag === 'H1' && facts.firstHeading === undefined) facts.firstHeading = heading;
      section = { heading, name: nameKey(heading), text: '', items: [] };
      facts.sections.push(section);
      continue;
    }
    if (tag === 'TABLE') {
      const grid = tableGrid(el, facts.sections.length);
      facts.tables.push(grid);
      if (grid.width === 2) {
        for (const [k, v] of [...grid.head, ...grid.body] as [string, string][]) {
          if (k && v && k.split(/\s+/).length <= MAX_KEY_WORDS) facts.pairs.push(pair(k, v, heading));
        }
      }
      continue;
    }
    if (tag === 'DL') {
      let key: string | undefined;
      for (const child of el.children) {
        if (child.tagName === 'DT') key = cellText(child);
        else if (child.tagName === 'DD' && key) facts.pairs.push(pair(key, cellText(child), heading));
      }
      continue;
    }
    if (el !== body && LINE_TAGS.has(tag) && !hasBlockChildren(el)) {
      const text = cellText(el);
      for (const line of text.split('\n')) {
        const found = pairFromLine(line);
        if (found) facts.pairs.push(pair(found.key, found.value, heading));
      }
      if (section && text) {
        if (tag === 'LI') section.items.push(text.replace(/\s+/g, ' '));
        else section.text += `${section.text ? '\n\n' : ''}${text.replace(/\s*\n\s*/g, ' ')}`;
      }
      continue;
    }
    const children = el.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Element);
  }
  return facts;
}
