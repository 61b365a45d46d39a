/**
 * Load benchmark (`npm run bench:load [-- --seconds=N --clients=N --parses=N --quick]`; docs/scale-out.md).
 *
 * Builds, then starts both setups side by side, loopback only:
 *   A. **one instance** on SQLite (the default): `node bin/folio.js serve` in its own process, a
 *      temp DATA_DIR, FOLIO_MAX_CONCURRENT_PARSES = P;
 *   B. **two instances** on one PostgreSQL and one Redis (throw-away servers, as the tests start
 *      them: test/helpers/postgres.ts, redis.ts), each its own process with P/2 parse processes —
 *      the same total, since both share this machine's cores; the clients alternate between them as
 *      a round-robin load balancer would.
 * and loads them in turns A B B A (S/2 seconds each; the idle setup waits), so that the drifting
 * load of a shared machine falls on both.
 * Each setup: the key is made with the CLI (`folio keys create`) and the team's plan set with it
 * (`folio teams set`: credits unlimited, a rate far above what the load reaches, and as many
 * concurrent jobs as the queue bound — the parse processes are the bound: with REDIS_URL a team's
 * places are shared by both instances, and a team limit equal to the pair's parse processes lets
 * both places sit on the instance whose process is busy while the other's is idle), the
 * queue bounds and the uploads-in-flight bounds per address and per key raised (the clients share
 * one address and one key) so that every client can wait for a parse process instead of being
 * refused; the parse timeout stays the default (30 s, the wait in the queue included);
 * a warm-up of each document kind, then per turn C clients (64) each sending one upload after the
 * other for S/2 seconds (answers arriving after the turn are not counted), mixing a small HTML
 * page (~26 KB) with ~1 MB PDF and DOCX files from the corpus (read in place). Prints per setup:
 * throughput, p50/p99 latency by kind, answers by status, peak RSS of each instance (its process
 * and its parse processes); then "shared state cost: X% throughput" against the target of at most
 * 15%. Exits 1 when a setup could not run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../test/helpers/postgres.ts';
import { startRedis } from '../test/helpers/redis.ts';
import { loggedUrl, treeRssBytes } from './served.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, '..', 'shared', 'corpus');
const folioBin = path.join(root, 'bin', 'folio.js');

function flag(name: string, env: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[env];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} (or ${env}) must be a positive whole number, got ${raw}`);
  return n;
}

/** Seconds of measured load per setup, in two turns (`--quick`, as `npm run bench -- --quick` passes it: 16). */
const SECONDS = flag('seconds', 'FOLIO_BENCH_LOAD_SECONDS', process.argv.includes('--quick') ? 16 : 40);
/** Clients sending at once. */
const CLIENTS = flag('clients', 'FOLIO_BENCH_LOAD_CLIENTS', 64);
/** Parse processes in total: all on the one instance, half on each of the two. */
const PARSES = flag('parses', 'FOLIO_BENCH_LOAD_PARSES', 2);
if (PARSES % 2 !== 0) throw new Error('--parses must be even: the two instances split it');
const TARGET_PERCENT = 15;
const TEAM = 'bench-load';
const RATE_PER_MINUTE = 1_000_000;
/** Waiting parses and uploads in flight allowed, per instance, team, address and key: every client may wait, none is refused for the queue. */
const QUEUE = String(CLIENTS * 2);

interface Doc {
  kind: 'html' | 'pdf' | 'docx';
  file: string;
  contentType: string;
  body: Buffer;
}

const BOUNDARY = 'folio-bench-load-8d1c2a';

function document(kind: Doc['kind'], relative: string, contentType: string): Doc {
  const file = path.join(corpus, relative);
  const data = fs.readFileSync(file);
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  return { kind, file: relative, contentType, body: Buffer.concat([head, data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]) };
}

const DOCS = {
  html: document('html', 'html/markitdown/test_blog.html', 'text/html'),
  pdf: document('pdf', 'pdf/pdfjs/tracemonkey.pdf', 'application/pdf'),
  docx: document('docx', 'office/docx/word-extractor-test19.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
};
/** Each client's sequence: 6 HTML pages, then a PDF, … then a DOCX (75% / 12.5% / 12.5%). */
const MIX: Doc[] = [DOCS.html, DOCS.html, DOCS.html, DOCS.pdf, DOCS.html, DOCS.html, DOCS.html, DOCS.docx];

function build(): void {
  const run = spawnSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`build failed: ${run.stdout}${run.stderr}`);
}

