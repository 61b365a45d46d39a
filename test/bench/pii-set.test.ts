/**
 * bench:pii's labelled set and its figures: the set is large enough, both parts hold every
 * group, gold spans are where the text is, and the targets hold on the held-out part
 * (a ratchet: a detector change that loses them fails here, not only in the printed table).
 */
import { describe, expect, it } from 'vitest';
import { labelledSet } from '../../bench/pii/dataset.ts';
import { score } from '../../bench/pii/score.ts';
import { findPii, PII_GROUPS, type PiiGroup } from '../../src/parse/derive/pii/index.ts';

const set = labelledSet();
const ALL = new Set<PiiGroup>(PII_GROUPS);

describe('the labelled PII set', () => {
  it('has at least 500 sentences, split by template into tuning and held-out parts, each with every group', () => {
    expect(set.length).toBeGreaterThanOrEqual(500);
    for (const part of ['tuning', 'held-out'] as const) {
      const sentences = set.filter((s) => s.part === part);
      expect(sentences.every((s) => (s.template % 4 === 3) === (part === 'held-out'))).toBe(true);
      const groups = new Set(sentences.flatMap((s) => s.spans.map((g) => g.group)));
      expect([...groups].sort()).toEqual([...PII_GROUPS].sort());
    }
    expect(labelledSet().map((s) => s.text)).toEqual(set.map((s) => s.text)); // deterministic
  });

  it('gold spans lie inside their sentence and hold no surrounding space', () => {
    for (const s of set) {
      for (const g of s.spans) {
        const value = s.text.slice(g.start, g.end);
        expect(value.length).toBeGreaterThan(0);
        expect(value).toBe(value.trim());
      }
    }
  });

  it('held-out part: fast meets P >= 0.98 and R >= 0.95 on EMAIL/PHONE/FINANCIAL/SECRET; aggressive R >= 0.85 at P >= 0.75 on PERSON/LOCATION', async () => {
    const heldOut = set.filter((s) => s.part === 'held-out');
    const fast = await score(heldOut, (t) => findPii(t, { mode: 'fast', groups: ALL }), 'fast');
    for (const g of ['EMAIL', 'PHONE', 'FINANCIAL', 'SECRET'] as const) {
      const t = fast[g];
      expect(t.tp / t.predicted, `${g} precision`).toBeGreaterThanOrEqual(0.98);
      expect(t.found / t.gold, `${g} recall`).toBeGreaterThanOrEqual(0.95);
    }
    const aggressive = await score(heldOut, (t) => findPii(t, { mode: 'aggressive', groups: ALL }), 'aggressive');
    for (const g of ['PERSON', 'LOCATION'] as const) {
      const t = aggressive[g];
      expect(t.tp / t.predicted, `${g} precision`).toBeGreaterThanOrEqual(0.75);
      expect(t.found / t.gold, `${g} recall`).toBeGreaterThanOrEqual(0.85);
    }
  }, 120_000);
});
