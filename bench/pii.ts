/**
 * bench:pii (docs/pii.md): per-group precision and recall of the baseline (plain regexes), `fast`
 * and `aggressive` on the labelled set (bench/pii/dataset.ts), tuning and held-out parts side by
 * side; then redaction throughput on the markdown of the shared corpus (one core).
 *
 * Matching: a predicted span is correct when it overlaps a gold span of the same group; a gold
 * span is found when a predicted span of its group overlaps it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPii, PII_GROUPS, piiSettings, redactText, type PiiGroup } from '../src/parse/derive/pii/index.ts';
import { baselineSpans } from './pii/baseline.ts';
import { labelledSet } from './pii/dataset.ts';
import { freeTextSet } from './pii/free-text.ts';
import { freeTextTuningSet } from './pii/free-text-tuning.ts';
import { score, type Detector } from './pii/score.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, '..', 'shared', 'corpus');
const ALL = new Set<PiiGroup>(PII_GROUPS);

const detectors: Record<string, Detector> = {
  baseline: async (text) => baselineSpans(text, ALL),
  fast: (text) => findPii(text, { mode: 'fast', groups: ALL }),
  aggressive: (text) => findPii(text, { mode: 'aggressive', groups: ALL }),
};

const fmt = (n: number, d: number): string => (d === 0 ? '  -  ' : (n / d).toFixed(3));

async function accuracy(): Promise<void> {
  const set = labelledSet();
  const parts = {
    tuning: set.filter((s) => s.part === 'tuning'),
    'held-out': set.filter((s) => s.part === 'held-out'),
    'free text, tuning (hand-written, tuned on)': freeTextTuningSet(),
    'free text, held-out (hand-written, never tuned on)': freeTextSet(),
  };
  console.log(`labelled set: ${set.length} sentences (tuning ${parts.tuning.length}, held-out ${parts['held-out'].length}); P = precision, R = recall`);
  for (const [partName, sentences] of Object.entries(parts)) {
    const results = Object.fromEntries(await Promise.all(Object.entries(detectors).map(async ([n, d]) => [n, await score(sentences, d, n)] as const)));
    console.log(`\n${partName}`);
    console.log(`group      gold | ${Object.keys(detectors).map((n) => n.padEnd(13)).join(' | ')}`);
    console.log(`                | ${Object.keys(detectors).map(() => '  P      R   ').join(' | ')}`);
    for (const g of PII_GROUPS) {
      const cells = Object.keys(detectors).map((n) => {
        const t = results[n]?.[g];
        return t ? `${fmt(t.tp, t.predicted)}  ${fmt(t.found, t.gold)}` : '';
      });
      console.log(`${g.padEnd(10)} ${String(results.fast?.[g].gold ?? 0).padStart(4)} | ${cells.map((c) => c.padEnd(13)).join(' | ')}`);
    }
  }
}

function corpusMarkdown(): string[] {
  return fs.readdirSync(corpus, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => fs.readFileSync(path.join(corpus, f), 'utf8'));
}

async function throughput(): Promise<void> {
  const docs = corpusMarkdown();
  const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
  console.log(`\nthroughput on the corpus markdown: ${docs.length} files, ${(bytes / 1e6).toFixed(2)} MB, one core`);
  for (const mode of ['fast', 'aggressive'] as const) {
    const settings = piiSettings({ mode, replaceStyle: 'tag' });
    if (!settings) continue;
    // One warm-up pass (JIT, lazy module loading), then the best of three timed passes. CPU time
    // is reported beside wall time: on a shared machine the wall clock also counts other jobs.
    const rounds = mode === 'fast' ? 4 : 2;
    let best = { wall: Infinity, cpu: Infinity };
    let spans = 0;
    for (let round = 0; round < rounds; round += 1) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      spans = 0;
      for (const d of docs) {
        const { counts } = await redactText(d, settings);
        spans += Object.values(counts).reduce((a, b) => a + b, 0);
      }
      const c = process.cpuUsage(c0);
      if (round > 0) best = { wall: Math.min(best.wall, (performance.now() - t0) / 1000), cpu: Math.min(best.cpu, (c.user + c.system) / 1e6) };
    }
    console.log(`${mode.padEnd(10)} ${(bytes / 1e6 / best.cpu).toFixed(1).padStart(6)} MB/s of CPU time, ${(bytes / 1e6 / best.wall).toFixed(1).padStart(6)} MB/s wall  (${spans} spans redacted)`);
  }
}

await accuracy();
if (!process.env.PII_BENCH_VERBOSE) await throughput();
