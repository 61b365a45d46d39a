/**
 * Word sequences for the office benchmark's text recall: the same normalisation on folio's
 * markdown and on the reference's plain text, so markup and escaping do not count as words.
 *
 *   per line, leading list markers (`-`, `*`, `+`, `•`, `1.`, `1)`, `a.`, `iv.`) are dropped:
 *   numbering is structure (counted apart), and pandoc and folio number restarts differently;
 *   so are footnote marks (`[1]`, `\[1\]`, `[^1]`), which pandoc's plain text repeats as note labels
 *   → NFKC → lower case → invisible format characters (\p{Cf}: soft hyphen, zero-width space)
 *   dropped → markdown/table delimiters ([ ] ( ) { } | < > and whitespace) split words → every
 *   other punctuation or symbol character is dropped (so `foo\_bar`, `foo_bar` and `**foo_bar**`
 *   all give `foobar`, and `don't` gives `dont` on both sides) → empty words dropped.
 * Scripts written without spaces (Han, Hiragana, Katakana, Hangul) count one word per character,
 * or a whole Japanese sentence would be one "word".
 */
const LIST_MARKERS = /^[ \t>]*(?:(?:[-*+•◦▪]|\d{1,9}[.)]|[a-z][.)]|[ivxlcdm]{1,6}[.)])[ \t]+)+/gimu;
const FOOTNOTE_MARKS = /\\?\[\^?\d{1,4}\\?\]/g;
const FORMAT_CHARACTERS = /\p{Cf}+/gu;
const UNSPACED_SCRIPTS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])/gu;
const SEPARATORS = /[\s[\](){}|<>]+/u;
const PUNCTUATION = /[\p{P}\p{S}]+/gu;

export function normalisedWords(text: string): string[] {
  const out: string[] = [];
  const prepared = text
    .replace(FOOTNOTE_MARKS, ' ')
    .replace(LIST_MARKERS, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(FORMAT_CHARACTERS, '')
    .replace(UNSPACED_SCRIPTS, ' $1 ');
  for (const raw of prepared.split(SEPARATORS)) {
    const word = raw.replace(PUNCTUATION, '');
    if (word.length > 0) out.push(word);
  }
  return out;
}
