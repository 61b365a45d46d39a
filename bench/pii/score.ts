/**
 * Scoring of bench:pii: a predicted span is right when it overlaps a gold span of its group; a
 * gold span is found when a predicted span of its group overlaps it.
 */
import { PII_GROUPS, type PiiGroup, type PiiSpan } from '../../src/parse/derive/pii/index.ts';
import type { LabelledSentence } from './dataset.ts';

export type Detector = (text: string) => Promise<PiiSpan[]>;

export interface Tally { tp: number; predicted: number; found: number; gold: number }
const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;

export async function score(sentences: LabelledSentence[], detect: Detector, name: string): Promise<Record<PiiGroup, Tally>> {
  const tally = Object.fromEntries(PII_GROUPS.map((g) => [g, { tp: 0, predicted: 0, found: 0, gold: 0 }])) as Record<PiiGroup, Tally>;
  for (const s of sentences) {
    const predicted = await detect(s.text);
    for (const p of predicted) {
      const t = tally[p.group];
      t.predicted += 1;
      if (s.spans.some((g) => g.group === p.group && overlaps(g, p))) t.tp += 1;
      else if (process.env.PII_BENCH_VERBOSE === name) console.log(`  FP ${p.group}: ${JSON.stringify(s.text.slice(p.start, p.end))} in ${JSON.stringify(s.text)}`);
    }
    for (const g of s.spans) {
      const t = tally[g.group];
      t.gold += 1;
      if (predicted.some((p) => p.group === g.group && overlaps(g, p))) t.found += 1;
      else if (process.env.PII_BENCH_VERBOSE === name) console.log(`  FN ${g.group}: ${JSON.stringify(s.text.slice(g.start, g.end))}`);
    }
  }
  return tally;
}

