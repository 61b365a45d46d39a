/**
 * String distances the opendataloader-bench evaluator takes from rapidfuzz, over Unicode code
 * points (Python `str` semantics, so a character outside the BMP counts once):
 *
 * - `lcsLength` / `indelSimilarity`: rapidfuzz `Indel.normalized_similarity` = `fuzz.ratio / 100`,
 *   i.e. `1 - (len(a) + len(b) - 2·LCS) / (len(a) + len(b))`; two empty strings → 1.
 *   Bit-parallel LCS (Allison & Dix 1986; Hyyrö 2004): V holds one bit per character of `a`
 *   (0 = that row contributes to the LCS), per character c of `b`: U = V & PM[c],
 *   V = (V + U) | (V − U); LCS = zero bits of V. 32-bit words with the addition's carry
 *   propagated across words: O(|a|·|b| / 32).
 * - `levenshtein`: rapidfuzz `Levenshtein.distance` (unit costs). Myers (1999) bit-vector
 *   algorithm in Hyyrö's (2003) block form: the horizontal delta at a word boundary is carried
 *   into the next word's X, so no addition carry crosses words.
 */

export type CodePoints = Uint32Array;

export function codePoints(text: string): CodePoints {
  const out = new Uint32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return out.subarray(0, n);
}

/** Per character of `a`, a bit vector of the positions where it occurs (the "pattern match" table). */
function patternMasks(a: CodePoints, words: number): Map<number, Uint32Array> {
  const masks = new Map<number, Uint32Array>();
  for (let i = 0; i < a.length; i++) {
    const c = a[i] as number;
    let m = masks.get(c);
    if (!m) {
      m = new Uint32Array(words);
      masks.set(c, m);
    }
    m[i >>> 5] = ((m[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
  }
  return masks;
}

/** Length of the longest common subsequence of two code-point strings. */
export function lcsLength(a: CodePoints, b: CodePoints): number {
  if (a.length === 0 || b.length === 0) return 0;
  // The shorter string is the bit vector: fewer words per step.
  if (a.length > b.length) [a, b] = [b, a];
  const words = Math.ceil(a.length / 32);
  const masks = patternMasks(a, words);
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let j = 0; j < b.length; j++) {
    const pm = masks.get(b[j] as number);
    if (!pm) continue; // U = 0: V + 0 | V − 0 = V
    let carry = 0; // of V + U
    let borrow = 0; // of V − U
    for (let w = 0; w < words; w++) {
      const vw = v[w] as number;
      const u = (vw & (pm[w] as number)) >>> 0;
      const sum = vw + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const diff = vw - u - borrow;
      borrow = diff < 0 ? 1 : 0;
      v[w] = ((sum >>> 0) | (diff >>> 0)) >>> 0;
    }
  }
  let zeros = 0;
  for (let w = 0; w < words; w++) {
    const bits = w === words - 1 && a.length % 32 !== 0 ? a.length % 32 : 32;
    const vw = v[w] as number;
    const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
    zeros += bits - popcount((vw & mask) >>> 0);
  }
  return zeros;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** rapidfuzz `Indel.distance`: insertions + deletions turning a into b. */
export function indelDistance(a: CodePoints, b: CodePoints): number {
  return a.length + b.length - 2 * lcsLength(a, b);
}

/** rapidfuzz `Indel.normalized_similarity` (= `fuzz.ratio / 100`); 1 for two empty strings. */
export function indelSimilarity(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  const total = ca.length + cb.length;
  if (total === 0) return 1;
  return 1 - indelDistance(ca, cb) / total;
}

/** rapidfuzz `Levenshtein.distance` with unit weights. */
export function levenshtein(a: CodePoints, b: CodePoints): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (a.length > b.length) [a, b] = [b, a];
  const words = Math.ceil(a.length / 32);
  const masks = patternMasks(a, words);
  const empty = new Uint32Array(words);
  const vp = new Uint32Array(words).fill(0xffffffff);
  const vn = new Uint32Array(words);
  const lastBit = ((a.length - 1) & 31) >>> 0;
  let score = a.length;
  for (let j = 0; j < b.length; j++) {
    const pm = masks.get(b[j] as number) ?? empty;
    let hpCarry = 1; // the top row D[0][j] grows by one per column
    let hnCarry = 0;
    for (let w = 0; w < words; w++) {
      const vpw = vp[w] as number;
      const vnw = vn[w] as number;
      const x = ((pm[w] as number) | hnCarry) >>> 0;
      const d0 = (((((x & vpw) >>> 0) + vpw) >>> 0) ^ vpw | x | vnw) >>> 0;
      let hp = (vnw | ~(d0 | vpw)) >>> 0;
      let hn = (d0 & vpw) >>> 0;
      const hpIn = hpCarry;
      const hnIn = hnCarry;
      if (w < words - 1) {
        hpCarry = hp >>> 31;
        hnCarry = hn >>> 31;
      } else {
        hpCarry = (hp >>> lastBit) & 1;
        hnCarry = (hn >>> lastBit) & 1;
      }
      hp = ((hp << 1) | hpIn) >>> 0;
      hn = ((hn << 1) | hnIn) >>> 0;
      vp[w] = (hn | ~(d0 | hp)) >>> 0;
      vn[w] = (hp & d0) >>> 0;
    }
    score += hpCarry - hnCarry;
  }
  return score;
}

/** Levenshtein distance / length of the longer string (0 for two empty strings). */
export function normalisedLevenshtein(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  const longest = Math.max(ca.length, cb.length);
  return longest === 0 ? 0 : levenshtein(ca, cb) / longest;
}
