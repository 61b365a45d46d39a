/**
 * Code: `<pre>` → fenced block with the language, `<code>` elsewhere → inline code span.
 *
 * The code text is read from the DOM, not from turndown's converted content: `<br>` and
 * line-per-element markup (CodeMirror, expressive-code, highlight.js line tables) become line
 * breaks, and line-number gutters, copy buttons and other UI inside `<pre>` are left out.
 */
import type TurndownService from 'turndown';
import { type MdElement, TEXT_NODE, classTokens, closestAncestor, findDescendant, mdRule } from './light-dom.ts';
import { inDataCell } from './tables.ts';

const PRE = new Set(['PRE']);
const CODE = new Set(['CODE']);
const PRESERVES_WHITESPACE = /white-space\s*:\s*(?:pre|break-spaces)/i;
const LANG_CLASS = /^(?:language|lang)-([\w#+.-]+)$/i;
const ANCESTOR_LANG_CLASS = /^language-([\w#+.-]+)$/i;
const SIMPLE_TOKEN = /^[a-z][\w#+-]{0,19}$/i;
const NO_LANGUAGE = new Set(['text', 'plain', 'plaintext', 'txt', 'none', 'nohighlight', 'no-highlight', 'auto']);
/** Where the search for a language on a code block's wrappers stops. */
const LANGUAGE_SEARCH_STOP = new Set(['ARTICLE', 'MAIN', 'BODY', 'SECTION', 'LI', 'BLOCKQUOTE']);
const GUTTER_CLASS = /^(?:gutter|lineno|linenos|linenodiv|line-?numbers?|rouge-gutter|hljs-ln-numbers|lnt|ln|line-number)$/i;
/** Elements inside `<pre>` that are never code: UI chrome. */
const NOT_CODE = new Set(['BUTTON', 'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'INPUT', 'SELECT', 'TEXTAREA', 'IMG']);
/** Elements that hold one line (or a group of lines) of code each. */
const LINE_BLOCKS = new Set([
  'DIV', 'P', 'LI', 'UL', 'OL', 'TR', 'TABLE', 'TBODY', 'THEAD', 'SECTION', 'ARTICLE', 'HEADER',
  'FOOTER', 'BLOCKQUOTE', 'PRE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DD', 'DT', 'FIGURE',
]);

/** A line-number gutter: by class, or a hidden / unselectable element holding only numbers. */
function isGutter(el: MdElement): boolean {
  if (classTokens(el).some((t) => GUTTER_CLASS.test(t))) return true;
  const hidden = el.getAttribute('aria-hidden') === 'true' || /user-select\s*:\s*none/i.test(el.getAttribute('style') ?? '');
  return hidden && /^[\d\s]*$/.test(el.textContent ?? '');
}

function cleanLanguage(raw: string): string {
  const lang = raw.trim().replace(/[.,;:]+$/, '');
  return NO_LANGUAGE.has(lang.toLowerCase()) ? '' : lang;
}

function ownLanguage(el: MdElement): string | undefined {
  for (const attr of ['data-lang', 'data-language', 'language']) {
    const value = el.getAttribute(attr);
    if (value && SIMPLE_TOKEN.test(value.trim())) return value.trim();
  }
  const tokens = classTokens(el);
  for (const token of tokens) {
    const m = LANG_CLASS.exec(token);
    if (m?.[1]) return m[1];
  }
  // Pandoc: class="sourceCode python".
  if (tokens.includes('sourceCode')) {
    const other = tokens.find((t) => t !== 'sourceCode' && SIMPLE_TOKEN.test(t));
    if (other) return other;
  }
  return undefined;
}

function wrapperLanguage(el: MdElement): string | undefined {
  for (const attr of ['data-lang', 'data-language']) {
    const value = el.getAttribute(attr);
    if (value && SIMPLE_TOKEN.test(value.trim())) return value.trim();
  }
  const tokens = classTokens(el);
  for (const token of tokens) {
    const m = ANCESTOR_LANG_CLASS.exec(token);
    if (m?.[1]) return m[1];
  }
  // Hexo and similar: <figure class="highlight cpp">.
  if (tokens.includes('highlight') && tokens.length === 2) {
    const other = tokens.find((t) => t !== 'highlight');
    if (other && SIMPLE_TOKEN.test(other)) return other;
  }
  return undefined;
}

/** The language of a code block, from the code/pre element or, failing that, its wrappers. */
export function codeLanguage(pre: MdElement): string {
  const code = findDescendant(pre, CODE);
  const own = (code ? ownLanguage(code) : undefined) ?? ownLanguage(pre);
  if (own !== undefined) return cleanLanguage(own);
  let cur = pre.parentNode;
  for (let depth = 0; depth < 8 && cur !== null && !LANGUAGE_SEARCH_STOP.has(cur.nodeName); depth++) {
    const found = wrapperLanguage(cur);
    if (found !== undefined) return cleanLanguage(found);
    cur = cur.parentNode;
  }
  return '';
}

function endsWithNewline(out: string[]): boolean {
  for (let i = out.length - 1; i >= 0; i--) {
    const chunk = out[i] as string;
    if (chunk !== '') return chunk.endsWith('\n');
  }
  return true; // nothing yet: a line starts here
}

function appendCode(node: MdElement, out: string[]): void {
  let afterLineBlock = false;
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) {
      const data = child.data;
      // Indentation whitespace between line elements is markup, not code.
      if (afterLineBlock && /^\s*$/.test(data) && data.includes('\n')) continue;
      out.push(data);
      afterLineBlock = false;
      continue;
    }
    const name = child.nodeName;
    if (name === 'BR') {
      out.push('\n');
      afterLineBlock = false;
      continue;
    }
    if (NOT_CODE.has(name) || isGutter(child)) continue;
    if (!LINE_BLOCKS.has(name)) {
      appendCode(child, out);
      afterLineBlock = false;
      continue;
    }
    if (!endsWithNewline(out)) out.push('\n');
    const before = out.length;
    appendCode(child, out);
    const produced = out.slice(before).join('');
    // An empty line element is an empty line.
    if (produced === '' || !produced.endsWith('\n')) out.push('\n');
    afterLineBlock = true;
  }
}

/** The text of a code block as it reads on screen. */
export function codeText(pre: MdElement): string {
  const out: string[] = [];
  appendCode(pre, out);
  return out
    .join('')
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .replace(/^\n+/, '')
    .trimEnd();
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** An inline code span that keeps its text exactly, whatever backticks it holds. */
export function inlineCodeSpan(text: string): string {
  if (text === '') return '';
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (/^ .*\S.* $/.test(text)) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Drops a first line that only repeats the language (a highlighter's header label). */
function withoutLanguageLabel(code: string, language: string): string {
  if (language === '') return code;
  const newline = code.indexOf('\n');
  if (newline < 0 || code.slice(0, newline).trim().toLowerCase() !== language.toLowerCase()) return code;
  return code.slice(newline + 1).replace(/^\n+/, '');
}

export function fencedCodeBlock(code: string, language: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

export const codeRules: Record<string, TurndownService.Rule> = {
  codeBlock: mdRule(
    (el) => el.nodeName === 'PRE',
    (_content, el) => {
      const code = codeText(el);
      if (code.trim() === '') return '';
      if (inDataCell(el)) {
        // No fenced blocks inside a table cell: one code span per line.
        const lines = code.split('\n').filter((l) => l.trim() !== '').map((l) => inlineCodeSpan(l.trim()));
        return `\n${lines.join('\n')}\n`;
      }
      const language = codeLanguage(el);
      return `\n\n${fencedCodeBlock(withoutLanguageLabel(code, language), language)}\n\n`;
    },
  ),
  inlineCode: mdRule(
    (el) => el.nodeName === 'CODE',
    (content, el) => {
      // Inside <pre> the block rule reads the tree itself; a <code> wrapping a <pre> (seen in the
      // wild as a highlight container) is just a container.
      if (closestAncestor(el, PRE) !== null) return content;
      if (findDescendant(el, PRE) !== null) return `\n\n${content.trim()}\n\n`;
      // The writer runs turndown with `preformattedCode`, so this text is as in the document.
      const raw = el.textContent;
      if (raw.trim().includes('\n') && PRESERVES_WHITESPACE.test(el.getAttribute('style') ?? '') && !inDataCell(el)) {
        // <code style="white-space: pre"> outside <pre>: a code block.
        return `\n\n${fencedCodeBlock(codeText(el), codeLanguage(el))}\n\n`;
      }
      const text = raw.replace(/\s+/g, ' ');
      const core = text.trim();
      if (core === '') return text === '' ? '' : ' ';
      return `${text.startsWith(' ') ? ' ' : ''}${inlineCodeSpan(core)}${text.endsWith(' ') ? ' ' : ''}`;
    },
  ),
};
