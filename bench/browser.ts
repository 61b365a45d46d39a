/**
 * Browser benchmark (`npm run bench:browser [-- --quick]`).
 *
 * Starts the browser test site (test/browser/site.ts) and folio in this process (startService,
 * FOLIO_FETCH_ALLOW naming only the site, FOLIO_BROWSER_MAX_PAGES=8), then:
 *   1. latency, one request at a time after a warm-up, alternating:
 *        fetch:    POST /v2/scrape {url: /js.html}              (plain fetch + parse)
 *        rendered: POST /v2/scrape {url: /js.html, waitFor: 1}  (fetch, Chromium render, parse)
 *      median and p95 of each;
 *   2. memory: rounds of 8 concurrent rendered scrapes, the RSS of this process tree sampled
 *      every 50 ms from /proc (folio's node process, Chromium's processes, parse workers): the
 *      peak of each and of the whole tree;
 *   3. browser sessions: 8 sessions opened at once (POST /v2/browser, a Chromium each), one
 *      execute in each (load /js.html, return its h1), then deleted: the time to open one, an
 *      execute's time (the sandboxed child included), and the tree's peak RSS/PSS meanwhile.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startBrowserSite } from '../test/browser/site.ts';

const quick = process.argv.includes('--quick');
const WARMUP = quick ? 3 : 10;
const RUNS = quick ? 20 : 100;
const CONCURRENT = 8;
const ROUNDS = quick ? 3 : 10;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

interface TreeRss {
  node: number;
  chromium: number;
  /** Chromium's proportional set size: shared pages counted once across its processes. */
  chromiumPss: number;
  other: number;
}

/** RSS (MB) of this process and its descendants, by kind, from /proc. */
function treeRss(): TreeRss {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      comm.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
    } catch {
      // gone meanwhile
    }
  }
  const out: TreeRss = { node: 0, chromium: 0, chromiumPss: 0, other: 0 };
  for (const pid of parent.keys()) {
    let p: number | undefined = pid;
    let mine = false;
    for (let depth = 0; p !== undefined && p > 1 && depth < 32; depth++) {
      if (p === process.pid) {
        mine = true;
        break;
      }
      p = parent.get(p);
    }
    if (!mine) continue;
    let kb = 0;
    try {
      kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      continue;
    }
    const name = comm.get(pid) ?? '';
    if (pid === process.pid) out.node += kb / 1024;
    else if (/chrom/i.test(name)) {
      out.chromium += kb / 1024;
      try {
        out.chromiumPss += Number(/Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
      } catch {
        // gone meanwhile
      }
    }
    else out.other += kb / 1024;
  }
  return out;
}

