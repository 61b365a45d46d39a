/**
 * Small helpers over linkedom's XML DOM for the package parts folio reads itself (styles,
 * headers, footers, properties). linkedom keeps qualified names as written (`w:p`), so parts
 * are matched by the conventional OOXML prefixes (`w:`, `r:`, `dc:` …), which Word, LibreOffice
 * and every common generator write.
 */
import { DOMParser } from 'linkedom';

export function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text, 'text/xml') as unknown as Document;
}

/** Direct child elements with the given qualified name. */
export function childrenNamed(parent: Element, name: string): Element[] {
  const out: Element[] = [];
  for (const child of Array.from(parent.children)) {
    if (child.tagName === name) out.push(child);
  }
  return out;
}

export function firstChildNamed(parent: Element, name: string): Element | undefined {
  for (const child of Array.from(parent.children)) {
    if (child.tagName === name) return child;
  }
  return undefined;
}

/** Follows a path of direct children: `path(styles, 'w:docDefaults', 'w:rPrDefault')`. */
export function childPath(parent: Element, ...names: string[]): Element | undefined {
  let current: Element | undefined = parent;
  for (const name of names) {
    if (!current) return undefined;
    current = firstChildNamed(current, name);
  }
  return current;
}

/** `w:val` of an element, the usual carrier of a property value. */
export function wVal(element: Element | undefined): string | undefined {
  const value = element?.getAttribute('w:val');
  return value === null ? undefined : value;
}

/** The text of an element with white space collapsed and trimmed; undefined when empty. */
export function cleanText(element: Element | undefined): string | undefined {
  const text = element?.textContent?.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}

/** Target of a relationship part (`_rels/*.rels`), by relationship id. */
export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

export function readRelationships(text: string | undefined): Map<string, Relationship> {
  const map = new Map<string, Relationship>();
  if (!text) return map;
  const doc = parseXml(text);
  for (const rel of Array.from(doc.getElementsByTagName('Relationship'))) {
    const id = rel.getAttribute('Id');
    const target = rel.getAttribute('Target');
    if (!id || target === null) continue;
    map.set(id, {
      id,
      type: rel.getAttribute('Type') ?? '',
      target,
      external: (rel.getAttribute('TargetMode') ?? '').toLowerCase() === 'external',
    });
  }
  return map;
}

/** Resolves a relationship target against the folder of the part that owns it (OPC §9.3). */
export function resolvePartName(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const base = sourcePart.includes('/') ? sourcePart.slice(0, sourcePart.lastIndexOf('/')).split('/') : [];
  for (const segment of target.split('/')) {
    if (segment === '..') base.pop();
    else if (segment !== '.' && segment !== '') base.push(segment);
  }
  return base.join('/');
}

/** The relationships part of a part: `word/document.xml` → `word/_rels/document.xml.rels`. */
export function relsPartName(part: string): string {
  const slash = part.lastIndexOf('/');
  return slash === -1 ? `_rels/${part}.rels` : `${part.slice(0, slash)}/_rels/${part.slice(slash + 1)}.rels`;
}

/** An attribute of one start tag given as text (`<w:lang w:val="en-US"/>`), undecoded. */
export function xmlAttribute(tag: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`\\s${escaped}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return match ? (match[1] ?? match[2]) : undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references. */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10)) ?? whole;
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}
