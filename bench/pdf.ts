/**
 * PDF reading measured against opendataloader-bench (issue 3, "Measured against the anchors"):
 * folio's PDF reader and a raw pdf.js-text baseline on every document of
 * `../shared/corpus/pdf-bench/` (the development split), scored in the same run with the
 * benchmark's NID, NID-S, TEDS, TEDS-S, MHS, MHS-S and Overall (bench/pdf/metrics.ts), beside
 * the figures the benchmark publishes for other engines.
 *
 *   npm run bench:pdf                       all 150 documents, mode fast
 *   npx tsx bench/pdf.ts --mode ocr|auto|fast
 *   npx tsx bench/pdf.ts --subset ci        the fixed CI subset (bench/pdf/ci-subset.ts)
 *   npx tsx bench/pdf.ts --quick            same as --subset ci (for `npm run bench -- --quick`)
 *   npx tsx bench/pdf.ts --json FILE        per-document scores and times of both engines
 *   npx tsx bench/pdf.ts --doc ID           one document: the first lines of each markdown + scores
 *   npx tsx bench/pdf.ts --worst N          the N lowest-Overall documents (folio) per metric
 *
 * After the table, the same figures on the tuning half and the checking half of the split
 * (corpus.ts benchHalf; docs/pdf.md "Tuning and checking halves"), both engines.
 *
 * Both engines run in this process, sequentially, on one core, after a warm-up on two
 * documents. s/page is per document (time / pages; the documents are single pages), median and
 * 95th percentile; "wall s/page" is total engine time / total pages (what OCR's parallel pages
 * change). Scoring time is measured apart and never counted as an engine's. Exits 0 unless an
 * engine throws something other than a ServiceError.
 */
import fs from 'node:fs';
import { CI_SUBSET } from './pdf/ci-subset.ts';
import { benchDocumentIds, benchHalf, readReference, type BenchHalf } from './pdf/corpus.ts';
import { randomHalves } from './pdf/random-halves.ts';
import type { DocumentScores, MetricName } from './pdf/metrics.ts';
import { runEngine, summarise, warmUp, type EngineRun, type EngineSummary, type PdfMode } from './pdf/runner.ts';

interface Args {
  mode: PdfMode;
  subset: 'all' | 'ci';
  json?: string;
  doc?: string;
  worst: number;
}