/** `folio …` (the CLI as an operator runs it) with this env; its stdout. */
function cli(args: string[], env: NodeJS.ProcessEnv): string {
  const run = spawnSync(process.execPath, [folioBin, ...args], { cwd: root, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`folio ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout.trim();
}

interface Instance {
  child: ChildProcess;
  url: string;
  pid: number;
  peakRss: number;
}

async function serve(env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, [folioBin, 'serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (c: Buffer) => (errors = (errors + c.toString('utf8')).slice(-4000)));
  const url = await loggedUrl(child, 60_000, () => errors);
  return { child, url, pid: child.pid ?? 0, peakRss: 0 };
}

async function stop(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => instance.child.once('exit', () => resolve()));
  instance.child.kill('SIGTERM');
  await exited;
}

interface Outcome {
  status: number | 'network';
  ms: number;
  /** The error's code and message, for an answer other than 200. */
  error?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });

function send(url: string, key: string, doc: Doc): Promise<Outcome> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      `${url}/v2/parse`,
      { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(doc.body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        if (res.statusCode === 200) res.resume();
        else res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body = Buffer.concat(chunks).toString('utf8');
          let error: string | undefined;
          try {
            const json = JSON.parse(body) as { code?: string; error?: string };
            error = `${json.code ?? ''}: ${json.error ?? ''}`;
          } catch {
            error = body.slice(0, 200);
          }
          resolve({ status, ms: performance.now() - t0, ...(status === 200 ? {} : { error }) });
        });
        res.on('error', () => resolve({ status: 'network', ms: performance.now() - t0 }));
      },
    );
    req.setTimeout(300_000, () => req.destroy(new Error('no answer within 300 s')));
    req.on('error', (err) => resolve({ status: 'network', ms: performance.now() - t0, error: err.message }));
    req.end(doc.body);
  });
}

interface PhaseResult {
  name: string;
  seconds: number;
  ok: number;
  statuses: Map<string, number>;
  latencies: Map<Doc['kind'] | 'all', number[]>;
  /** One error message per status other than 200. */
  samples: Map<string, string>;
  instances: Instance[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Warm-up (`warm`), then CLIENTS closed-loop clients for `seconds`; the answers that arrive within the window count. */
async function load(name: string, instances: Instance[], key: string, seconds: number, warm: boolean): Promise<PhaseResult> {
  for (const instance of warm ? instances : []) {
    for (const doc of [DOCS.html, DOCS.pdf, DOCS.docx, DOCS.html]) {
      const r = await send(instance.url, key, doc);
      if (r.status !== 200) throw new Error(`${name}: warm-up ${doc.kind} answered ${r.status}`);
    }
  }
  const sampler = setInterval(() => {
    for (const i of instances) i.peakRss = Math.max(i.peakRss, treeRssBytes(i.pid));
  }, 100);
  const statuses = new Map<string, number>();
  const samples = new Map<string, string>();
  const latencies = new Map<Doc['kind'] | 'all', number[]>([['all', []], ['html', []], ['pdf', []], ['docx', []]]);
  let ok = 0;
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const client = async (c: number) => {
    let n = c; // clients start at different points of the mix
    while (performance.now() < until) {
      const doc = MIX[n % MIX.length] ?? DOCS.html;
      n += 1;
      const instance = instances[next++ % instances.length] ?? instances[0];
      if (!instance) return;
      const r = await send(instance.url, key, doc);
      if (performance.now() > until) return; // answered after the window: not counted
      const s = String(r.status);
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
      if (r.error !== undefined && !samples.has(s)) samples.set(s, r.error.slice(0, 160));
      if (r.status === 200) {
        ok += 1;
        latencies.get('all')?.push(r.ms);
        latencies.get(doc.kind)?.push(r.ms);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  clearInterval(sampler);
  for (const l of latencies.values()) l.sort((a, b) => a - b);
  return { name, seconds, ok, statuses, latencies, samples, instances };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (v: number) => (Number.isNaN(v) ? '-' : `${v.toFixed(0)} ms`);

function report(r: PhaseResult): void {
  console.log(`\n${r.name}`);
  console.log(`  throughput     ${(r.ok / r.seconds).toFixed(2)} parses/s (${r.ok} answered 200 in ${r.seconds} s)`);
  for (const kind of ['all', 'html', 'pdf', 'docx'] as const) {
    const l = r.latencies.get(kind) ?? [];
    console.log(`  ${kind.padEnd(5)} n=${String(l.length).padEnd(5)} p50 ${ms(percentile(l, 50)).padStart(8)}   p99 ${ms(percentile(l, 99)).padStart(8)}`);
  }
  const statuses = [...r.statuses.entries()].sort().map(([s, n]) => `${s}: ${n}`).join(', ');
  const errors = [...r.statuses.entries()].filter(([s]) => s !== '200').reduce((sum, [, n]) => sum + n, 0);
  console.log(`  answers        ${statuses || 'none'} (errors: ${errors})`);
  for (const [s, message] of r.samples) console.log(`    ${s}: ${message}`);
  r.instances.forEach((i, n) => console.log(`  peak RSS #${n + 1}    ${mb(i.peakRss)} (the server and its parse processes)`));
}

function baseEnv(dataDir: string, parses: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    FOLIO_MAX_CONCURRENT_PARSES: String(parses),
    FOLIO_MAX_QUEUED_PARSES: QUEUE,
    FOLIO_MAX_QUEUED_PER_TEAM: QUEUE,
    // All clients come from 127.0.0.1 with one key: the per-address and per-key upload bounds
    // (8 and 16 by default) are for many callers, not one load generator.
    FOLIO_MAX_UPLOADS_PER_CLIENT: QUEUE,
    FOLIO_MAX_UPLOADS_PER_KEY: QUEUE,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
  };
}

/** The bench team's key and plan, made with the CLI on the store `env` names. */
function keyFor(env: NodeJS.ProcessEnv, concurrent: number): string {
  const key = cli(['keys', 'create', '--team', TEAM], env);
  cli(['teams', 'set', TEAM, '--credits', 'unlimited', '--rate-per-minute', String(RATE_PER_MINUTE), '--max-concurrent', String(concurrent)], env);
  return key;
}

interface Setup {
  name: string;
  instances: Instance[];
  key: string;
  close(): Promise<void>;
}

async function single(): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-load-'));
  const env = baseEnv(dataDir, PARSES);
  const key = keyFor(env, Number(QUEUE));
  const instance = await serve(env);
  return {
    name: `one instance, SQLite, ${PARSES} parse processes`,
    instances: [instance],
    key,
    async close() {
      await stop(instance);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function shared(): Promise<Setup> {
  const [cluster, redis] = await Promise.all([startPostgres(), startRedis()]);
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-load-')));
  const instances: Instance[] = [];
  const close = async () => {
    for (const i of instances) await stop(i);
    await Promise.all([cluster.stop(), redis.stop()]);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await cluster.createDatabase();
    const envs = dirs.map((d) => ({ ...baseEnv(d, PARSES / 2), DATABASE_URL: databaseUrl, REDIS_URL: redis.url }));
    const first = envs[0] ?? baseEnv(os.tmpdir(), 1);
    cli(['migrate'], first);
    // The team's concurrency is per instance today (in memory): P/2 on each is P for the team.
    const key = keyFor(first, Number(QUEUE));
    for (const env of envs) instances.push(await serve(env));
    return { name: `two instances, PostgreSQL + Redis, ${PARSES / 2} parse process(es) each`, instances, key, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function merge(name: string, turns: PhaseResult[]): PhaseResult {
  const merged: PhaseResult = { name, seconds: 0, ok: 0, statuses: new Map(), latencies: new Map(), samples: new Map(), instances: turns[0]?.instances ?? [] };
  for (const t of turns) {
    merged.seconds += t.seconds;
    merged.ok += t.ok;
    for (const [s, n] of t.statuses) merged.statuses.set(s, (merged.statuses.get(s) ?? 0) + n);
    for (const [s, m] of t.samples) if (!merged.samples.has(s)) merged.samples.set(s, m);
    for (const [k, l] of t.latencies) merged.latencies.set(k, [...(merged.latencies.get(k) ?? []), ...l]);
  }
  for (const l of merged.latencies.values()) l.sort((a, b) => a - b);
  return merged;
}

async function main(): Promise<void> {
  const turn = SECONDS / 2;
  console.log(`bench:load — ${CLIENTS} clients, ${SECONDS} s per setup (two turns of ${turn} s, in the order A B B A), ${PARSES} parse processes in total, ${os.availableParallelism()} cores, loopback`);
  console.log(`  mix per client: ${MIX.map((d) => d.kind).join(' ')} — ${Object.values(DOCS).map((d) => `${d.file} (${(d.body.length / 1024).toFixed(0)} KB)`).join(', ')}`);
  console.log(`  team '${TEAM}': credits unlimited, rate ${RATE_PER_MINUTE}/min (never reached); concurrent jobs, queue and uploads-in-flight bounds (per team, instance, address, key) ${QUEUE}, so none interferes: the parse processes are the bound; the parse timeout is the default (30 s, queue wait included)`);
  console.log(`  load average before: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (the machine is shared)`);
  build();
  const setups: Setup[] = [];
  try {
    setups.push(await single());
    setups.push(await shared());
    const [a, b] = setups as [Setup, Setup];
    const turns = new Map<Setup, PhaseResult[]>([[a, []], [b, []]]);
    // Each setup idles while the other takes its turn; A B B A spreads the drift of a shared machine over both.
    for (const [n, setup] of [a, b, b, a].entries()) {
      turns.get(setup)?.push(await load(setup.name, setup.instances, setup.key, turn, n < 2));
    }
    const one = merge(a.name, turns.get(a) ?? []);
    const two = merge(b.name, turns.get(b) ?? []);
    report(one);
    report(two);
    const ra = one.ok / one.seconds;
    const rb = two.ok / two.seconds;
    const cost = ra > 0 ? ((ra - rb) / ra) * 100 : Number.NaN;
    console.log(`\nshared state cost: ${cost.toFixed(1)}% throughput (${ra.toFixed(2)} → ${rb.toFixed(2)} parses/s; target ≤ ${TARGET_PERCENT}%: ${cost <= TARGET_PERCENT ? 'met' : 'NOT met'})`);
    console.log(`  load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    for (const s of setups) await s.close();
    agent.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
