/**
 * In-order text recall: |LCS(reference words, folio words)| / |reference words|.
 *
 * The LCS length is computed bit-parallel (H. Hyyrö, "Bit-parallel LCS-length computation
 * revisited", 2004): one bit per reference word, one pass per folio word,
 *   U = V & M[w];  V = (V + U) | (V − U)        (V − U = V & ~M[w], no borrow)
 * and the LCS is the number of zero bits left in V. That is O(n·m/32) word operations with a
 * small constant, so a 100 000 × 100 000-word pair costs about 3·10^8 simple steps; the match
 * masks M[w] are built per folio word from a position list (memory O(m), not O(alphabet·m)).
 * A common prefix and suffix are matched first, which makes near-identical texts almost free.
 */

/** Words → small integers, shared by both sequences so equal words get equal ids. */
function toIds(a: string[], b: string[]): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const id = (w: string): number => {
    let v = ids.get(w);
    if (v === undefined) {
      v = ids.size;
      ids.set(w, v);
    }
    return v;
  };
  return { a: Int32Array.from(a, id), b: Int32Array.from(b, id) };
}

/** Length of the longest common subsequence of two word sequences. */
export function lcsLength(reference: string[], candidate: string[]): number {
  const { a: fullA, b: fullB } = toIds(reference, candidate);
  let start = 0;
  while (start < fullA.length && start < fullB.length && fullA[start] === fullB[start]) start++;
  let endA = fullA.length;
  let endB = fullB.length;
  while (endA > start && endB > start && fullA[endA - 1] === fullB[endB - 1]) {
    endA--;
    endB--;
  }
  const matched = start + (fullA.length - endA);
  const a = fullA.subarray(start, endA);
  const b = fullB.subarray(start, endB);
  if (a.length === 0 || b.length === 0) return matched;

  // Positions of each word id in a (the reference side, one bit each).
  const positions = new Map<number, number[]>();
  for (let i = 0; i < a.length; i++) {
    const w = a[i] as number;
    const list = positions.get(w);
    if (list) list.push(i);
    else positions.set(w, [i]);
  }
  const words = Math.ceil(a.length / 32);
  const v = new Uint32Array(words).fill(0xffffffff);
  const mask = new Uint32Array(words);
  for (let j = 0; j < b.length; j++) {
    const list = positions.get(b[j] as number);
    if (!list) continue; // M = 0: U = 0 and V stays as it is.
    for (const p of list) mask[p >>> 5] = (mask[p >>> 5] as number) | (1 << (p & 31));
    let carry = 0;
    // Only words from the first set bit of M onward can change (below it U = 0 and no carry).
    for (let k = (list[0] as number) >>> 5; k < words; k++) {
      const vk = v[k] as number;
      const u = (vk & (mask[k] as number)) >>> 0;
      const sum = vk + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[k] = ((sum >>> 0) | (vk & ~u)) >>> 0;
      if (carry === 0 && u === 0 && k > ((list[list.length - 1] as number) >>> 5)) break;
    }
    for (const p of list) mask[p >>> 5] = 0;
  }
  let zeros = 0;
  for (let k = 0; k < words; k++) {
    let x = ~(v[k] as number) >>> 0;
    if (k === words - 1 && a.length % 32 !== 0) x &= (1 << (a.length % 32)) - 1 >>> 0;
    while (x !== 0) {
      x &= x - 1;
      zeros++;
    }
  }
  return matched + zeros;
}

/** Share of the reference's words found in the candidate in order; 1 when the reference is empty. */
export function orderedRecall(reference: string[], candidate: string[]): number {
  if (reference.length === 0) return 1;
  return lcsLength(reference, candidate) / reference.length;
}
