/**
 * The accounting's cost on the hot path (`npm run bench:accounting [-- --quick] [--baseline=REF]
 * [--siem=<file>]`, issue 15 "Benchmarks", docs/billing.md#measured).
 *
 * Builds, then starts compiled servers as `npm start` does (bench/served.ts) and loads
 * `POST /v2/parse` of a 20 KB HTML page with autocannon (16 connections), in interleaved turns
 * (ABBA-style rotation) so that a shared machine's drifting load falls on every side alike:
 *
 *   base        the build before the accounting (REF, default: the parent of the commit that added
 *               src/accounts/team-accounts.ts), exported with `git archive` and compiled;
 *   unlimited   this build, a team on the default unlimited plan (402 check, ledger row per request);
 *   finite      this build, a team with `folio teams set … --credits 1000000000` (balance read,
 *               402 check, ledger row and balance update per request);
 *   finite+siem a team with the same credits and `--siem <file>`: every request also writes its SIEM
 *               audit event to a JSON lines file (src/audit; default file in the run's temp dir).
 *
 * Then, in this process, the accounting alone: µs per request of what a billed request adds (the
 * 402 check and the charge: a plan read, a ledger row and the balance update in one transaction)
 * on the same SQLite store, set against the CPU time a parse request takes at the measured rate.
 *
 * Target: the finite plan within 5% of the unlimited one and of the base. Prints a table; exit 0.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer } from './served.ts';
import { createTeamAccounts, NO_SURCHARGE } from '../src/accounts/index.ts';
import { loadConfig } from '../src/config.ts';
import { openSqliteStore } from '../src/store/sqlite.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
const mainOf = (dir: string) => path.join(dir, 'dist', 'src', 'main.js');

const quick = process.argv.includes('--quick');
const baselineArg = process.argv.find((a) => a.startsWith('--baseline='))?.slice('--baseline='.length);
const siemFlag = process.argv.find((a) => a.startsWith('--siem='))?.slice('--siem='.length);
const DURATION_S = quick ? 2 : 4;
const ROUNDS = quick ? 2 : 4;
const CONNECTIONS = 16;
const SIZE = 20 * 1024;
const BOUNDARY = 'folio-bench-accounting-boundary';

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

const git = (args: string[]) => run('git', args, root);

function defaultBaseline(): string {
  const added = git(['log', '--diff-filter=A', '--format=%H', '--', 'src/accounts/team-accounts.ts']).split('\n').filter(Boolean).at(-1);
  if (!added) throw new Error('no commit added src/accounts/team-accounts.ts; pass --baseline=REF');
  return `${added}^`;
}

function buildBaseline(ref: string, into: string): string {
  const commit = git(['rev-parse', '--short', ref]);
  run('sh', ['-c', `git archive ${commit} | tar -x -C "${into}"`], root);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(into, 'node_modules'));
  run(tsc, ['-p', 'tsconfig.build.json'], into);
  return commit;
}

/** An article page of exactly `size` bytes: headings, paragraphs with links, small tables. */
function article(size: number): Buffer {
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accounting benchmark</title></head><body><main><h1>Accounting benchmark</h1>\n';
  const tail = '</main></body></html>\n';
  const section = (i: number) =>
    `<h2>Part ${i}</h2>\n<p>Paragraph ${i}, with <a href="https://example.org/part/${i}">a link</a> and <strong>some weight</strong>; the page is parsed once per request.</p>\n` +
    `<table><tr><th>Item</th><th>Count</th></tr><tr><td>part ${i}</td><td>${i * 7}</td></tr></table>\n`;
  let body = '';
  for (let i = 1; Buffer.byteLength(head + body + section(i) + tail) <= size; i++) body += section(i);
  const html = head + body + tail;
  return Buffer.concat([Buffer.from(html), Buffer.alloc(size - Buffer.byteLength(html), 0x20)]);
}

