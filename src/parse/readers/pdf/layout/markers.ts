/**
 * The marks that open a list item or a numbered section, as the typographer sets them.
 */

/** Bullet glyphs (and the dashes and asterisk used as bullets). */
export const BULLET = /^[•◦▪▫●○■□►▸‣⁃∙·❖➢\u2022\u25E6\u2043\u2219\uF0B7\uF0A7\-–—*]$/u;

/** "1." "1)" "(1)" "a." "a)" "(a)" "iv." "(iv)" — an ordered item's number on its own. */
export const ORDINAL = /^(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,6})\)|(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,6})\.)$/u;

/** A section number: "3", "3.1", "3.1.2", "A.1", "IV." (supporting evidence for a heading). */
export const SECTION_NUMBER = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z](?:\.\d{1,2})*\.?|[IVX]{1,5}\.)$/u;

/** A section number of two levels or more ("4.3", "4.3.2", "A.1"): strong evidence. */
export const SUBSECTION_NUMBER = /^(?:\d{1,2}|[A-Z])(?:\.\d{1,2}){1,3}\.?$/u;

/** Any lone word that introduces the text after it. */
export const MARKER = new RegExp(`${BULLET.source}|${ORDINAL.source}|${SECTION_NUMBER.source}`, 'u');

export type ListKind = 'ul' | 'ol';

export interface ListMarker {
  kind: ListKind;
  /** The item's number for an ordered list (a = 1, ii = 2), when it has one. */
  value?: number;
  /** Characters of the line's text the marker takes (with the space after it). */
  length: number;
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

function romanValue(text: string): number | undefined {
  let total = 0;
  const s = text.toLowerCase();
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i] as string];
    const next = ROMAN[s[i + 1] as string] ?? 0;
    if (v === undefined) return undefined;
    total += v < next ? -v : v;
  }
  return total > 0 ? total : undefined;
}

const ORDERED_AT_START = /^(\(?)(\d{1,3}|[a-z]|[ivx]{1,5}|[A-Z]|[IVX]{1,5})([.)])\s+(?=\S)/u;
const BULLET_AT_START = /^([•◦▪▫●○■□►▸‣⁃∙·❖➢\u2022\u25E6\u2043\u2219\uF0B7\uF0A7]|[-–—*](?=\s))\s*(?=\S)/u;

/**
 * The list marker a paragraph's text starts with, if any. A number followed by a capital word
 * and ending like a sentence is still an item ("6. Warning: …"); "3.1 Status" (no period or
 * parenthesis right after the first number) is not.
 */
export function listMarker(text: string): ListMarker | undefined {
  const bullet = BULLET_AT_START.exec(text);
  if (bullet) return { kind: 'ul', length: bullet[0].length };
  const ordered = ORDERED_AT_START.exec(text);
  if (!ordered) return undefined;
  const [whole, open = '', number = '', close = ''] = ordered;
  if (open === '(' && close !== ')') return undefined;
  // "2019." at the start of a sentence is a year, not an item; "A." could be an initial.
  if (/^\d+$/.test(number)) return { kind: 'ol', value: Number(number), length: whole.length };
  if (/^[ivx]+$/i.test(number) && number.length > 1) return { kind: 'ol', value: romanValue(number), length: whole.length };
  if (/^[a-z]$/i.test(number) && (close === ')' || /^[a-h]$/i.test(number))) {
    return { kind: 'ol', value: number.toLowerCase().charCodeAt(0) - 96, length: whole.length };
  }
  return undefined;
}
