/**
 * The split's gap beside chance: how far apart two halves of the same documents score when the
 * halves are drawn at random. Pages differ in difficulty (raw pdf.js text, which no rule was
 * fitted to, scores the checking half lower too), so a gap between the tuning and checking halves
 * is overfitting only where it is larger than random halves of the same documents give.
 */
import { mulberry32 } from '../../test/helpers/prng.ts';

export interface RandomHalves {
  /** Random partitions drawn. */
  draws: number;
  /** The 95th percentile of |mean(first half) − mean(second half)| over the draws. */
  p95: number;
  /** The share of draws whose |gap| is at least the observed one's. */
  atLeastObserved: number;
}

/** `scores`: one per document; each draw parts them into floor(n / 2) and the rest. */
export function randomHalves(scores: readonly number[], observedGap: number, draws = 10_000, seed = 16): RandomHalves {
  const n = scores.length;
  const k = Math.floor(n / 2);
  if (k === 0 || draws <= 0) return { draws: 0, p95: Number.NaN, atLeastObserved: Number.NaN };
  const total = scores.reduce((s, v) => s + v, 0);
  const next = mulberry32(seed);
  const order = scores.map((_, i) => i);
  const gaps: number[] = [];
  let atLeast = 0;
  const observed = Math.abs(observedGap) - 1e-12;
  for (let d = 0; d < draws; d++) {
    // A partial Fisher–Yates shuffle: the first k places are a uniform random half.
    let first = 0;
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(next() * (n - i));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
      first += scores[order[i] as number] as number;
    }
    const gap = Math.abs(first / k - (total - first) / (n - k));
    gaps.push(gap);
    if (gap >= observed) atLeast += 1;
  }
  gaps.sort((a, b) => a - b);
  return { draws, p95: gaps[Math.min(gaps.length - 1, Math.floor(0.95 * gaps.length))] as number, atLeastObserved: atLeast / draws };
}
