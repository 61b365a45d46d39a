/**
 * Helpers over linkedom's XML DOM for ODF parts. linkedom keeps qualified names as written
 * (`text:p`), so elements and attributes are matched by the prefixes the ODF specification uses
 * and every producer (LibreOffice, OpenOffice, Calligra, Google Docs, Word) writes.
 */
import { DOMParser } from 'linkedom';

export function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text, 'text/xml') as unknown as Document;
}

export function attr(element: Element, name: string): string | undefined {
  const value = element.getAttribute(name);
  return value === null ? undefined : value;
}

/** Direct child elements with the given qualified name. */
export function childrenNamed(parent: Element, name: string): Element[] {
  const out: Element[] = [];
  for (const child of Array.from(parent.children)) {
    if (child.tagName === name) out.push(child);
  }
  return out;
}

export function firstChildNamed(parent: Element | undefined, name: string): Element | undefined {
  if (!parent) return undefined;
  for (const child of Array.from(parent.children)) {
    if (child.tagName === name) return child;
  }
  return undefined;
}

/** The text of an element with white space collapsed and trimmed; undefined when empty. */
export function cleanText(element: Element | undefined): string | undefined {
  const text = element?.textContent?.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}

/** A non-negative integer attribute (`table:number-columns-spanned`), or the fallback. */
export function intAttr(element: Element, name: string, fallback: number): number {
  const value = element.getAttribute(name);
  if (value === null || !/^\s*\d{1,9}\s*$/.test(value)) return fallback;
  return parseInt(value, 10);
}
