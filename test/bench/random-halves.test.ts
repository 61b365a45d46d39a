import { describe, expect, it } from 'vitest';
import { randomHalves } from '../../bench/pdf/random-halves.ts';

describe('randomHalves (bench:pdf, the split gap beside chance)', () => {
  it('gives no gap between halves of equal scores', () => {
    const r = randomHalves(Array.from({ length: 20 }, () => 0.9), 0, 500);
    expect(r.draws).toBe(500);
    expect(r.p95).toBeCloseTo(0, 12);
    expect(r.atLeastObserved).toBe(1);
  });

  it('finds a gap between a half of ones and a half of zeros rare by chance', () => {
    const scores = [...Array.from({ length: 30 }, () => 1), ...Array.from({ length: 30 }, () => 0)];
    const r = randomHalves(scores, 1, 2000);
    expect(r.atLeastObserved).toBe(0);
    // Random halves of 30 ones and 30 zeros: the ones split about evenly, gaps near 0.13 or below.
    expect(r.p95).toBeGreaterThan(0.1);
    expect(r.p95).toBeLessThan(0.5);
  });

  it('is the same for the same seed and counts a gap of either sign', () => {
    const scores = Array.from({ length: 40 }, (_, i) => (i * 37) % 11 / 10);
    const a = randomHalves(scores, 0.05, 1000, 7);
    expect(randomHalves(scores, -0.05, 1000, 7)).toEqual(a);
    expect(a.atLeastObserved).toBeGreaterThan(0);
    expect(a.atLeastObserved).toBeLessThan(1);
  });

  it('parts an odd count into floor(n / 2) and the rest', () => {
    // Three documents: one of them against the other two.
    const r = randomHalves([0, 0, 1], 0, 300);
    // Gaps possible: |0 − 0.5| = 0.5 (a zero alone) or |1 − 0| = 1 (the one alone).
    expect([0.5, 1]).toContain(r.p95);
    expect(r.atLeastObserved).toBe(1);
  });

  it('draws nothing from fewer than two documents', () => {
    expect(randomHalves([0.5], 0).draws).toBe(0);
  });
});
