/**
 * The little XML the streaming .xlsx reader needs: attributes of one start tag, text with its
 * entities and OOXML `_xHHHH_` escapes decoded (ECMA-376 Part 1 §22.9.2.19 ST_Xstring), and the
 * texts of the `<t>` elements of a string item with phonetic runs (`<rPh>`) left out.
 * Element names may carry any namespace prefix (`x:row`), as some writers emit.
 */

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const OOXML_ESCAPE = /_x([0-9a-fA-F]{4})_/g;

function codePoint(n: number): string {
  return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (_m, hex: string | undefined, dec: string | undefined, name: string | undefined) =>
    hex ? codePoint(parseInt(hex, 16)) : dec ? codePoint(parseInt(dec, 10)) : (NAMED[name ?? ''] ?? ''),
  );
}

/** Text content: entities, then `_xHHHH_` escapes (`_x000D_` is a carriage return). */
export function decodeText(text: string): string {
  const decoded = decodeEntities(text);
  return decoded.includes('_x') ? decoded.replace(OOXML_ESCAPE, (_m, hex: string) => codePoint(parseInt(hex, 16))) : decoded;
}

/** The value of one attribute in a start tag's attribute text, decoded; prefixes are ignored. */
const attrPatterns = new Map<string, RegExp>();

export function attr(attrs: string, name: string): string | undefined {
  let pattern = attrPatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrPatterns.set(name, pattern);
  }
  const match = pattern.exec(attrs);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? '');
}

const PHONETIC = /<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g;
const TEXT = /<(?:\w+:)?t(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?t>)/g;

/** The text of a string item (`<si>`, `<is>`): its `<t>` runs joined, phonetic guides left out. */
export function stringItemText(xml: string): string {
  const body = xml.includes('rPh') ? xml.replace(PHONETIC, '') : xml;
  let out = '';
  for (const m of body.matchAll(TEXT)) out += m[1] ?? '';
  return decodeText(out);
}

/** Every start (or empty) tag of an element, as its attribute text, in document order. */
export function* startTags(xml: string, element: string): Generator<string> {
  const re = new RegExp(`<(?:\\w+:)?${element}(\\s[^>]*?)?\\/?>`, 'g');
  for (const m of xml.matchAll(re)) yield m[1] ?? '';
}

/** The content of the first element of this name, or undefined. */
export function firstElement(xml: string, element: string): string | undefined {
  const re = new RegExp(`<(?:\\w+:)?${element}(?:\\s[^>]*)?>([\\s\\S]*?)<\\/(?:\\w+:)?${element}>`);
  return re.exec(xml)?.[1];
}