const BODY = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="article.html"\r\nContent-Type: text/html\r\n\r\n`),
  article(SIZE),
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

function folio(dir: string, dataDir: string, args: string[]): string {
  return run(process.execPath, [mainOf(dir), ...args], dir, { ...process.env, DATA_DIR: dataDir });
}

interface Side {
  name: string;
  url: string;
  key: string;
  rps: number[];
  p99: number[];
  non2xx: number;
}

const load = (side: Side, amount?: number) =>
  autocannon({
    url: `${side.url}/v2/parse`,
    method: 'POST',
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${side.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: BODY,
    ...(amount !== undefined ? { amount } : { duration: DURATION_S }),
  });

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** µs per request (median of batches) of admit + charge on a store in `dir`, for a finite and an unlimited team. */
async function accountingAlone(dir: string): Promise<{ finite: number; unlimited: number }> {
  const store = openSqliteStore(dir);
  try {
    const config = loadConfig({ DATA_DIR: dir });
    const accounts = createTeamAccounts({ store, defaults: config.defaultPlan, prices: config.prices });
    const finite = await store.ensureTeam('alone-finite');
    const unlimited = await store.ensureTeam('alone-unlimited');
    await store.updateTeamPlan(finite.id, { credits: 1_000_000_000 }, new Date());
    const perRequest = async (teamId: string) => {
      const batches: number[] = [];
      for (let b = 0; b < (quick ? 5 : 20); b++) {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < 200; i++) {
          const payer = { teamId, keyId: 'key_bench' };
          await accounts.admit(payer, 'parse', NO_SURCHARGE);
          await accounts.charge(payer, { operation: 'parse', units: 1 });
        }
        batches.push(Number(process.hrtime.bigint() - t0) / 1000 / 200);
      }
      batches.sort((a, b) => a - b);
      return batches[Math.floor(batches.length / 2)] ?? NaN;
    };
    await perRequest(finite.id); // warm-up
    return { finite: await perRequest(finite.id), unlimited: await perRequest(unlimited.id) };
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-acct-'));
  const baseDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-acct-base-'));
  const baseTree = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-acct-tree-'));
  const aloneDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-acct-alone-'));
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  try {
    run(tsc, ['-p', 'tsconfig.build.json'], root);
    const commit = buildBaseline(baselineArg ?? defaultBaseline(), baseTree);
    const keyOf = (dir: string, data: string, team: string) => folio(dir, data, ['keys', 'create', '--team', team]);
    const baseKey = keyOf(baseTree, baseDataDir, 'bench');
    const unlimitedKey = keyOf(root, dataDir, 'unlimited');
    const finiteKey = keyOf(root, dataDir, 'finite');
    folio(root, dataDir, ['teams', 'set', 'finite', '--credits', '1000000000']);
    const siemFile = siemFlag ?? path.join(dataDir, 'siem-events.jsonl');
    const siemKey = keyOf(root, dataDir, 'finite-siem');
    folio(root, dataDir, ['teams', 'set', 'finite-siem', '--credits', '1000000000', '--siem', siemFile]);
    const base = await startServer(mainOf(baseTree), baseTree, baseDataDir);
    servers.push(base);
    const current = await startServer(mainOf(root), root, dataDir);
    servers.push(current);
    const sides: Side[] = [
      { name: `base (${commit})`, url: base.url, key: baseKey, rps: [], p99: [], non2xx: 0 },
      { name: 'unlimited plan', url: current.url, key: unlimitedKey, rps: [], p99: [], non2xx: 0 },
      { name: 'finite plan', url: current.url, key: finiteKey, rps: [], p99: [], non2xx: 0 },
      { name: 'finite plan + SIEM file', url: current.url, key: siemKey, rps: [], p99: [], non2xx: 0 },
    ];
    for (const side of sides) await load(side, 4 * CONNECTIONS);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts from another side, and odd rounds run backwards: every side runs early and late.
      const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
      if (round % 2 === 1) order.reverse();
      for (const side of order) {
        const r = await load(side);
        side.rps.push(r.requests.average);
        side.p99.push(r.latency.p99);
        side.non2xx += r.non2xx + r.errors;
      }
    }
    const unlimited = mean((sides[1] as Side).rps);
    const baseRps = mean((sides[0] as Side).rps);
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    console.log(`folio accounting benchmark (${os.cpus().length} CPUs, Node ${process.version}${quick ? ', --quick' : ''}): POST /v2/parse, 20 KB HTML, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per side`);
    console.log(`  ${'side'.padEnd(28)}${'req/s (mean)'.padEnd(16)}${'p99 ms'.padEnd(10)}${'vs base'.padEnd(10)}${'vs unlimited'.padEnd(14)}non-2xx`);
    for (const side of sides) {
      const rps = mean(side.rps);
      console.log(
        `  ${side.name.padEnd(28)}${rps.toFixed(1).padEnd(16)}${mean(side.p99).toFixed(0).padEnd(10)}${pct((rps - baseRps) / baseRps).padEnd(10)}${pct((rps - unlimited) / unlimited).padEnd(14)}${side.non2xx}`,
      );
    }
    const used = JSON.parse(folio(root, dataDir, ['teams', 'show', 'finite', '--json'])) as { creditsUsed: number };
    console.log(`  finite plan charged ${used.creditsUsed} credits (one per answered parse)`);
    const alone = await accountingAlone(aloneDir);
    // CPU time of one parse request at the measured rate: the machine's cores over requests/s.
    const cpuPerRequestUs = (os.cpus().length / unlimited) * 1e6;
    console.log(
      `  accounting alone, in-process: ${alone.finite.toFixed(0)} µs per request (finite plan), ${alone.unlimited.toFixed(0)} µs (unlimited) ` +
        `= ${((alone.finite / cpuPerRequestUs) * 100).toFixed(2)}% of the ${(cpuPerRequestUs / 1000).toFixed(1)} ms of CPU a parse request takes here`,
    );
  } finally {
    for (const s of servers) {
      const exited = new Promise((r) => s.child.once('exit', r));
      s.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    for (const d of [dataDir, baseDataDir, baseTree, aloneDir]) fs.rmSync(d, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
