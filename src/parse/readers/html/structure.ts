/**
 * linkedom builds the tree as written: it does not create the `<html>`, `<head>` and `<body>`
 * elements the HTML parsing algorithm implies, so a fragment (`<p>hi</p>`), a page without a
 * `<body>` tag, or content after `</html>` leave `document.body` empty or missing. This puts such
 * a tree into the standard shape — one `<html>` holding `<head>` then `<body>` — the way a
 * browser would: head-only elements met before any content go to the head, everything else to
 * the body, in document order. Well-formed pages are checked and left untouched.
 */

const ELEMENT = 1;
const TEXT = 3;
const COMMENT = 8;
const DOCTYPE = 10;

/** Elements a browser keeps in `<head>` when they come before any body content. */
const HEAD_ELEMENTS = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template']);

function isBlank(node: Node): boolean {
  return node.nodeType === COMMENT || (node.nodeType === TEXT && (node.textContent ?? '').trim() === '');
}

function tagOf(node: Node): string | undefined {
  return node.nodeType === ELEMENT ? (node as Element).localName : undefined;
}

/** True when the document already is doctype? → html → (head, body) with nothing stray. */
function isWellFormed(document: Document): boolean {
  const html = document.documentElement;
  if (!html || html.localName !== 'html') return false;
  for (const node of Array.from(document.childNodes)) {
    if (node !== html && node.nodeType !== DOCTYPE && !isBlank(node)) return false;
  }
  let sawHead = false;
  let sawBody = false;
  for (const node of Array.from(html.childNodes)) {
    const tag = tagOf(node);
    if (tag === 'head' && !sawHead && !sawBody) sawHead = true;
    else if (tag === 'body' && !sawBody) sawBody = true;
    else if (!isBlank(node)) return false;
  }
  return sawBody;
}

function copyAttributes(from: Element, to: Element): void {
  for (const attr of Array.from(from.attributes)) {
    if (!to.hasAttribute(attr.name)) to.setAttribute(attr.name, attr.value);
  }
}

export function normalizeStructure(document: Document): void {
  if (isWellFormed(document)) return;
  const html = document.createElement('html');
  const head = document.createElement('head');
  const body = document.createElement('body');
  html.append(head, body);
  let inBody = false;

  const place = (node: Node): void => {
    const tag = tagOf(node);
    if (node.nodeType === DOCTYPE) return;
    if (tag === 'html' || tag === 'head' || tag === 'body') {
      const element = node as Element;
      copyAttributes(element, tag === 'html' ? html : tag === 'head' ? head : body);
      for (const child of Array.from(element.childNodes)) place(child);
      element.remove();
      return;
    }
    if (!inBody) {
      if (tag !== undefined && HEAD_ELEMENTS.has(tag)) {
        head.append(node);
        return;
      }
      if (isBlank(node)) {
        node.parentNode?.removeChild(node);
        return;
      }
      inBody = true;
    }
    body.append(node);
  };

  for (const node of Array.from(document.childNodes)) {
    if (node.nodeType === DOCTYPE) continue;
    place(node);
  }
  for (const node of Array.from(document.childNodes)) {
    if (node.nodeType !== DOCTYPE) node.parentNode?.removeChild(node);
  }
  document.appendChild(html);
}
