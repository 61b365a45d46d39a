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
import { classTokens, closestAncestor, elementChildren, isElement } from './dom.ts';
import { inDataCell } from './tables.ts';

/** Elements whose content is not document text. */
const DROPPED = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK', 'SVG', 'IFRAME',
  'OBJECT', 'EMBED', 'CANVAS', 'SELECT', 'TEXTAREA', 'INPUT', 'AUDIO', 'VIDEO', 'AREA', 'MAP',
]);
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

function titlePart(el: Element): string {
  const title = collapseAttribute(el.getAttribute('title'));
  return title ? ` "${title.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : '';
}

function escapeBracketText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]');
}

// ── lists ───────────────────────────────────────────────────────────────────────────────────

const itemNumbers = new WeakMap<Element, number>();

function startNumber(ol: Element): number {
  const n = Number.parseInt(ol.getAttribute('start') ?? '', 10);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, 999_999_999)) : 1;
}

/** The number an `<ol>` shows for an item: `start`, then +1 per item, `value` resets it. */
function itemNumber(ol: Element, li: Element): number {
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

function itemPrefix(li: Element): string {
  const parent = li.parentNode;
  return isElement(parent) && parent.nodeName === 'OL' ? `${itemNumber(parent, li)}. ` : '- ';
}

/** Indents every non-empty line after the first (list item continuation). */
function indentContinuation(text: string, width: number): string {
  const pad = ' '.repeat(width);
  return text.replace(/\n(?=[^\n])/g, `\n${pad}`);
}

function previousElement(node: Element): Element | null {
  let cur = node.previousSibling;
  while (cur !== null && !isElement(cur)) cur = cur.previousSibling;
  return cur;
}

// ── emphasis ────────────────────────────────────────────────────────────────────────────────

function delimited(delimiter: string): TurndownService.ReplacementFunction {
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

function texOf(math: Element): string {
  for (const annotation of Array.from(math.getElementsByTagName('annotation'))) {
    if (/tex/i.test(annotation.getAttribute('encoding') ?? '')) return (annotation.textContent ?? '').trim();
  }
  return collapseAttribute(math.getAttribute('alttext'));
}

export const baseRules: Record<string, TurndownService.Rule> = {
  dropped: {
    filter: (node) => DROPPED.has(node.nodeName.toUpperCase()) || classTokens(node).includes('katex-html'),
    replacement: () => '',
  },
  checkbox: {
    filter: (node) => node.nodeName === 'INPUT' && (node.getAttribute('type') ?? '').toLowerCase() === 'checkbox' && closestAncestor(node, LI) !== null,
    replacement: (_content, node) => (node.hasAttribute('checked') ? '[x] ' : '[ ] '),
  },
  heading: {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = oneLine(content);
      if (text === '') return '';
      if (inDataCell(node) || closestAncestor(node, A) !== null) return block(text);
      const level = Number(node.nodeName.charAt(1));
      // A trailing " #" would be read as the ATX closing sequence.
      return block(`${'#'.repeat(level)} ${text.replace(/(\s)(#+)$/, '$1\\$2')}`);
    },
  },
  blockquote: {
    filter: 'blockquote',
    replacement: (content, node) => {
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '');
      if (text.trim() === '') return '';
      if (inDataCell(node)) return block(text);
      return block(text.split('\n').map((line) => (line.trim() === '' ? '>' : `> ${line}`)).join('\n'));
    },
  },
  horizontalRule: {
    filter: 'hr',
    replacement: (_content, node) => (inDataCell(node) ? '\n' : '\n\n---\n\n'),
  },
  list: {
    filter: ['ul', 'ol'],
    replacement: (content, node) => {
      const parent = node.parentNode;
      if (isElement(parent) && parent.nodeName === 'LI') {
        return parent.lastElementChild === node ? `\n${content}` : `\n${content}\n\n`;
      }
      if (isElement(parent) && (parent.nodeName === 'UL' || parent.nodeName === 'OL')) {
        // A list directly inside a list (invalid, common): nest it under the previous item.
        const prev = previousElement(node);
        const width = prev !== null && prev.nodeName === 'LI' ? itemPrefix(prev).length : 2;
        return `\n${indentContinuation(`${' '.repeat(width)}${content.replace(/^\n+/, '').replace(/\n+$/, '')}`, width)}\n`;
      }
      return block(content.replace(/^\n+/, '').replace(/\n+$/, ''));
    },
  },
  listItem: {
    filter: 'li',
    replacement: (content, node) => {
      const text = content.replace(/^\s+/, '').replace(/\n+$/, '');
      if (text.trim() === '') return '';
      const prefix = itemPrefix(node);
      // An item holding several blocks makes the list loose (blank line after the item).
      const loose = /\n\n/.test(text);
      return `${prefix}${indentContinuation(text, prefix.length)}${loose ? '\n\n' : '\n'}`;
    },
  },
  link: {
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('href'),
    replacement: (content, node) => {
      const text = oneLine(content);
      if (text === '') return '';
      const href = (node.getAttribute('href') ?? '').trim();
      if (href === '' || href === '#' || /^javascript:/i.test(href)) return text;
      return `[${text}](${linkDestination(href)}${titlePart(node)})`;
    },
  },
  image: {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = escapeBracketText(collapseAttribute(node.getAttribute('alt')));
      const src = (node.getAttribute('src') ?? '').trim();
      // The contract: no src → the alt-text placeholder, or nothing when there is no alt either.
      if (src === '') return alt === '' ? '' : `![${alt}]`;
      return `![${alt}](${linkDestination(src)}${titlePart(node)})`;
    },
  },
  emphasis: { filter: ['em', 'i'], replacement: delimited('*') },
  strong: { filter: ['strong', 'b'], replacement: delimited('**') },
  strikethrough: { filter: (node) => STRIKE.has(node.nodeName), replacement: delimited('~~') },
  math: {
    filter: (node) => node.nodeName.toUpperCase() === 'MATH',
    replacement: (content, node) => {
      const tex = texOf(node);
      if (tex === '') return content;
      return node.getAttribute('display') === 'block' && !inDataCell(node) ? block(`$$\n${tex}\n$$`) : `$${tex}$`;
    },
  },
};
