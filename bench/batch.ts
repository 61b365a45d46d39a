/**
 * Batch scrape benchmark (`npm run bench:batch [-- --pages N]`): N local pages (default 200)
 * scraped by one batch scrape (POST /v2/batch/scrape, status polled every 50 ms) and by N single
 * scrapes (POST /v2/scrape, as many at once as the batch runs: FOLIO_CRAWL_CONCURRENCY), in the
 * same run against the same service (real store, parse worker pool, fetcher).
 *
 * Prints, for each: wall time, pages/s and the median time per page — for a single scrape its
 * request's latency; for a batch page the time from the site receiving the page's request to the
 * page's result being stored (crawl_urls.finished_at), i.e. the same work without the HTTP hop.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Firecrawl from '@mendable/firecrawl-js';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { DB_FILENAME } from '../src/store/sqlite.ts';

const arg = process.argv.indexOf('--pages');
const PAGES = arg !== -1 ? Number(process.argv[arg + 1]) : 200;

function pageHtml(n: number): string {
  const paragraphs = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of page ${n}: ${'tidal energy and small harbours '.repeat(12)}</p>`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Page ${n}</h1>${paragraphs.join('')}</article></main><footer>Bench site</footer></body></html>`;
}

/** The site records when each page request arrived (path with query → ms since epoch). */
async function startBenchSite(arrivals: Map<string, number>): Promise<{ url: string; hostPort: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    arrivals.set(`${u.pathname}${u.search}`, Date.now());
    const m = /^\/p\/(\d+)\.html$/.exec(u.pathname);
    const body = m ? pageHtml(Number(m[1])) : '<p>Not found</p>';
    res.writeHead(m ? 200 : 404, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

function report(label: string, pages: number, seconds: number, perPageMs: number[]): void {
  console.log(`${label}`);
  console.log(`  pages            ${pages}`);
  console.log(`  wall time        ${seconds.toFixed(2)} s`);
  console.log(`  pages/s          ${(pages / seconds).toFixed(1)}`);
  console.log(`  median per page  ${median(perPageMs).toFixed(0)} ms`);
}

async function main(): Promise<void> {
  const arrivals = new Map<string, number>();
  const site = await startBenchSite(arrivals);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-batch-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FOLIO_FETCH_ALLOW: site.hostPort });
  const service = await startService(config, { logger: createLogger({ level: 'silent' }) });
  const db = new Database(path.join(dataDir, DB_FILENAME), { readonly: true });
  try {
    const key = generateApiKey();
    const team = await service.store.ensureTeam('bench');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    const client = new Firecrawl({ apiKey: key, apiUrl: service.url });
    const urls = (run: string) => Array.from({ length: PAGES }, (_, i) => `${site.url}/p/${i + 1}.html?run=${run}`);
    console.log(`${PAGES} local pages: one batch scrape vs ${PAGES} single scrapes (crawlConcurrency ${config.crawlConcurrency}, parse workers ${config.maxConcurrentParses}, ${os.availableParallelism()} CPUs)`);

    // Warm the parse workers.
    await Promise.all(urls('warm').slice(0, 8).map((u) => client.scrape(u)));

    // One batch scrape.
    const batchUrls = urls('batch');
    let started = performance.now();
    const { id } = await client.startBatchScrape(batchUrls);
    let job = await client.getBatchScrapeStatus(id, { autoPaginate: false });
    while (job.status === 'scraping') {
      await new Promise((r) => setTimeout(r, 50));
      job = await client.getBatchScrapeStatus(id, { autoPaginate: false });
    }
    const batchSeconds = (performance.now() - started) / 1000;
    const rows = db.prepare<[string], { url: string; finished_at: string }>("SELECT url, finished_at FROM crawl_urls WHERE job_id = ? AND state = 'done'").all(id);
    const batchPerPage = rows.map((r) => {
      const u = new URL(r.url);
      return Date.parse(r.finished_at) - (arrivals.get(`${u.pathname}${u.search}`) ?? NaN);
    });
    report('batch scrape (POST /v2/batch/scrape)', job.completed, batchSeconds, batchPerPage);
    if (job.status !== 'completed' || job.completed !== PAGES) process.exitCode = 1;

    // The same number of single scrapes, as many at once as the batch ran.
    const singleUrls = urls('single');
    const latencies: number[] = [];
    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: config.crawlConcurrency }, async () => {
        while (next < singleUrls.length) {
          const u = singleUrls[next++] ?? '';
          const t0 = performance.now();
          await client.scrape(u);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const singleSeconds = (performance.now() - started) / 1000;
    report(`single scrapes (POST /v2/scrape, ${config.crawlConcurrency} at once)`, latencies.length, singleSeconds, latencies);
  } finally {
    db.close();
    await service.shutdown();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
