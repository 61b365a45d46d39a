/**
 * Server benchmark (`npx tsx bench/server.ts [--quick] [--baseline=REF]`).
 *
 * Builds, then starts the compiled server as `npm start` does (`node dist/src/main.js serve`: free
 * port, temp DATA_DIR, an API key made with the CLI) as a child process, then from this process:
 *   1. autocannon, 16 connections, POST /v2/parse with a 20 KB HTML upload (the multipart body is
 *      built once) → requests/s and latency percentiles. The same load runs, in the same run,
 *      against a baseline build: git REF (default: the last commit whose parse pool ran worker
 *      threads, before parse isolation) exported with `git archive` into a temp dir and compiled
 *      there. After 64 warm-up requests each, the two servers take 6 turns of 4 s each (4 of 2 s
 *      with --quick) in ABBA order, so that the drifting load of a shared machine falls on both;
 *      the table shows each side's mean and median and the change;
 *   2. one 50 MB HTML upload streamed to the current server while its RSS (/proc/<pid>/status
 *      VmRSS, the server and its parse processes) is sampled every 20 ms → baseline, peak while the body arrives, peak until the answer, and
 *      the growth compared with the file size.
 * Prints a small table and exits 0 (1 when a phase fails).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer, treeRssBytes } from './served.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
const mainOf = (dir: string) => path.join(dir, 'dist', 'src', 'main.js');

/** The same build `npm start` runs first, so the benchmark measures what users run. */
function build(dir = root): void {
  const run = spawnSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`build failed in ${dir}: ${run.stdout}${run.stderr}`);
}

function git(args: string[]): string {
  const run = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout.trim();
}

/** The commit before parse isolation: the parent of the last commit that took worker threads out of the pool. */
function defaultBaseline(): string {
  const change = git(['log', '-1', '--format=%H', '-S', "from 'node:worker_threads'", '--', 'src/limits/parse-pool.ts']);
  if (!change) throw new Error('no commit changed the parse pool from worker threads; pass --baseline=REF');
  return `${change}^`;
}

/** REF's tree, exported into a temp dir beside this checkout's node_modules, and compiled. */
function buildBaseline(ref: string, into: string): string {
  const commit = git(['rev-parse', '--short', ref]);
  const archive = spawnSync('sh', ['-c', `git archive ${commit} | tar -x -C "${into}"`], { cwd: root, encoding: 'utf8' });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(into, 'node_modules'));
  build(into);
  return commit;
}
const baselineArg = process.argv.find((a) => a.startsWith('--baseline='))?.slice('--baseline='.length);
const quick = process.argv.includes('--quick');
/** Seconds per turn; turns alternate between the baseline and the current build, in ABBA order. */
const DURATION_S = quick ? 2 : 4;
const TURNS = quick ? 4 : 6;
const CONNECTIONS = 16;
const WARMUP_REQUESTS = 4 * CONNECTIONS;
const SMALL_BYTES = 20 * 1024;
const BIG_BYTES = 50 * 1024 * 1024;
const BOUNDARY = 'folio-bench-boundary-Q2xhdWRlQmVuY2g';
const MB = 1024 * 1024;

/** A plausible article page of exactly `size` bytes: headings, paragraphs, a table, links. */
function articleHtml(size: number): Buffer {
  const section = (i: number) =>
    `<h2>Section ${i}: results</h2>\n<p>Paragraph ${i} of the benchmark article, with <a href="https://example.org/ref/${i}">a reference</a> and <em>some emphasis</em>. ` +
    'The parser has to keep reading order, headings and tables intact while cleaning the page.</p>\n' +
    `<table><thead><tr><th>Metric</th><th>Value</th><th>Unit</th></tr></thead><tbody><tr><td>run ${i}</td><td>${(i * 3.7).toFixed(1)}</td><td>ms</td></tr><tr><td>size</td><td>${i * 128}</td><td>KB</td></tr></tbody></table>\n`;
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark article</title></head><body><main><h1>Benchmark article</h1>\n';
  const tail = '</main></body></html>\n';
  let body = '';
  for (let i = 1; Buffer.byteLength(head + body + section(i) + tail) <= size; i++) body += section(i);
  const html = head + body + tail;
  return Buffer.concat([Buffer.from(html), Buffer.alloc(size - Buffer.byteLength(html), 0x20)]);
}

