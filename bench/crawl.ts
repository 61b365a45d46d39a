/**
 * Crawl benchmark (`npm run bench:crawl [-- --pages N]`).
 *
 * Serves a generated site of N pages (default 600) on 127.0.0.1 — each page an article of a few
 * paragraphs linking to pages N+1, 2N and 2N+1, plus robots.txt and a sitemap — starts folio in
 * this process (`startService`: real store, parse worker pool, fetcher; FOLIO_FETCH_ALLOW for the
 * site only), crawls the whole site through POST /v2/crawl and polls GET /v2/crawl/:id until it
 * completes. Prints pages/s and the peak RSS of this process (service + site), sampled every 50 ms.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';

const arg = process.argv.indexOf('--pages');
const PAGES = arg !== -1 ? Number(process.argv[arg + 1]) : 600;
const MB = 1024 * 1024;

function pageHtml(n: number): string {
  const links = [n + 1, 2 * n, 2 * n + 1].filter((m) => m >= 1 && m <= PAGES).map((m) => `<li><a href="/p/${m}.html">Page ${m}</a></li>`);
  const paragraphs = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of page ${n}: ${'tidal energy and small harbours '.repeat(12)}</p>`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Page ${n}</h1>${paragraphs.join('')}<ul>${links.join('')}</ul></article></main><footer>Bench site</footer></body></html>`;
}

async function startBenchSite(): Promise<{ url: string; hostPort: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const m = /^\/p\/(\d+)\.html$/.exec(p);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (p === '/') return send(200, 'text/html', pageHtml(0).replace('<h1>Page 0</h1>', '<h1>Home</h1><a href="/p/1.html">Start</a>'));
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= PAGES) return send(200, 'text/html', pageHtml(Number(m[1])));
    if (p === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
    return send(404, 'text/html', '<p>Not found</p>');
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

async function main(): Promise<void> {
  const site = await startBenchSite();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-crawl-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FOLIO_FETCH_ALLOW: site.hostPort });
  const service = await startService(config, { logger: createLogger({ level: 'silent' }) });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const key = generateApiKey();
    const team = await service.store.ensureTeam('bench');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    const client = new Firecrawl({ apiKey: key, apiUrl: service.url });
    const baseline = process.memoryUsage().rss;
    const started = performance.now();
    const { id } = await client.startCrawl(`${site.url}/`, { limit: PAGES + 10, sitemap: 'skip', crawlEntireDomain: true });
    let job = await client.getCrawlStatus(id, { autoPaginate: false });
    while (job.status === 'scraping') {
      await new Promise((r) => setTimeout(r, 200));
      job = await client.getCrawlStatus(id, { autoPaginate: false });
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`crawl of a ${PAGES}-page local site (crawlConcurrency ${config.crawlConcurrency}, parse workers ${config.maxConcurrentParses}, ${os.availableParallelism()} CPUs)`);
    console.log(`  status           ${job.status}`);
    console.log(`  pages scraped    ${job.completed} of ${job.total}`);
    console.log(`  time             ${seconds.toFixed(2)} s`);
    console.log(`  pages/s          ${(job.completed / seconds).toFixed(1)}`);
    console.log(`  RSS baseline     ${(baseline / MB).toFixed(0)} MB (service + site, before the crawl)`);
    console.log(`  RSS peak         ${(peak / MB).toFixed(0)} MB`);
    if (job.status !== 'completed' || job.completed < PAGES) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await service.shutdown();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
