/**
 * Scrape latency benchmark (`npm run bench:scrape [-- --quick]`).
 *
 * Starts the local test site (test/web/site.ts) and folio in this process (startService: SQLite,
 * the parse worker pool, FOLIO_FETCH_ALLOW naming only the site), then, one request at a time
 * after a warm-up, alternating so that both see the same machine state:
 *   - bare:  undici `request()` GET of the article page, body read to the end;
 *   - folio: POST /v2/scrape {url: the same page, formats: [markdown]} with an API key.
 * Prints median and p95 of each and folio's overhead (median and p95 difference). Both clients
 * run in the same process as the server, as the bench measures relative cost, not capacity.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startSite } from '../test/web/site.ts';

const quick = process.argv.includes('--quick');
const WARMUP = quick ? 10 : 30;
const RUNS = quick ? 50 : 300;

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

async function main(): Promise<number> {
  const site = await startSite();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-scrape-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_MAX_CONCURRENT_PARSES: '2' });
  const service = await startService(config, { logger: createLogger({ level: 'warn' }) });
  try {
    const key = generateApiKey();
    const team = await service.store.ensureTeam('bench');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    const page = `${site.url}/article.html`;
    const body = JSON.stringify({ url: page, formats: ['markdown'] });

    const bare = async () => {
      const res = await request(page);
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`bare fetch answered ${res.statusCode}`);
    };
    const folio = async () => {
      const res = await request(`${service.url}/v2/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      const json = (await res.body.json()) as { success?: boolean; data?: { markdown?: string } };
      if (res.statusCode !== 200 || !json.data?.markdown?.includes('Tidal Energy')) throw new Error(`scrape answered ${res.statusCode}`);
    };

    for (let i = 0; i < WARMUP; i++) {
      await bare();
      await folio();
    }
    const bareMs: number[] = [];
    const folioMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bareMs.push(await timed(bare));
      folioMs.push(await timed(folio));
    }
    bareMs.sort((a, b) => a - b);
    folioMs.sort((a, b) => a - b);
    const row = (name: string, xs: number[]) => `${name.padEnd(22)} ${percentile(xs, 50).toFixed(2).padStart(8)} ${percentile(xs, 95).toFixed(2).padStart(8)}`;
    process.stdout.write(`scrape latency, ${RUNS} sequential requests each (ms)\n`);
    process.stdout.write(`${''.padEnd(22)} ${'median'.padStart(8)} ${'p95'.padStart(8)}\n`);
    process.stdout.write(`${row('bare undici fetch', bareMs)}\n${row('folio /v2/scrape', folioMs)}\n`);
    process.stdout.write(
      `overhead: +${(percentile(folioMs, 50) - percentile(bareMs, 50)).toFixed(2)} ms median, +${(percentile(folioMs, 95) - percentile(bareMs, 95)).toFixed(2)} ms p95 (auth, SSRF checks, parse in a worker, JSON)\n`,
    );
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