function partHead(filename: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/html\r\n\r\n`;
}
const PART_TAIL = `\r\n--${BOUNDARY}--\r\n`;

function createKey(dataDir: string, dir = root): string {
  const run = spawnSync(process.execPath, [mainOf(dir), 'keys', 'create', '--team', 'bench'], { cwd: dir, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
  const key = run.stdout.trim();
  if (run.status !== 0 || !/^folio_/.test(key)) throw new Error(`keys create failed: ${run.stderr}`);
  return key;
}

function loadOptions(url: string, key: string) {
  const body = Buffer.concat([Buffer.from(partHead('article.html')), articleHtml(SMALL_BYTES), Buffer.from(PART_TAIL)]);
  return {
    url: `${url}/v2/parse`,
    method: 'POST' as const,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  };
}

/**
 * Warm-up, not measured: every parse process compiles its modules on first use. A fixed number
 * of requests, not a duration: a timed run ends by dropping its in-flight requests.
 */
async function warmUp(url: string, key: string): Promise<void> {
  const base = loadOptions(url, key);
  const check = await fetch(base.url, { method: 'POST', headers: base.headers, body: new Uint8Array(base.body) });
  if (check.status !== 200) throw new Error(`the 20 KB upload was answered ${check.status}: ${await check.text()}`);
  await autocannon({ ...base, amount: WARMUP_REQUESTS });
}

function loadTest(url: string, key: string) {
  return autocannon({ ...loadOptions(url, key), duration: DURATION_S });
}

interface UploadMemory {
  status: number;
  baseline: number;
  peakDuringUpload: number;
  peakUntilAnswer: number;
  uploadMs: number;
  totalMs: number;
}

/** Streams a 50 MB HTML file (real content, then a comment as padding) and samples the server's RSS. */
async function bigUpload(url: string, key: string, pid: number, settle: () => Promise<void>): Promise<UploadMemory> {
  // The timed run dropped its in-flight requests (and so restarted workers): wait until parses
  // are answered again, so that the upload measures the upload and its parse only.
  await settle();
  await new Promise((r) => setTimeout(r, 500));
  const baseline = treeRssBytes(pid);
  let peak = baseline;
  let peakDuringUpload = baseline;
  let uploading = true;
  const sampler = setInterval(() => {
    const rss = treeRssBytes(pid);
    peak = Math.max(peak, rss);
    if (uploading) peakDuringUpload = Math.max(peakDuringUpload, rss);
  }, 20);

  const start = '<!doctype html><html><head><title>Fifty megabytes</title></head><body><h1>Fifty megabytes</h1><p>Real content first, then a comment as padding.</p><!--';
  const end = '--></body></html>';
  const head = Buffer.from(partHead('fifty.html') + start);
  const tail = Buffer.from(end + PART_TAIL);
  const padding = BIG_BYTES - start.length - end.length;
  const t0 = performance.now();
  let uploadMs = 0;
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${url}/v2/parse`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(head.length + padding + tail.length),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(head);
    const chunk = Buffer.alloc(256 * 1024, 0x2e);
    let left = padding;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail, () => {
        uploading = false;
        uploadMs = performance.now() - t0;
      });
    };
    pump();
  });
  const totalMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 40));
  clearInterval(sampler);
  return { status, baseline, peakDuringUpload, peakUntilAnswer: peak, uploadMs, totalMs };
}

function row(label: string, value: string): string {
  return `  ${label.padEnd(44)}${value}`;
}

type Server = Awaited<ReturnType<typeof startServer>>;
type LoadResult = Awaited<ReturnType<typeof loadTest>>;

