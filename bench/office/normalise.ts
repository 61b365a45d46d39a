/**
 * Word sequences for the office benchmark's text recall: the same normalisation on folio's
 * markdown and on the reference's plain text, so markup and escaping do not count as words.
 *
 *   NFKC → lower case → markdown/table delimiters ([ ] ( ) { } | < > and whitespace) split words
 *   → every other punctuation or symbol character is dropped (so `foo\_bar`, `foo_bar` and
 *   `**foo_bar**` all give `foobar`, and `don't` gives `dont` on both sides) → empty words dropped.
 */
const SEPARATORS = /[\s[\](){}|<>]+/u;
const PUNCTUATION = /[\p{P}\p{S}]+/gu;

export function normalisedWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.normalize('NFKC').toLowerCase().split(SEPARATORS)) {
    const word = raw.replace(PUNCTUATION, '');
    if (word.length > 0) out.push(word);
  }
  return out;
}
