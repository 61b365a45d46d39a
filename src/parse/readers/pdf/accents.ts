/**
 * Accents drawn as glyphs of their own. TeX sets an accented letter (\'a, \"\i, \v c) as the
 * spacing accent glyph, then moves back and draws the letter under it; the text layer reads the
 * two as separate runs, the letter's starting left of where the accent's ends: "J´" + "an",
 * "Min´" + "aˇ" + "c", "na¨" + "ıve", which read "J´an Min´aˇc", "na¨ıve". A typesetter's
 * accented letter is one character: a run ending in a spacing accent, followed on its baseline
 * by a run starting with a letter drawn back over it, is one word, the accent combined with
 * that letter ("Ján Mináč", "naïve"; the dotless ı under an accent is the i TeX accents) when
 * the two compose into one precomposed letter (Unicode NFC). An accent that stands on its own
 * ("it´s" set with an acute for an apostrophe, a math "˙q") is left as drawn: nothing is drawn
 * back over it, or the pair composes into no letter.
 */
import type { Word } from './page-model.ts';

/** Spacing accents and the combining marks they stand for. */
const COMBINING: Readonly<Record<string, string>> = {
  '\u00B4': '\u0301', // ´ acute
  '`': '\u0300', // grave
  '\u00A8': '\u0308', // ¨ diaeresis
  '\u02C6': '\u0302', // ˆ circumflex
  '\u02DC': '\u0303', // ˜ tilde
  '\u02C7': '\u030C', // ˇ caron
  '\u02D8': '\u0306', // ˘ breve
  '\u02D9': '\u0307', // ˙ dot above
  '\u02DA': '\u030A', // ˚ ring
  '\u00B8': '\u0327', // ¸ cedilla
  '\u02DB': '\u0328', // ˛ ogonek
  '\u02DD': '\u030B', // ˝ double acute
  '\u00AF': '\u0304', // ¯ macron
};

/** The letter drawn back over the accent starts at least this share of its size left of the accent run's end. */
const BACK_EM = 0.05;
/** An accent over a capital is raised: its baseline may stand this share of the size above the letter's. */
const RAISED_EM = 0.4;

/** The accent and the letter as one precomposed letter, or undefined. */
export function accented(accent: string, letter: string): string | undefined {
  const mark = COMBINING[accent];
  if (mark === undefined || !/^\p{L}$/u.test(letter)) return undefined;
  const base = letter === '\u0131' ? 'i' : letter === '\u0237' ? 'j' : letter;
  const composed = `${base}${mark}`.normalize('NFC');
  return [...composed].length === 1 ? composed : undefined;
}

/** Words in source order, with each accent drawn as its own run joined to the letter drawn back under it. */
export function joinAccents(words: Word[]): Word[] {
  let out: Word[] | undefined;
  for (let i = 0; i < words.length; i++) {
    const a = (out ? out[out.length - 1] : words[i - 1]) as Word | undefined;
    const b = words[i] as Word;
    const accent = a?.text.slice(-1);
    const first = [...b.text][0] ?? '';
    const letter = a && accent !== undefined && !a.rotated && !b.rotated && COMBINING[accent] !== undefined ? accented(accent, first) : undefined;
    if (
      a &&
      letter !== undefined &&
      b.x0 < a.x1 - BACK_EM * b.size &&
      b.x0 > a.x0 - BACK_EM * b.size &&
      a.baseline <= b.baseline + BACK_EM * b.size &&
      b.baseline - a.baseline <= RAISED_EM * b.size
    ) {
      out ??= words.slice(0, i);
      out[out.length - 1] = {
        ...b,
        text: `${a.text.slice(0, -1)}${letter}${b.text.slice(first.length)}`,
        x0: Math.min(a.x0, b.x0),
        x1: Math.max(a.x1, b.x1),
        y0: Math.min(a.y0, b.y0),
        y1: Math.max(a.y1, b.y1),
        order: a.order,
      };
      continue;
    }
    out?.push(b);
  }
  return out ?? words;
}
