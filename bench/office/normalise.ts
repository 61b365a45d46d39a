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
 *
 * Equations: both sides write them as TeX between dollars (folio's readers, and pandoc's plain
 * writer with `+tex_math_dollars`), but spacing and bracing differ (`A=\pi r^{2}` vs
 * `A = \pi r^{2}`, `\times{10}^{-6}` vs `\times 10^{- 6}`, `\sin\theta` vs `sin\theta`). Inside a
 * `$…$` or `$$…$$` span every symbol is a word (`\pi`, `sin`, `r`, `2`): a command, a run of
 * letters and a run of digits each count once; layout commands that only arrange symbols
 * (`\frac`, `\left`, `\mathrm`, `\begin{matrix}` …; the LAYOUT list) are markup, not words.
 */
const LIST_MARKERS = /^[ \t>]*(?:(?:[-*+•◦▪]|\d{1,9}[.)]|[a-z][.)]|[ivxlcdm]{1,6}[.)])[ \t]+)+/gimu;
const FOOTNOTE_MARKS = /\\?\[\^?\d{1,4}\\?\]/g;
const FORMAT_CHARACTERS = /\p{Cf}+/gu;
const UNSPACED_SCRIPTS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])/gu;
const SEPARATORS = /[\s[\](){}|<>]+/u;
const PUNCTUATION = /[\p{P}\p{S}]+/gu;
/** A TeX span as pandoc's markdown reads one: `$$…$$`, or `$…$` with no space inside either dollar. */
const MATH = /(?<![\\$])\$\$([\s\S]+?)\$\$|(?<![\\$])\$(?![\s$])((?:[^$\n\\]|\\.)*?[^\s\\])\$(?!\d)/g;
const TEX_ENVIRONMENT = /\\(?:begin|end)\{[a-z*]+\}/g;
const TEX_TOKEN = /\\[a-z]+|\p{L}+|\p{N}+/giu;
const LAYOUT = new Set([
  'frac', 'dfrac', 'tfrac', 'genfrac', 'left', 'right', 'big', 'bigl', 'bigr', 'mathrm', 'mathit', 'mathbf', 'mathsf', 'mathtt',
  'mathcal', 'mathbb', 'text', 'textrm', 'operatorname', 'underset', 'overset', 'stackrel', 'limits', 'nolimits', 'displaystyle',
]);

function mathWords(tex: string): string {
  const words: string[] = [];
  for (const [token] of tex.replace(TEX_ENVIRONMENT, ' ').matchAll(TEX_TOKEN)) {
    const word = token.startsWith('\\') ? token.slice(1) : token;
    if (!(token.startsWith('\\') && LAYOUT.has(word))) words.push(word);
  }
  return ` ${words.join(' ')} `;
}

export function normalisedWords(text: string): string[] {
  const out: string[] = [];
  const prepared = text
    .replace(MATH, (_m, display: string | undefined, inline: string | undefined) => mathWords(display ?? inline ?? ''))
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
