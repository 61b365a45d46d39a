/**
 * Text-layer strings as text: ligatures and presentation forms expanded, doubled single quotes
 * as double quotes, control characters and private-use glyphs out.
 */

/**
 * NFKC for presentation forms only: Latin ligatures (U+FB00–FB06: ﬁ → fi) and Arabic
 * presentation forms (U+FB50–FDFF, U+FE70–FEFF: contextual glyph shapes → letters). Full NFKC
 * would also flatten superscripts, fractions and the like, which carry meaning.
 */
export function expandLigatures(text: string): string {
  return text.replace(/[\uFB00-\uFB06\uFB50-\uFDFF\uFE70-\uFEFF]+/g, (c) => c.normalize('NFKC'));
}

/**
 * Two single quotes set together (‘‘ … ’’, as some typesetters build a double quote) are the
 * double quote: “ … ”.
 */
export function doubleQuotes(text: string): string {
  return text.replace(/\u2018\u2018/g, '\u201C').replace(/\u2019\u2019/g, '\u201D');
}

/**
 * Control characters (some fonts map glyphs to them) become spaces; private-use code points
 * (symbol-font glyphs such as check boxes, with no meaning as text) go; spaces collapse.
 */
export function normaliseText(text: string): string {
  return doubleQuotes(expandLigatures(text))
    .replace(/[\uFEFF\uE000-\uF8FF]/g, '')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    .replace(/[\t\n\r ]+/g, ' ');
}
