/**
 * The `crawl` tool over /v2/mcp with an API key, against the local test site: `waitSeconds`
 * keeps the call open with progress notifications (pages scraped of URLs found) until the job
 * ends, and cancelling the call cancels the job.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';
import { connectMcp, structuredOf, textOf } from './helpers.ts';

let site: TestSite;
let service: TestService;
let client: Client;

beforeAll(async () => {
  site = await startSite({ pages: 12 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort });
  client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
});
afterAll(async () => {
  await client.close();
  await service.stop();
  await site.close();
});

describe('crawl tool', () => {
  it('waitSeconds: progress notifications until the job completes, then the counts', async () => {
    const updates: Progress[] = [];
    const result = await client.callTool(
      { name: 'crawl', arguments: { url: `${site.url}/pages/1.html`, limit: 8, crawlEntireDomain: true, sitemap: 'skip', waitSeconds: 60 } },
      undefined,
      { onprogress: (p) => updates.push(p), timeout: 60_000 },
    );
    expect(result.isError).toBeFalsy();
    const body = structuredOf(result);
    expect(body).toMatchObject({ status: 'completed', completed: 8 });
    expect(textOf(result)).toMatch(/^Crawl completed: 8 of \d+ pages\./);
    expect(updates.length).toBeGreaterThan(0);
    const last = updates.at(-1);
    expect(last?.progress).toBe(8);
    // Progress only grows.
    for (let i = 1; i < updates.length; i++) expect(updates[i]?.progress).toBeGreaterThanOrEqual(updates[i - 1]?.progress ?? 0);
  });

  it('cancelling a waiting call cancels the crawl job', async () => {
    const controller = new AbortController();
    const call = client.callTool(
      // One request per second to the site: the job is still running when the call is cancelled.
      { name: 'crawl', arguments: { url: `${site.url}/pages/1.html`, limit: 12, crawlEntireDomain: true, sitemap: 'skip', delay: 1, waitSeconds: 60 } },
      undefined,
      { signal: controller.signal, timeout: 60_000 },
    );
    await new Promise((r) => setTimeout(r, 1500));
    const before = await request(`${service.url}/v2/crawl/active`, { headers: { authorization: `Bearer ${service.key}` } });
    expect((before.json.crawls as unknown[]).length).toBe(1);
    controller.abort('user stopped it');
    await expect(call).rejects.toThrow();
    // The job the call started is cancelled on the server.
    const until = Date.now() + 10_000;
    let status = '';
    for (;;) {
      const active = await request(`${service.url}/v2/crawl/active`, { headers: { authorization: `Bearer ${service.key}` } });
      const jobs = (active.json.crawls ?? []) as { id: string }[];
      if (jobs.length === 0) {
        status = 'none active';
        break;
      }
      if (Date.now() > until) {
        status = `still active: ${jobs.map((j) => j.id).join(', ')}`;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('none active');
  });
});