async function main(): Promise<number> {
  const site = await startBrowserSite();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-browser-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_MAX_CONCURRENT_PARSES: '2', FOLIO_BROWSER_MAX_PAGES: String(CONCURRENT), FOLIO_BROWSER_SESSIONS_PER_TEAM: String(CONCURRENT), FOLIO_BROWSER_MAX_SESSIONS: String(CONCURRENT) });
  const service = await startService(config, { logger: createLogger({ level: 'warn' }) });
  try {
    const key = generateApiKey();
    const team = await service.store.ensureTeam('bench');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    const page = `${site.url}/js.html`;
    const scrape = async (body: Record<string, unknown>, expect: string) => {
      const res = await request(`${service.url}/v2/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.body.json()) as { data?: { markdown?: string } };
      if (res.statusCode !== 200 || !json.data?.markdown?.includes(expect)) throw new Error(`scrape answered ${res.statusCode}`);
    };
    const fetched = () => scrape({ url: page }, ''); // the script's text is not there without the browser
    const rendered = () => scrape({ url: page, waitFor: 1 }, 'Rendered Harbour Report');

    const idle = treeRss();
    for (let i = 0; i < WARMUP; i++) {
      await fetched();
      await rendered();
    }
    const fetchMs: number[] = [];
    const renderMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      fetchMs.push(await timed(fetched));
      renderMs.push(await timed(rendered));
    }
    fetchMs.sort((a, b) => a - b);
    renderMs.sort((a, b) => a - b);

    const peak: TreeRss & { total: number } = { node: 0, chromium: 0, chromiumPss: 0, other: 0, total: 0 };
    const sample = () => {
      const now = treeRss();
      peak.node = Math.max(peak.node, now.node);
      peak.chromium = Math.max(peak.chromium, now.chromium);
      peak.chromiumPss = Math.max(peak.chromiumPss, now.chromiumPss);
      peak.other = Math.max(peak.other, now.other);
      peak.total = Math.max(peak.total, now.node + now.chromium + now.other);
    };
    const beforeBurst = treeRss();
    const timer = setInterval(sample, 50);
    const burstMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      burstMs.push(await timed(() => Promise.all(Array.from({ length: CONCURRENT }, () => rendered())).then(() => undefined)));
    }
    clearInterval(timer);
    sample();
    burstMs.sort((a, b) => a - b);

    // 3. Sessions: CONCURRENT at once, each its own Chromium.
    const api = async (method: string, p: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await request(`${service.url}${p}`, { method: method as 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      const json = (await res.body.json()) as Record<string, unknown>;
      if (res.statusCode !== 200) throw new Error(`${method} ${p} answered ${res.statusCode}: ${String(json.error)}`);
      return json;
    };
    const sessionPeak: TreeRss & { total: number } = { node: 0, chromium: 0, chromiumPss: 0, other: 0, total: 0 };
    const sampleSessions = () => {
      const now = treeRss();
      sessionPeak.chromium = Math.max(sessionPeak.chromium, now.chromium);
      sessionPeak.chromiumPss = Math.max(sessionPeak.chromiumPss, now.chromiumPss);
      sessionPeak.total = Math.max(sessionPeak.total, now.node + now.chromium + now.other);
    };
    const sessionTimer = setInterval(sampleSessions, 50);
    const openMs: number[] = [];
    const execMs: number[] = [];
    const ids = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const t0 = performance.now();
        const created = await api('POST', '/v2/browser', { ttl: 300 });
        openMs.push(performance.now() - t0);
        return String(created.id);
      }),
    );
    await Promise.all(
      ids.map(async (id) => {
        const t0 = performance.now();
        const ran = await api('POST', `/v2/browser/${id}/execute`, { language: 'node', code: `await page.goto('${page}'); return await page.textContent('h1')` });
        execMs.push(performance.now() - t0);
        if (ran.result !== 'Rendered Harbour Report') throw new Error(`execute answered ${JSON.stringify(ran).slice(0, 300)}`);
      }),
    );
    sampleSessions();
    clearInterval(sessionTimer);
    for (const id of ids) await api('DELETE', `/v2/browser/${id}`);
    openMs.sort((a, b) => a - b);
    execMs.sort((a, b) => a - b);

    const row = (name: string, xs: number[]) => `${name.padEnd(28)} ${percentile(xs, 50).toFixed(1).padStart(8)} ${percentile(xs, 95).toFixed(1).padStart(8)}`;
    const mb = (x: number) => `${x.toFixed(0)} MB`;
    process.stdout.write(`scrape of ${page}, ${RUNS} sequential requests each (ms)\n`);
    process.stdout.write(`${''.padEnd(28)} ${'median'.padStart(8)} ${'p95'.padStart(8)}\n`);
    process.stdout.write(`${row('plain fetch scrape', fetchMs)}\n${row('rendered scrape (waitFor 1)', renderMs)}\n`);
    process.stdout.write(`${row(`${CONCURRENT} concurrent renders (batch)`, burstMs)}   (${ROUNDS} rounds)\n`);
    process.stdout.write(`RSS before any render: node ${mb(idle.node)}, parse workers ${mb(idle.other)}, chromium ${mb(idle.chromium)}\n`);
    process.stdout.write(`after the sequential runs (1 page at a time): chromium ${mb(beforeBurst.chromium)} RSS / ${mb(beforeBurst.chromiumPss)} PSS\n`);
    process.stdout.write(`peak RSS with ${CONCURRENT} concurrent renders: node ${mb(peak.node)}, chromium (all processes) ${mb(peak.chromium)} RSS / ${mb(peak.chromiumPss)} PSS, parse workers ${mb(peak.other)}; whole tree ${mb(peak.total)}\n`);
    process.stdout.write(`${row(`open a session (${CONCURRENT} at once)`, openMs)}\n${row(`execute (${CONCURRENT} at once)`, execMs)}\n`);
    process.stdout.write(`peak with ${CONCURRENT} sessions open: chromium (all processes) ${mb(sessionPeak.chromium)} RSS / ${mb(sessionPeak.chromiumPss)} PSS; whole tree ${mb(sessionPeak.total)} RSS (execute children included)\n`);
    process.stdout.write(`guarded proxy: ${service.browser.proxyStats.allowed} connections opened, ${service.browser.proxyStats.refused} refused\n`);
    return 0;
  } finally {
    await service.shutdown();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
