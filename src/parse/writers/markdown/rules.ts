/**
 * Turndown rules for everything but tables and code: ATX headings, `-` bullets, ordered lists
 * keeping their numbering, blockquotes, `---` rules, links, images (the contract's placeholder
 * for an image without `src`), emphasis, strikethrough, task-list checkboxes, TeX from MathML,
 * and the elements whose content is never document text.
 *
 * Elements without a rule are transparent: their content is kept, as a block when turndown
 * counts them as blocks, inline otherwise. No rule ever emits HTML.
 */
import type TurndownService from 'turndown';
import { type MdElement, classTokens, closestAncestor, elementChildren, isElement, mdRule } from './light-dom.ts';
import { inDataCell } from './tables.ts';

/** Form controls (other than task-list checkboxes) write nothing; script, style and the like are
 * not even copied into the writer's tree (light-tree.ts). */
const DROPPED = new Set(['INPUT']);
const LI = new Set(['LI']);
const A = new Set(['A']);
const STRIKE = new Set(['S', 'DEL', 'STRIKE']);

function block(text: string): string {
  return text === '' ? '' : `\n\n${text}\n\n`;
}

/** Text as one line: newlines (and the hard-break spaces before them) become single spaces. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function collapseAttribute(value: string | null): string {
  return value ? value.replace(/\s+/g, ' ').trim() : '';
}

function isBalanced(url: string): boolean {
  let depth = 0;
  for (const ch of url) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** A URL as a markdown link destination. */
export function linkDestination(url: string): string {
  let out = url.trim().replace(/[\r\n\t]/g, '').replace(/ /g, '%20').replace(/</g, '%3C').replace(/>/g, '%3E');
  if (!isBalanced(out)) out = out.replace(/[()]/g, (c) => `\\${c}`);
  return out;
}

