/**
 * A crawl survives a service restart: the service is stopped while the job is scraping, a new
 * one starts on the same DATA_DIR, resumes the job from its stored frontier and finishes it,
 * each page scraped into the results once. The parse runs in-process (no worker pool to warm up
 * twice): what is under test is the job's persistence, not the pool.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { startService, type Service } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { createLogger } from '../../src/log.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let dataDir: string;
const services: Service[] = [];

async function start(): Promise<Service> {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FOLIO_MAX_CONCURRENT_PARSES: '2', FOLIO_FETCH_ALLOW: site.hostPort, ...(await testStoreEnv(dataDir)) });
  const service = await startService(config, { logger: createLogger({ level: 'silent' }), graceMs: 2000, runner: inProcessRunner() });
  services.push(service);
  return service;
}

/** A new team on the service's store, and an API key of it. */
async function teamKey(service: Service, name: string): Promise<{ key: string; teamId: string }> {
  const key = generateApiKey();
  const team = await service.store.ensureTeam(name);
  await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  return { key, teamId: team.id };
}

type BatchStatus = Awaited<ReturnType<Firecrawl['getBatchScrapeStatus']>>;

/** The batch job's status, polled every `pollMs` while `waiting` holds and `until` (epoch ms) is ahead. */
async function pollBatch(client: Firecrawl, id: string, waiting: (s: BatchStatus) => boolean, pollMs: number, until = Infinity): Promise<BatchStatus> {
  let status = await client.getBatchScrapeStatus(id);
  while (waiting(status) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, pollMs));
    status = await client.getBatchScrapeStatus(id);
  }
  return status;
}

beforeAll(async () => {
  site = await startSite({ pages: 10 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-crawl-restart-'));
});
afterAll(async () => {
  for (const s of services) await s.shutdown();
  await site.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('crawl across a restart', () => {
  it('finishes a job that was scraping when the service stopped', async () => {
    const first = await start();
    const { key } = await teamKey(first, 'restart-team');

    // A delay of 0.2 s per page keeps the job running long enough to stop it midway.
    const { id } = await new Firecrawl({ apiKey: key, apiUrl: first.url }).startCrawl(`${site.url}/`, { delay: 0.2, limit: 30 });
    const firstClient = new Firecrawl({ apiKey: key, apiUrl: first.url });
    let before = await firstClient.getCrawlStatus(id);
    while (before.completed < 3) {
      await new Promise((r) => setTimeout(r, 50));
      before = await firstClient.getCrawlStatus(id);
    }
    await first.shutdown();
    expect(before.status).toBe('scraping');

    const second = await start();
    const client = new Firecrawl({ apiKey: key, apiUrl: second.url });
    let job = await client.getCrawlStatus(id);
    expect(job.status).toBe('scraping');
    expect(job.completed).toBeGreaterThanOrEqual(3);
    const until = Date.now() + 30_000;
    while (job.status === 'scraping' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      job = await client.getCrawlStatus(id);
    }
    expect(job.status).toBe('completed');
    const urls = job.data.map((d) => d.metadata?.sourceURL ?? '');
    expect(new Set(urls).size).toBe(urls.length);
    for (let n = 1; n <= 10; n++) expect(urls).toContain(`${site.url}/pages/${n}.html`);
    expect(urls).toContain(`${site.url}/article.html`);
    expect(job.completed).toBe(urls.length);
  });

  it('finishes a batch scrape that was running when the service stopped, each URL once', async () => {
    const first = await start();
    const { key } = await teamKey(first, 'restart-batch-team');
    const urls = Array.from({ length: 12 }, (_, i) => `${site.url}/slow?ms=150&n=${i}`);
    const firstClient = new Firecrawl({ apiKey: key, apiUrl: first.url });
    const { id } = await firstClient.startBatchScrape(urls, { maxConcurrency: 1 });
    const before = await pollBatch(firstClient, id, (s) => s.completed < 2, 50);
    await first.shutdown();
    expect(before.status).toBe('scraping');

    const second = await start();
    const client = new Firecrawl({ apiKey: key, apiUrl: second.url });
    const job = await pollBatch(client, id, (s) => s.status === 'scraping', 100, Date.now() + 30_000);
    expect(job.status).toBe('completed');
    expect(job.total).toBe(12);
    const got = job.data.map((d) => d.metadata?.sourceURL ?? '');
    expect(got.sort()).toEqual([...urls].sort());
  });

  it("gives back the team's place of a page it stops mid-flight: a team at maxConcurrent 1 goes on at once after the restart", async () => {
    const first = await start();
    const { key, teamId } = await teamKey(first, 'restart-place-team');
    await first.store.updateTeamPlan(teamId, { maxConcurrent: 1 }, new Date());
    const urls = Array.from({ length: 4 }, (_, i) => `${site.url}/slow?ms=1000&place=${i}`);
    const firstClient = new Firecrawl({ apiKey: key, apiUrl: first.url });
    const { id } = await firstClient.startBatchScrape(urls, { maxConcurrency: 1 });
    await pollBatch(firstClient, id, (s) => s.completed < 1, 50);
    // The second page is on its way (1 s at the site), holding the team's one place.
    await new Promise((r) => setTimeout(r, 300));
    await first.shutdown();

    // A place left taken would hold the team for the lease's 30 s (FOLIO_LIMITS_LEASE_TTL_SECONDS).
    const restarted = Date.now();
    const second = await start();
    const client = new Firecrawl({ apiKey: key, apiUrl: second.url });
    const job = await pollBatch(client, id, (s) => s.status === 'scraping', 100, restarted + 20_000);
    expect(job.status).toBe('completed');
    expect(Date.now() - restarted).toBeLessThan(15_000);
    expect(job.data.map((d) => d.metadata?.sourceURL ?? '').sort()).toEqual([...urls].sort());
  });
});