function usage(message: string): never {
  process.stderr.write(`bench:pdf: ${message}\nusage: tsx bench/pdf.ts [--mode fast|auto|ocr] [--subset ci|all] [--json FILE] [--doc ID] [--worst N]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'fast', subset: 'all', worst: 10 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) usage(`${flag} needs a value`);
      return v;
    };
    if (flag === '--mode') {
      const m = value();
      if (m !== 'fast' && m !== 'auto' && m !== 'ocr') usage(`--mode must be fast, auto or ocr, not ${m}`);
      args.mode = m;
    } else if (flag === '--subset') {
      const s = value();
      if (s !== 'ci' && s !== 'all') usage(`--subset must be ci or all, not ${s}`);
      args.subset = s;
    } else if (flag === '--quick') args.subset = 'ci';
    else if (flag === '--json') args.json = value();
    else if (flag === '--doc') args.doc = value();
    else if (flag === '--worst') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) usage('--worst needs a whole number');
      args.worst = n;
    } else usage(`unknown argument ${flag}`);
  }
  return args;
}

// ---------------------------------------------------------------------------------------------
// Printing

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const fmt = (v: number | null | undefined, digits = 3): string => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits));
const COLUMNS: MetricName[] = ['nid', 'nidS', 'teds', 'tedsS', 'mhs', 'mhsS', 'overall'];
const HEADERS = ['NID', 'NID-S', 'TEDS', 'TEDS-S', 'MHS', 'MHS-S', 'Overall'];

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
}

/** Published in the opendataloader-bench README vendored with these PDFs (memtruth 8d43d93). */
const PUBLISHED: { engine: string; overall: number; nid: number; teds: number; mhs: number; secondsPerPage: number }[] = [
  { engine: 'opendataloader 2.2.1', overall: 0.831, nid: 0.902, teds: 0.489, mhs: 0.739, secondsPerPage: 0.015 },
  { engine: 'opendataloader [hybrid] 2.2.1', overall: 0.907, nid: 0.934, teds: 0.928, mhs: 0.821, secondsPerPage: 0.463 },
  { engine: 'docling 2.84.0', overall: 0.882, nid: 0.898, teds: 0.887, mhs: 0.824, secondsPerPage: 0.762 },
  { engine: 'marker 1.10.1', overall: 0.861, nid: 0.89, teds: 0.808, mhs: 0.796, secondsPerPage: 53.932 },
  { engine: 'mineru 2.7.0', overall: 0.831, nid: 0.857, teds: 0.873, mhs: 0.743, secondsPerPage: 5.962 },
  { engine: 'pymupdf4llm 0.2.0', overall: 0.732, nid: 0.885, teds: 0.401, mhs: 0.412, secondsPerPage: 0.091 },
  { engine: 'markitdown 0.1.5', overall: 0.589, nid: 0.844, teds: 0.273, mhs: 0, secondsPerPage: 0.114 },
];

const WIDTHS = [34, 6, 6, 6, 6, 6, 6, 7, 9, 9, 9];

function printTable(summaries: EngineSummary[], mode: PdfMode): void {
  out(row(['engine', ...HEADERS, 's/page', 's/page', 'wall s/'], WIDTHS));
  out(row(['', '', '', '', '', '', '', '', 'median', 'p95', 'page'], WIDTHS));
  for (const s of summaries) {
    const label = s.engine === 'folio' ? `folio (mode ${mode})` : 'pdf.js raw text (baseline)';
    out(
      row(
        [label, ...COLUMNS.map((m) => fmt(s.mean[m])), fmt(s.medianSecondsPerPage, 4), fmt(s.p95SecondsPerPage, 4), fmt(s.wallSecondsPerPage, 4)],
        WIDTHS,
      ),
    );
  }
  out(row(['published, not measured here:', '', '', '', '', '', '', '', '', '', ''], WIDTHS));
  for (const p of PUBLISHED) {
    out(row([`  ${p.engine}`, fmt(p.nid), '–', fmt(p.teds), '–', fmt(p.mhs), '–', fmt(p.overall), fmt(p.secondsPerPage), '–', '–'], WIDTHS));
  }
  const first = summaries[0];
  if (first) {
    out();
    out(`documents: ${first.documents}; NID over ${first.count.nid}, TEDS over ${first.count.teds}, MHS over ${first.count.mhs}; Overall = mean per document of its defined NID/TEDS/MHS, then mean over documents.`);
  }
  out('Published rows: opendataloader-bench README at memtruth 8d43d93, all 200 documents (this is the 150-document development split), Apple M4.');
  for (const s of summaries) if (s.errors > 0) out(`${s.engine}: ${s.errors} document(s) refused (scored as empty output).`);
}

/** The run restricted to one half of the development split (corpus.ts benchHalf). */
function halfOf(run: EngineRun, half: BenchHalf): EngineRun {
  return { ...run, docs: run.docs.filter((d) => benchHalf(d.id) === half) };
}

/**
 * Both engines on the tuning half and on the checking half, side by side: a rule that helps the
 * first and not the second was fitted to the documents it was tuned on.
 */
function printHalves(runs: EngineRun[], mode: PdfMode): void {
  const widths = [44, 6, 6, 6, 6, 6, 6, 7];
  out(row(['half (rule: floor(id / 4) even → tuning)', ...HEADERS], widths));
  const overall: Partial<Record<BenchHalf, number>> = {};
  for (const half of ['tuning', 'checking'] as const) {
    for (const run of runs) {
      const s = summarise(halfOf(run, half));
      if (run.engine === 'folio') overall[half] = s.mean.overall ?? undefined;
      const label = `${half} (${s.documents}): ${run.engine === 'folio' ? `folio ${mode}` : 'pdf.js raw text'}`;
      out(row([label, ...COLUMNS.map((m) => fmt(s.mean[m]))], widths));
    }
  }
  if (overall.tuning !== undefined && overall.checking !== undefined) {
    const gap = overall.tuning - overall.checking;
    out(`folio Overall, tuning − checking: ${gap >= 0 ? '+' : ''}${gap.toFixed(3)} (the discipline: within 0.02)`);
  }
  for (const run of runs) printChance(run, mode);
}

/** The engine's split gap on Overall and NID beside the gaps of random halves (random-halves.ts). */
function printChance(run: EngineRun, mode: PdfMode): void {
  const parts: string[] = [];
  for (const metric of ['overall', 'nid'] as const) {
    const mean = (half: BenchHalf) => summarise(halfOf(run, half)).mean[metric];
    const [tuning, checking] = [mean('tuning'), mean('checking')];
    if (tuning === null || checking === null) continue;
    const gap = tuning - checking;
    const chance = randomHalves(run.docs.map((d) => d.scores[metric]).filter((v): v is number => v !== null), gap);
    if (chance.draws === 0) continue;
    parts.push(`${HEADERS[COLUMNS.indexOf(metric)]} ${gap >= 0 ? '+' : ''}${gap.toFixed(3)} (|gap| at least that in ${(chance.atLeastObserved * 100).toFixed(1)} %, p95 ${chance.p95.toFixed(3)})`);
  }
  const label = run.engine === 'folio' ? `folio ${mode}` : 'pdf.js raw text';
  if (parts.length > 0) out(`  ${label}, split gap against 10,000 random halves: ${parts.join('; ')}`);
}

function scoreLine(scores: DocumentScores): string {
  return COLUMNS.map((m, i) => `${HEADERS[i]} ${fmt(scores[m])}`).join('  ');
}

function printWorst(run: EngineRun, n: number): void {
  if (n === 0) return;
  const worst = [...run.docs].sort((a, b) => (a.scores.overall ?? 1) - (b.scores.overall ?? 1)).slice(0, n);
  out();
  out(`${n} lowest-Overall documents (folio):`);
  for (const d of worst) out(`  ${d.id}  ${scoreLine(d.scores)}  ${fmt(d.seconds / d.pages, 3)} s/page${d.error ? `  ERROR ${d.error}` : ''}`);
}

function firstLines(label: string, markdown: string, lines = 20): void {
  out(`--- ${label} (${markdown.length} chars), first ${lines} lines:`);
  for (const line of markdown.split('\n').slice(0, lines)) out(`  ${line.length > 160 ? `${line.slice(0, 160)}…` : line}`);
}

function printDoc(id: string, runs: EngineRun[]): void {
  firstLines('reference', readReference(id));
  for (const run of runs) {
    const d = run.docs[0];
    if (!d) continue;
    firstLines(run.engine, d.markdown);
    out(`    ${scoreLine(d.scores)}  ${fmt(d.seconds, 3)} s${d.error ? `  ERROR ${d.error}` : ''}${d.warning ? `  warning: ${d.warning.slice(0, 120)}` : ''}`);
  }
}

function writeJson(file: string, runs: EngineRun[], mode: PdfMode, summaries: EngineSummary[]): void {
  const ids = runs[0]?.docs.map((d) => d.id) ?? [];
  const documents = ids.map((id, i) => ({
    id,
    ...Object.fromEntries(
      runs.map((run) => {
        const d = run.docs[i];
        return [run.engine, d ? { scores: d.scores, seconds: d.seconds, pages: d.pages, ...(d.error ? { error: d.error } : {}), ...(d.warning ? { warning: d.warning } : {}) } : null];
      }),
    ),
  }));
  const summary = Object.fromEntries(summaries.map((s) => [s.engine, s]));
  fs.writeFileSync(file, `${JSON.stringify({ mode, summary, documents }, null, 2)}\n`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const all = benchDocumentIds();
  let ids = args.subset === 'ci' ? CI_SUBSET.filter((id) => all.includes(id)) : all;
  if (args.doc !== undefined) {
    if (!all.includes(args.doc)) usage(`no document ${args.doc} in the benchmark (ids look like ${all[0] ?? '01030000000001'})`);
    ids = [args.doc];
  }
  process.stderr.write(`bench:pdf: warming up…\n`);
  await warmUp('folio', args.mode, all);
  await warmUp('pdfjs-text', args.mode, all);
  const runs: EngineRun[] = [];
  for (const engine of ['folio', 'pdfjs-text'] as const) {
    process.stderr.write(`bench:pdf: ${engine} on ${ids.length} document(s)…\n`);
    runs.push(await runEngine(engine, args.mode, ids));
  }
  const summaries = runs.map(summarise);
  if (args.doc !== undefined) printDoc(args.doc, runs);
  else {
    out(`opendataloader-bench development split: ${ids.length} documents${args.subset === 'ci' ? ' (CI subset)' : ''}, one core, in-process, after a warm-up`);
    out();
    printTable(summaries, args.mode);
    out();
    printHalves(runs, args.mode);
    printWorst(runs[0] as EngineRun, args.worst);
  }
  const scoring = runs.reduce((s, r) => s + r.scoringSeconds, 0);
  out();
  out(`scoring took ${scoring.toFixed(1)} s for ${runs.length} × ${ids.length} documents (not counted in s/page).`);
  if (args.json) {
    writeJson(args.json, runs, args.mode, summaries);
    out(`per-document scores written to ${args.json}`);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:pdf failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
