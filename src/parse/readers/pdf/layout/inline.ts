/**
 * The words of a block's lines → inline HTML: spaces where the words stand apart, end-of-line
 * hyphenation undone, raised small text as <sup> (footnote marks) and lowered as <sub>, words
 * under a link annotation as one <a href> per run of adjacent words.
 */
import { escapeHtml } from '../../../document.ts';
import type { LinkBox, Word } from '../page-model.ts';
import type { Line } from './lines.ts';

/**
 * A syllable break parts a word of letters; after a part holding a figure ("407f-" of an
 * identifier, "x86-") the hyphen at the line's end is the word's own.
 */
function identifierHyphen(text: string): boolean {
  return /\p{Nd}[^\s-]*-$/u.test(text);
}

/**
 * Joins a line to the text so far, undoing end-of-line hyphenation: "com-" + "pile" →
 * "compile"; before a capital or a digit the hyphen is kept ("COVID-" + "19" → "COVID-19"), and
 * after a part holding a figure ("407f-" + "a055" → "407f-a055": an identifier's hyphen).
 * A soft hyphen (U+00AD) at the end always joins.
 */
export function joinLine(text: string, next: string): string {
  if (text === '') return next;
  if (text.endsWith('\u00AD')) return text.slice(0, -1) + next;
  if (/\p{L}-$/u.test(text)) {
    if (identifierHyphen(text)) return text + next;
    if (/^\p{Ll}/u.test(next)) return text.slice(0, -1) + next;
    if (/^[\p{Lu}\p{Nd}]/u.test(next)) return text + next;
  }
  return text + ' ' + next;
}

type Script = 'sup' | 'sub' | undefined;

function scriptOf(w: Word, line: Line): Script {
  if (w.size > 0.82 * line.size) return undefined;
  if (w.baseline < line.baseline - 0.2 * line.size) return 'sup';
  if (w.baseline > line.baseline + 0.12 * line.size) return 'sub';
  return undefined;
}

interface Piece {
  text: string;
  /** Space before the piece. */
  space: boolean;
  script: Script;
  href: string | undefined;
}

function linkOf(w: Word, links: readonly LinkBox[]): string | undefined {
  if (links.length === 0) return undefined;
  const cx = (w.x0 + w.x1) / 2;
  const cy = (w.y0 + w.y1) / 2;
  for (const l of links) if (cx >= l.x0 - 1 && cx <= l.x1 + 1 && cy >= l.y0 - 1 && cy <= l.y1 + 1) return l.url;
  return undefined;
}

/** The plain text of lines (hyphenation undone), for classification. */
export function plainText(lines: readonly Line[]): string {
  let text = '';
  for (const line of lines) text = joinLine(text, lineText(line));
  return text.replace(/\u00AD/g, '');
}

export function lineText(line: Line): string {
  let text = '';
  let prev: Word | undefined;
  for (const w of line.words) {
    text += prev && w.x0 - prev.x1 > 0.12 * Math.min(w.size, prev.size) ? ' ' + w.text : w.text;
    prev = w;
  }
  return text;
}

function piecesOf(lines: readonly Line[], links: readonly LinkBox[], skipChars: number): Piece[] {
  const pieces: Piece[] = [];
  let skip = skipChars;
  let leading = skipChars > 0;
  for (const line of lines) {
    let prev: Word | undefined;
    line.words.forEach((w) => {
      let text = w.text.replace(/\u00AD(?=.)/gu, '');
      let space = prev ? w.x0 - prev.x1 > 0.12 * Math.min(w.size, prev.size) : pieces.length > 0;
      if (!prev && pieces.length > 0) {
        const last = pieces[pieces.length - 1] as Piece;
        if (last.text.endsWith('\u00AD')) {
          last.text = last.text.slice(0, -1);
          space = false;
        } else if (/\p{L}-$/u.test(last.text) && /^[\p{L}\p{Nd}]/u.test(text)) {
          if (/^\p{Ll}/u.test(text) && !identifierHyphen(last.text)) last.text = last.text.slice(0, -1);
          space = false;
        }
      }
      prev = w;
      if (skip > 0) {
        // The list marker: dropped (the list says it), with the space after it.
        const take = Math.min(skip, text.length);
        text = text.slice(take);
        skip -= take + 1;
        if (text === '') return;
      }
      if (leading) {
        space = false;
        leading = false;
      }
      const piece: Piece = { text, space, script: scriptOf(w, line), href: linkOf(w, links) };
      const last = pieces[pieces.length - 1];
      // Glyph runs set without a space between them are one word ("mod" + "-").
      if (last && !space && last.script === piece.script && last.href === piece.href) last.text += text;
      else pieces.push(piece);
    });
  }
  return pieces;
}

/**
 * Inline HTML of the lines. `skipChars` drops that many leading characters (a list marker and
 * the space after it, as counted in `plainText`).
 */
export function inlineHtml(lines: readonly Line[], links: readonly LinkBox[], skipChars = 0): string {
  const pieces = piecesOf(lines, links, skipChars);
  let html = '';
  let openHref: string | undefined;
  for (const p of pieces) {
    if (p.href !== openHref) {
      if (openHref !== undefined) html += '</a>';
      if (p.space) html += ' ';
      if (p.href !== undefined) html += `<a href="${escapeHtml(p.href)}">`;
      openHref = p.href;
    } else if (p.space) html += ' ';
    const text = escapeHtml(p.text);
    html += p.script ? `<${p.script}>${text}</${p.script}>` : text;
  }
  if (openHref !== undefined) html += '</a>';
  return html;
}
