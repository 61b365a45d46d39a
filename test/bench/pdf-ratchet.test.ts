/**
 * The PDF benchmark in CI (issue 3 "Tests"): folio's reader (mode fast) on the fixed subset of
 * opendataloader-bench (bench/pdf/ci-subset.ts), scored with the benchmark's metrics, must not
 * fall below the ratchet in bench/pdf/ratchet.json (Overall, NID, TEDS and MHS separately). The
 * lead raises the ratchet as the reader improves; the full run is `npm run bench:pdf`.
 *
 * The scorer guards itself too: every reference against itself scores 1 on every defined metric,
 * so a broken scorer cannot pass the ratchet silently.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CI_SUBSET, ciSubsetByRule } from '../../bench/pdf/ci-subset.ts';
import { benchDocumentIds, hasHeading, hasTable, readReference } from '../../bench/pdf/corpus.ts';
import { METRICS, meanScores, scoreDocument } from '../../bench/pdf/metrics.ts';
import { runEngine, warmUp } from '../../bench/pdf/runner.ts';

const ratchet = JSON.parse(fs.readFileSync(new URL('../../bench/pdf/ratchet.json', import.meta.url), 'utf8')) as {
  overall: number;
  nid: number;
  teds: number;
  mhs: number;
};

describe('PDF benchmark, CI subset', () => {
  const ids = [...CI_SUBSET];

  it('is the stated rule applied to the corpus: ≥ 40 documents, ≥ 12 with tables, ≥ 20 with headings', () => {
    const all = benchDocumentIds();
    expect(all.length).toBe(150);
    expect(ciSubsetByRule(all, (id) => hasTable(readReference(id)))).toEqual(ids);
    expect(ids.length).toBeGreaterThanOrEqual(40);
    expect(ids.filter((id) => hasTable(readReference(id))).length).toBeGreaterThanOrEqual(12);
    expect(ids.filter((id) => hasHeading(readReference(id))).length).toBeGreaterThanOrEqual(20);
  });

  it('scores every reference against itself as 1 on every defined metric', () => {
    for (const id of ids) {
      const reference = readReference(id);
      const scores = scoreDocument(reference, reference);
      for (const metric of METRICS) {
        const value = scores[metric];
        if (value !== null) expect(value, `${id} ${metric}`).toBeCloseTo(1, 12);
      }
      expect(scores.nid, id).not.toBeNull();
      expect(scores.teds === null, `${id} TEDS defined iff the reference has a table`).toBe(!hasTable(reference));
      expect(scores.mhs === null, `${id} MHS defined iff the reference has a heading`).toBe(!hasHeading(reference));
    }
  });

  it('folio (mode fast) stays at or above the ratchet', async () => {
    await warmUp('folio', 'fast', ids);
    const run = await runEngine('folio', 'fast', ids);
    const { mean } = meanScores(run.docs.map((d) => d.scores));
    const reached = { overall: mean.overall ?? 0, nid: mean.nid ?? 0, teds: mean.teds ?? 0, mhs: mean.mhs ?? 0 };
    const message = `reached ${JSON.stringify(reached)} vs ratchet ${JSON.stringify(ratchet)} (run \`npx tsx bench/pdf.ts --subset ci --worst 10\` for the worst documents)`;
    expect(reached.overall, message).toBeGreaterThanOrEqual(ratchet.overall);
    expect(reached.nid, message).toBeGreaterThanOrEqual(ratchet.nid);
    expect(reached.teds, message).toBeGreaterThanOrEqual(ratchet.teds);
    expect(reached.mhs, message).toBeGreaterThanOrEqual(ratchet.mhs);
  });
});
