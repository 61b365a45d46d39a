/**
 * Sentences and words of running text in the document's language, by the ICU segmenters Node
 * ships (Intl.Segmenter): sentence breaks after `.` `!` `?` and after the CJK full stops `。！？`
 * with no space needed, and dictionary word breaks for Chinese, Japanese, Thai and Khmer, whose
 * words are not separated by spaces.
 *
 * ICU's sentence rules break after every period followed by a space and a capital, so an
 * abbreviation ("Dr. Smith", "Fig. 3", "et al. (2019)") would cut a sentence in two: a piece
 * ending in one of the short forms below, or followed by a piece that starts in lower case or
 * with a digit, is joined to the next.
 */

/** Short forms after which a period does not end the sentence (lower-cased, without the period). */
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'vs', 'etc', 'al', 'cf', 'eg', 'e.g', 'ie', 'i.e', 'approx', 'ca',
  'no', 'nos', 'nr', 'vol', 'vols', 'pp', 'p', 'fig', 'figs', 'eq', 'eqs', 'sec', 'ch', 'ref', 'refs', 'inc', 'ltd', 'co', 'corp',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'u.s', 'u.k', 'dept', 'univ', 'est',
  'z.b', 'bzw', 'usw', 'ggf', 'vgl', 'nr', 'art', 'abs', 'mme', 'mlle', 'av', 'sra', 'sr', 'dra', 'pág', 'núm', 'sig',
]);

const segmenters = new Map<string, { sentence: Intl.Segmenter; word: Intl.Segmenter }>();

function segmentersFor(language: string | undefined): { sentence: Intl.Segmenter; word: Intl.Segmenter } {
  const key = language ?? '';
  let found = segmenters.get(key);
  if (!found) {
    let locale: string | undefined;
    try {
      locale = language ? Intl.Segmenter.supportedLocalesOf([language])[0] : undefined;
    } catch {
      locale = undefined; // not a well-formed tag: the root locale's rules
    }
    found = { sentence: new Intl.Segmenter(locale, { granularity: 'sentence' }), word: new Intl.Segmenter(locale, { granularity: 'word' }) };
    segmenters.set(key, found);
  }
  return found;
}

function endsInAbbreviation(piece: string): boolean {
  const m = /(?:^|[\s(])([\p{L}.]{1,6})\.\s*$/u.exec(piece);
  if (!m) return false;
  const word = (m[1] as string).toLowerCase();
  // A single capital letter: an initial ("John Q. Doe"), not the end of a sentence.
  return ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(m[1] as string);
}

export function splitSentences(text: string, language: string | undefined): string[] {
  const pieces = [...segmentersFor(language).sentence.segment(text)].map((s) => s.segment);
  const out: string[] = [];
  let pending = '';
  for (const piece of pieces) {
    if (pending && !endsInAbbreviation(pending) && !/^\s*[\p{Ll}\d(]/u.test(piece)) {
      out.push(pending.trim());
      pending = '';
    }
    pending += piece;
  }
  if (pending.trim()) out.push(pending.trim());
  return out;
}

/** Lower-cased word-like tokens (letters or digits) of a sentence, in its language. */
export function words(sentence: string, language: string | undefined): string[] {
  const out: string[] = [];
  for (const s of segmentersFor(language).word.segment(sentence)) {
    if (s.isWordLike) out.push(s.segment.toLowerCase());
  }
  return out;
}

/** Scripts written without spaces between words: sentences join without a space. */
export function isSpacelessScript(text: string): boolean {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Khmer}\p{Script=Lao}\p{Script=Myanmar}]/gu)?.length ?? 0;
  return cjk > text.length / 3;
}
