/**
 * Footnotes and endnotes. mammoth numbers note references in reading order
 * (`<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup>`) and appends every note as
 * one `<ol>` at the end, each item ending in a "↑" back-link. For a reader of the output the
 * links are noise (they point into the same page and the markdown has no anchors): the
 * reference keeps its `[n]` text, the back-links go, and the notes list is set apart from the
 * body by a rule. The list order is the reference order, so item n is note [n].
 */

const NOTE_ITEM = /^(?:footnote|endnote)-/;
const NOTE_REF_TARGET = /^#(?:footnote|endnote)-(?!ref-)/;
const BACK_LINK_TARGET = /^#(?:footnote|endnote)-ref-/;

function unwrap(element: Element): void {
  const parent = element.parentNode;
  if (!parent) return;
  while (element.firstChild) parent.insertBefore(element.firstChild, element);
  parent.removeChild(element);
}

/** Drops leading white space (mammoth keeps the space after Word's note mark) of an element's text. */
function trimLeadingText(element: Element): void {
  const walker = element.ownerDocument.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    const trimmed = text.replace(/^\s+/, '');
    node.nodeValue = trimmed;
    if (trimmed !== '') return;
  }
}

function trimTrailingText(element: Element): void {
  const texts: Node[] = [];
  const walker = element.ownerDocument.createTreeWalker(element, 4);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node);
  for (let i = texts.length - 1; i >= 0; i--) {
    const node = texts[i] as Node;
    const trimmed = (node.nodeValue ?? '').replace(/\s+$/, '');
    node.nodeValue = trimmed;
    if (trimmed !== '') return;
  }
}

/** Returns the number of notes found. */
export function tidyNotes(body: Element): number {
  for (const link of Array.from(body.querySelectorAll('a[href]'))) {
    const href = link.getAttribute('href') ?? '';
    if (NOTE_REF_TARGET.test(href)) unwrap(link);
    else if (BACK_LINK_TARGET.test(href)) link.remove();
  }
  const items = Array.from(body.querySelectorAll('li[id]')).filter((li) => NOTE_ITEM.test(li.getAttribute('id') ?? ''));
  const lists = new Set<Element>();
  for (const item of items) {
    item.removeAttribute('id');
    trimLeadingText(item);
    trimTrailingText(item);
    if (item.parentElement) lists.add(item.parentElement);
  }
  for (const list of lists) {
    const rule = list.ownerDocument.createElement('hr');
    list.parentNode?.insertBefore(rule, list);
  }
  return items.length;
}