async function stopServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  const baseDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-base-'));
  const baseTree = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-tree-'));
  let server: Server | undefined;
  let baseline: Server | undefined;
  try {
    build();
    const ref = baselineArg ?? defaultBaseline();
    const commit = buildBaseline(ref, baseTree);
    const key = createKey(dataDir);
    const baseKey = createKey(baseDataDir, baseTree);
    baseline = await startServer(mainOf(baseTree), baseTree, baseDataDir);
    server = await startServer(mainOf(root), root, dataDir);
    // Idle: both started, workers loaded, nothing parsed yet.
    await new Promise((r) => setTimeout(r, 1000));
    const idle = treeRssBytes(server.pid);
    const baseIdle = treeRssBytes(baseline.pid);
    // Warm-up of each, then turns in ABBA order, so that the machine's load (shared, and it
    // drifts) falls on both sides alike.
    await warmUp(baseline.url, baseKey);
    await warmUp(server.url, key);
    const runs: { base: LoadResult[]; current: LoadResult[] } = { base: [], current: [] };
    for (let turn = 0; turn < TURNS; turn++) {
      const order = turn % 2 === 0 ? (['base', 'current'] as const) : (['current', 'base'] as const);
      for (const side of order) runs[side].push(side === 'base' ? await loadTest(baseline.url, baseKey) : await loadTest(server.url, key));
    }
    const baseLoaded = treeRssBytes(baseline.pid);
    const loaded = treeRssBytes(server.pid);
    await stopServer(baseline);
    baseline = undefined;
    const small = Buffer.concat([Buffer.from(partHead('article.html')), articleHtml(SMALL_BYTES), Buffer.from(PART_TAIL)]);
    const settle = async () => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
      await Promise.all([1, 2, 3, 4].map(() => fetch(`${server?.url}/v2/parse`, { method: 'POST', headers, body: small }).then((r) => r.arrayBuffer())));
    };
    const memory = await bigUpload(server.url, key, server.pid, settle);
    const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
    const rps = (rs: LoadResult[]) => mean(rs.map((r) => r.requests.average));
    const median = (rs: LoadResult[]) => {
      const xs = rs.map((r) => r.requests.average).sort((a, b) => a - b);
      return xs.length % 2 ? (xs[(xs.length - 1) / 2] as number) : ((xs[xs.length / 2 - 1] as number) + (xs[xs.length / 2] as number)) / 2;
    };
    const p = (rs: LoadResult[], k: 'p50' | 'p99') => mean(rs.map((r) => r.latency[k])).toFixed(0);
    const count = (rs: LoadResult[]) => `${rs.reduce((a, r) => a + r['2xx'], 0)} / ${rs.reduce((a, r) => a + r.non2xx, 0)} / ${rs.reduce((a, r) => a + r.errors, 0)}`;
    const change = (rps(runs.current) - rps(runs.base)) / rps(runs.base);
    const col = (a: string, b: string) => `${a.padEnd(Math.max(24, a.length + 2))}${b}`;
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    const lines = [
      `folio server benchmark (${os.cpus().length} CPUs, Node ${process.version}${quick ? ', --quick' : ''})`,
      '',
      `POST /v2/parse, 20 KB HTML upload, ${CONNECTIONS} connections, ${TURNS} turns of ${DURATION_S} s per side (ABBA order) after ${WARMUP_REQUESTS} warm-up requests each`,
      row('', col(`baseline ${commit}`, 'current (parse processes)')),
      row('requests/s (mean of the turns)', col(rps(runs.base).toFixed(1), `${rps(runs.current).toFixed(1)} (${pct(change)})`)),
      row('requests/s (median of the turns)', col(median(runs.base).toFixed(1), `${median(runs.current).toFixed(1)} (${pct(median(runs.current) / median(runs.base) - 1)})`)),
      row('requests/s per turn', col(runs.base.map((r) => r.requests.average.toFixed(1)).join(', '), runs.current.map((r) => r.requests.average.toFixed(1)).join(', '))),
      row('latency p50 / p99', col(`${p(runs.base, 'p50')} / ${p(runs.base, 'p99')} ms`, `${p(runs.current, 'p50')} / ${p(runs.current, 'p99')} ms`)),
      row('requests (2xx / non-2xx / errors)', col(count(runs.base), count(runs.current))),
      row('RSS idle after start (server + children)', col(fmt(baseIdle), fmt(idle))),
      row('RSS after the load (server + children)', col(fmt(baseLoaded), fmt(loaded))),
      '',
      `One 50 MB HTML upload to the current server (answered ${memory.status}), RSS (server + children) sampled every 20 ms`,
      row('RSS baseline before the upload', fmt(memory.baseline)),
      row('peak RSS while the body arrives', `${fmt(memory.peakDuringUpload)} (+${fmt(memory.peakDuringUpload - memory.baseline)}, ${((memory.peakDuringUpload - memory.baseline) / BIG_BYTES).toFixed(2)}× the file)`),
      row('peak RSS until the answer (incl. parse)', `${fmt(memory.peakUntilAnswer)} (+${fmt(memory.peakUntilAnswer - memory.baseline)}, ${((memory.peakUntilAnswer - memory.baseline) / BIG_BYTES).toFixed(2)}× the file)`),
      row('upload time / time to answer', `${memory.uploadMs.toFixed(0)} / ${memory.totalMs.toFixed(0)} ms`),
    ];
    if (change < -0.1) lines.push('', `WARNING: small-file throughput fell by ${(-change * 100).toFixed(1)}% against the baseline (the bound is 10%).`);
    process.stdout.write(`${lines.join('\n')}\n`);
    const failed = [...runs.base, ...runs.current].some((r) => r.non2xx !== 0 || r.errors !== 0);
    return !failed && memory.status === 200 ? 0 : 1;
  } finally {
    await stopServer(baseline);
    await stopServer(server);
    for (const dir of [dataDir, baseDataDir, baseTree]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench/server.ts failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