function titlePart(el: MdElement): string {
  const title = collapseAttribute(el.getAttribute('title'));
  return title ? ` "${title.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : '';
}

function escapeBracketText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]');
}

// ── lists ───────────────────────────────────────────────────────────────────────────────────

const itemNumbers = new WeakMap<MdElement, number>();

function startNumber(ol: MdElement): number {
  const n = Number.parseInt(ol.getAttribute('start') ?? '', 10);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, 999_999_999)) : 1;
}

/** The number an `<ol>` shows for an item: `start`, then +1 per item, `value` resets it. */
function itemNumber(ol: MdElement, li: MdElement): number {
  const known = itemNumbers.get(li);
  if (known !== undefined) return known;
  let counter = startNumber(ol);
  for (const child of elementChildren(ol)) {
    if (child.nodeName !== 'LI') continue;
    const value = Number.parseInt(child.getAttribute('value') ?? '', 10);
    if (Number.isFinite(value)) counter = Math.max(0, Math.min(value, 999_999_999));
    itemNumbers.set(child, counter);
    counter++;
  }
  return itemNumbers.get(li) ?? 1;
}

function itemPrefix(li: MdElement): string {
  const parent = li.parentNode;
  return isElement(parent) && parent.nodeName === 'OL' ? `${itemNumber(parent, li)}. ` : '- ';
}

/** Indents every non-empty line after the first (list item continuation). */
function indentContinuation(text: string, width: number): string {
  const pad = ' '.repeat(width);
  return text.replace(/\n(?=[^\n])/g, `\n${pad}`);
}

function previousElement(node: MdElement): MdElement | null {
  let cur = node.previousSibling;
  while (cur !== null && !isElement(cur)) cur = cur.previousSibling;
  return cur;
}

// ── emphasis ────────────────────────────────────────────────────────────────────────────────

function delimited(delimiter: string): (content: string) => string {
  return (content) => {
    if (content.trim() === '') return '';
    // Emphasis cannot span paragraphs: keep the content, drop the markup.
    if (/\n\s*\n/.test(content)) return content;
    const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(content);
    const [, lead = '', core = '', trail = ''] = m ?? [];
    return `${lead}${delimiter}${core}${delimiter}${trail}`;
  };
}

// ── math ────────────────────────────────────────────────────────────────────────────────────

function texOf(math: MdElement): string {
  for (const annotation of math.getElementsByTagName('annotation')) {
    if (/tex/i.test(annotation.getAttribute('encoding') ?? '')) return annotation.textContent.trim();
  }
  return collapseAttribute(math.getAttribute('alttext'));
}

const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const LISTS = new Set(['UL', 'OL']);
const EMPHASIS = new Set(['EM', 'I']);
const STRONG = new Set(['STRONG', 'B']);

export const baseRules: Record<string, TurndownService.Rule> = {
  paragraph: mdRule(
    (el) => el.nodeName === 'P',
    (content) => `\n\n${content}\n\n`,
  ),
  lineBreak: mdRule(
    (el) => el.nodeName === 'BR',
    () => '  \n',
  ),
  dropped: mdRule(
    (el) => DROPPED.has(el.nodeName) || ((el.getAttribute('class') ?? '').includes('katex-html') && classTokens(el).includes('katex-html')),
    () => '',
  ),
  checkbox: mdRule(
    (el) => el.nodeName === 'INPUT' && (el.getAttribute('type') ?? '').toLowerCase() === 'checkbox' && closestAncestor(el, LI) !== null,
    (_content, el) => (el.hasAttribute('checked') ? '[x] ' : '[ ] '),
  ),
  heading: mdRule(
    (el) => HEADINGS.has(el.nodeName),
    (content, el) => {
      const text = oneLine(content);
      if (text === '') return '';
      if (inDataCell(el) || closestAncestor(el, A) !== null) return block(text);
      const level = Number(el.nodeName.charAt(1));
      // A trailing " #" would be read as the ATX closing sequence.
      return block(`${'#'.repeat(level)} ${text.replace(/(\s)(#+)$/, '$1\\$2')}`);
    },
  ),
  blockquote: mdRule(
    (el) => el.nodeName === 'BLOCKQUOTE',
    (content, el) => {
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '');
      if (text.trim() === '') return '';
      if (inDataCell(el)) return block(text);
      return block(text.split('\n').map((line) => (line.trim() === '' ? '>' : `> ${line}`)).join('\n'));
    },
  ),
  horizontalRule: mdRule(
    (el) => el.nodeName === 'HR',
    (_content, el) => (inDataCell(el) ? '\n' : '\n\n---\n\n'),
  ),
  list: mdRule(
    (el) => LISTS.has(el.nodeName),
    (content, el) => {
      const parent = el.parentNode;
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '');
      if (parent !== null && parent.nodeName === 'LI') {
        return parent.lastElementChild === el ? `\n${content}` : `\n${content}\n\n`;
      }
      if (parent !== null && LISTS.has(parent.nodeName)) {
        // A list directly inside a list (invalid, common): nest it under the previous item.
        const prev = previousElement(el);
        const width = prev !== null && prev.nodeName === 'LI' ? itemPrefix(prev).length : 2;
        return `\n${indentContinuation(`${' '.repeat(width)}${body}`, width)}\n`;
      }
      return block(body);
    },
  ),
  listItem: mdRule(
    (el) => el.nodeName === 'LI',
    (content, el) => {
      const text = content.replace(/^\s+/, '').replace(/\n+$/, '');
      if (text.trim() === '') return '';
      const prefix = itemPrefix(el);
      // An item holding several blocks makes the list loose (blank line after the item).
      const loose = /\n\n/.test(text);
      return `${prefix}${indentContinuation(text, prefix.length)}${loose ? '\n\n' : '\n'}`;
    },
  ),
  link: mdRule(
    (el) => el.nodeName === 'A' && el.hasAttribute('href'),
    (content, el) => {
      const text = oneLine(content);
      if (text === '') return '';
      const href = (el.getAttribute('href') ?? '').trim();
      if (href === '' || href === '#' || /^javascript:/i.test(href)) return text;
      return `[${text}](${linkDestination(href)}${titlePart(el)})`;
    },
  ),
  image: mdRule(
    (el) => el.nodeName === 'IMG',
    (_content, el) => {
      const alt = escapeBracketText(collapseAttribute(el.getAttribute('alt')));
      const src = (el.getAttribute('src') ?? '').trim();
      // The contract: no src → the alt-text placeholder, or nothing when there is no alt either.
      if (src === '') return alt === '' ? '' : `![${alt}]`;
      return `![${alt}](${linkDestination(src)}${titlePart(el)})`;
    },
  ),
  emphasis: mdRule((el) => EMPHASIS.has(el.nodeName), delimited('*')),
  strong: mdRule((el) => STRONG.has(el.nodeName), delimited('**')),
  strikethrough: mdRule((el) => STRIKE.has(el.nodeName), delimited('~~')),
  math: mdRule(
    (el) => el.nodeName === 'MATH',
    (content, el) => {
      const tex = texOf(el);
      if (tex === '') return content;
      return el.getAttribute('display') === 'block' && !inDataCell(el) ? block(`$$\n${tex}\n$$`) : `$${tex}$`;
    },
  ),
};
