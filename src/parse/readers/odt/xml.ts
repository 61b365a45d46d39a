/**
 * Helpers over linkedom's XML DOM for ODF parts. linkedom keeps qualified names as written
 * (`text:p`), so elements and attributes are matched by the prefixes the ODF specification uses
 * and every producer (LibreOffice, OpenOffice, Calligra, Google Docs, Word) writes.
 */
import { DOMParser } from 'linkedom';
import { odtCorrupt } from './package.ts';

/** Element nesting refused before parsing (real documents stay below 50). */
export const MAX_XML_DEPTH = 500;

export function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text, 'text/xml') as unknown as Document;
}

/** Parses a package part after refusing nesting deeper than MAX_XML_DEPTH. */
export function parsePart(xml: string, part: string): Document {
  if (nestsDeeperThan(xml, MAX_XML_DEPTH)) throw odtCorrupt(`its ${part} is nested more than ${MAX_XML_DEPTH} levels deep.`);
  return parseXml(xml);
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

/**
 * Whether elements in the XML text nest deeper than `limit`, by one linear scan of the tags
 * (comments, CDATA and processing instructions skipped). Run before parsing: the DOM parser's
 * cost grows faster than linearly with depth, so deep nesting is refused before it is built.
 */
export function nestsDeeperThan(xml: string, limit: number): boolean {
  let depth = 0;
  let i = xml.indexOf('<');
  while (i !== -1) {
    const next = xml.charCodeAt(i + 1);
    let end: number;
    if (next === 47 /* / */) {
      depth--;
      end = xml.indexOf('>', i);
    } else if (xml.startsWith('<!--', i)) {
      end = xml.indexOf('-->', i);
    } else if (xml.startsWith('<![CDATA[', i)) {
      end = xml.indexOf(']]>', i);
    } else if (next === 33 /* ! */ || next === 63 /* ? */) {
      end = xml.indexOf('>', i);
    } else {
      end = xml.indexOf('>', i);
      if (end !== -1 && xml.charCodeAt(end - 1) !== 47 && ++depth > limit) return true;
    }
    if (end === -1) return false;
    i = xml.indexOf('<', end);
  }
  return false;
}
