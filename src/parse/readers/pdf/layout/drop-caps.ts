/**
 * Drop caps: a paragraph's first letter set large, several lines tall, with the first lines of
 * the text indented beside it ("T" over three lines, then "his report defines"). Its baseline is
 * that of the last line it spans, so on its own it joins that line ("T as the policy actions of")
 * and the first word loses its letter. A typesetter's drop cap is the first letter of the line
 * beside its top: the letter is put back at the head of that line's first word.
 *
 * Recognised by shape alone: one letter (an opening quote may go with it), set at least
 * CAP_RATIO times the size of the text beside it, with the text on at least two baselines
 * standing right after it within its height.
 */
import type { Word } from '../page-model.ts';

const CAP = /^[\p{Pi}\p{Ps}"'‘“]?\p{L}$/u;
/** A drop cap is set at least this many times the size of the text it begins. */
const CAP_RATIO = 2;
/** The text beside starts within this many of its ems after the letter. */
const BESIDE_EM = 1.5;

function isCap(w: Word): boolean {
  return !w.rotated && CAP.test(w.text);
}

/** The words with each drop cap joined to the first word of the line beside its top (same array when there is none). */
export function joinDropCaps(words: readonly Word[]): readonly Word[] {
  let out: Word[] | undefined;
  let smallest = Infinity;
  for (const w of words) if (w.size < smallest) smallest = w.size;
  for (const cap of words) {
    if (cap.size < CAP_RATIO * smallest || !isCap(cap)) continue;
    const beside = words.filter(
      (w) =>
        w !== cap &&
        !w.rotated &&
        w.size * CAP_RATIO <= cap.size &&
        w.x0 >= cap.x1 - 0.1 * w.size &&
        w.x0 <= cap.x1 + BESIDE_EM * w.size &&
        w.baseline > cap.y0 &&
        w.baseline <= cap.baseline + 0.25 * w.size,
    );
    const baselines = new Set(beside.map((w) => Math.round(w.baseline)));
    if (baselines.size < 2) continue;
    const first = beside.reduce((a, b) => (b.baseline < a.baseline - 0.2 * b.size || (Math.abs(b.baseline - a.baseline) <= 0.2 * b.size && b.x0 < a.x0) ? b : a));
    out ??= [...words];
    const at = out.indexOf(first);
    // Already joined to another letter (two caps side by side are no drop cap): leave it.
    if (at < 0 || out.indexOf(cap) < 0) continue;
    out[at] = { ...first, text: cap.text + first.text, x0: cap.x0, order: Math.min(cap.order, first.order) };
    out.splice(out.indexOf(cap), 1);
  }
  return out ?? words;
}
