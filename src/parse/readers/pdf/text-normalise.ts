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
 * A symbol font's list bullets, as word processors print them: the glyph's code in the font
 * (Symbol 0xB7, Wingdings 0xA7 …) mapped to U+F000 + code, the private-use page Windows gives a
 * symbol font's characters. A bulleted list from Word printed by LibreOffice carries U+F0B7 before
 * each item; read as nothing, the items ran together as one paragraph.
 */
const SYMBOL_BULLETS: Record<string, string> = {
  '\uF0B7': '\u2022', // Symbol bullet •
  '\uF0A7': '\u25AA', // Wingdings small black square ▪
  '\uF06C': '\u25CF', // Wingdings black circle ●
  '\uF06E': '\u25A0', // Wingdings black square ■
  '\uF076': '\u2756', // Wingdings black diamond minus white X ❖
  '\uF0D8': '\u27A2', // Wingdings three-D top-lighted rightwards arrowhead ➢
};
const SYMBOL_BULLET = new RegExp(`[${Object.keys(SYMBOL_BULLETS).join('')}]`, 'g');

/**
 * Control characters (some fonts map glyphs to them) become spaces; a symbol font's list
 * bullets become the bullets they show; other private-use code points (symbol-font glyphs such
 * as check boxes, with no meaning as text) go; spaces collapse.
 */
export function normaliseText(text: string): string {
  return doubleQuotes(expandLigatures(text))
    .replace(SYMBOL_BULLET, (c) => SYMBOL_BULLETS[c] ?? '')
    .replace(/[\uFEFF\uE000-\uF8FF]/g, '')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    .replace(/[\t\n\r ]+/g, ' ');
}
