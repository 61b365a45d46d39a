/**
 * HTML imported into a Word document (an altChunk: html-docx-js and many "export to Word"
 * features put the whole document there) → the intermediate vocabulary. The imported page is
 * untrusted and is not cleaned like a web page later (the clean step treats .docx content as
 * the document), so it is rebuilt here from an allow-list: vocabulary elements with only their
 * meaningful attributes; scripts, styles, embedded objects and forms dropped with their
 * content; other containers unwrapped (a block container with only inline content becomes a
 * paragraph, so its text stays apart from its neighbours).
 */
import { parseHTML } from 'linkedom';
import { sourceLimits, type SourceLimits } from '../../limits.ts';
import { checkHtmlBounds } from '../html/bounds.ts';

const KEEP = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'a', 'img', 'pre', 'code', 'blockquote', 'em', 'strong', 'sup', 'sub', 's', 'hr',
]);
const RENAME: Record<string, string> = { b: 'strong', i: 'em', strike: 's', del: 's', tt: 'code', kbd: 'code', samp: 'code', caption: 'p' };
const DROP = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'head', 'meta',
  'link', 'title', 'base', 'svg', 'canvas', 'audio', 'video', 'source', 'track', 'input', 'select', 'textarea', 'button',
  'option', 'map', 'area', 'dialog',
]);
const BLOCK = new Set([
  'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'center', 'address', 'figure', 'figcaption',
  'fieldset', 'details', 'summary', 'dl', 'dt', 'dd', 'form', 'body',
]);
const BLOCK_CHILDREN = new Set([...BLOCK, 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'table', 'pre', 'blockquote', 'hr', 'caption']);

export interface ImportOptions {
  embedImages: boolean;
  imageFallbackAlt: string;
  /** FOLIO_MAX_HTML_NODES / FOLIO_MAX_HTML_DEPTH for the imported page; defaults when left out. */
  limits?: Partial<SourceLimits>;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function escapeText(value: string): string {
  return value.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function safeHref(href: string | null): string | undefined {
  const value = href?.trim();
  if (!value) return undefined;
  return /^(https?:|mailto:|ftp:|#)/i.test(value) ? value : undefined;
}

function attributesOf(tag: string, element: Element, options: ImportOptions): string {
  const attrs: string[] = [];
  if (tag === 'a') {
    const href = safeHref(element.getAttribute('href'));
    if (href !== undefined && !href.startsWith('#')) attrs.push(`href="${escapeAttribute(href)}"`);
  } else if (tag === 'img') {
    const src = element.getAttribute('src')?.trim() ?? '';
    const alt = element.getAttribute('alt')?.trim() ?? '';
    const keep = /^https?:/i.test(src) || (options.embedImages && /^data:image\//i.test(src));
    if (keep) attrs.push(`src="${escapeAttribute(src)}"`);
    attrs.push(`alt="${escapeAttribute(alt || (keep ? '' : options.imageFallbackAlt))}"`);
  } else if (tag === 'td' || tag === 'th') {
    for (const name of ['colspan', 'rowspan']) {
      const value = Number(element.getAttribute(name) ?? 1);
      if (Number.isInteger(value) && value > 1 && value <= 1000) attrs.push(`${name}="${value}"`);
    }
  }
  return attrs.length > 0 ? ` ${attrs.join(' ')}` : '';
}

function hasBlockChild(element: Element): boolean {
  return Array.from(element.children).some((child) => BLOCK_CHILDREN.has(child.tagName.toLowerCase()));
}

function convert(node: Node, options: ImportOptions, out: string[], depth: number): void {
  if (node.nodeType === 3) {
    out.push(escapeText(node.nodeValue ?? ''));
    return;
  }
  if (node.nodeType !== 1 || depth > 200) return;
  const element = node as Element;
  const name = element.tagName.toLowerCase();
  if (DROP.has(name)) return;
  const tag = RENAME[name] ?? name;
  const children = (target: string[]) => {
    for (const child of Array.from(element.childNodes)) convert(child, options, target, depth + 1);
  };
  if (KEEP.has(tag)) {
    if (tag === 'br' || tag === 'hr' || tag === 'img') {
      out.push(`<${tag}${attributesOf(tag, element, options)}>`);
      return;
    }
    out.push(`<${tag}${attributesOf(tag, element, options)}>`);
    children(out);
    out.push(`</${tag}>`);
  } else if (BLOCK.has(name) && !hasBlockChild(element)) {
    const inner: string[] = [];
    children(inner);
    const html = inner.join('');
    if (html.trim() !== '') out.push(`<p>${html}</p>`);
  } else {
    children(out);
  }
}

/** The body of an imported HTML page, rebuilt in the intermediate vocabulary. */
export function importHtml(html: string, options: ImportOptions): string {
  checkHtmlBounds(html, sourceLimits(options.limits), 'The Word document could not be read: an HTML page imported into it (altChunk)');
  const { document } = parseHTML(html);
  const body = document.body ?? document.documentElement;
  if (!body) return '';
  const out: string[] = [];
  for (const child of Array.from(body.childNodes)) convert(child, options, out, 0);
  return out.join('').trim();
}
