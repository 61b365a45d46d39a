/**
 * Webhooks of crawl and batch scrape jobs, delivered to a local receiver (loopback, allowed by
 * FOLIO_FETCH_ALLOW): the events in order, each signed with X-Firecrawl-Signature (HMAC-SHA256
 * of the raw body under FOLIO_WEBHOOK_SECRET), the user's headers and metadata, a delivery
 * answered 500 retried, the events filter, a webhook address refused by the SSRF rules never
 * failing the job, and crawl.failed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/web/webhooks/index.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

const SECRET = 'test-webhook-secret-0123456789';

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { success: boolean; type: string; id: string; webhookId: string; data: { metadata?: { sourceURL?: string } }[]; metadata: Record<string, unknown>; error?: string };
  answered: number;
}

let site: TestSite;
let service: TestService;
let client: Firecrawl;
let receiver: http.Server;
let hookUrl: string;
const deliveries: Delivery[] = [];
/** Paths whose next `page` delivery is answered 500 once. */
const failOnce = new Set<string>();

beforeAll(async () => {
  site = await startSite({ pages: 10 });
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as Delivery['body'];
      const path = req.url ?? '';
      let answered = 200;
      if (body.type.endsWith('.page') && failOnce.delete(path)) answered = 500;
      deliveries.push({ path, headers: req.headers, raw, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  hookUrl = `http://127.0.0.1:${port}`;
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: `${site.hostPort},127.0.0.1:${port}`, FOLIO_WEBHOOK_SECRET: SECRET });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function deliveriesTo(path: string, lastType: string, ms = 30_000): Promise<Delivery[]> {
  const until = Date.now() + ms;
  for (;;) {
    const got = deliveries.filter((d) => d.path === path);
    if (got.some((d) => d.body.type === lastType) || Date.now() > until) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks', () => {
  it('batch scrape: started, a page per URL, completed — signed, with headers and metadata; a 500 is retried', async () => {
    failOnce.add('/batch');
    const urls = [`${site.url}/about.html`, `${site.url}/article.html`, `${site.url}/pages/1.html`];
    const started = await client.startBatchScrape(urls, {
      webhook: { url: `${hookUrl}/batch`, headers: { 'x-receiver-token': 'abc' }, metadata: { project: 'p1' } },
    });
    const got = await deliveriesTo('/batch', 'batch_scrape.completed');
    for (const d of got) {
      expect(verifyWebhookSignature(SECRET, d.raw, d.headers['x-firecrawl-signature'] as string)).toBe(true);
      expect(d.headers['x-firecrawl-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature('another-secret-0123456789', d.raw, d.headers['x-firecrawl-signature'] as string)).toBe(false);
      expect(d.headers['x-receiver-token']).toBe('abc');
      expect(d.headers['content-type']).toBe('application/json');
      expect(d.body.id).toBe(started.id);
      expect(d.body.metadata).toEqual({ project: 'p1' });
    }
    const types = got.map((d) => d.body.type);
    expect(types[0]).toBe('batch_scrape.started');
    expect(types.at(-1)).toBe('batch_scrape.completed');
    // One page delivery was answered 500 and sent again (same webhookId), then accepted.
    const failed = got.filter((d) => d.answered === 500);
    expect(failed).toHaveLength(1);
    const retried = got.filter((d) => d.body.webhookId === failed[0]?.body.webhookId);
    expect(retried.map((d) => d.answered)).toEqual([500, 200]);
    const accepted = got.filter((d) => d.answered === 200);
    expect(accepted.map((d) => d.body.type)).toEqual(['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.completed']);
    const pageUrls = accepted.filter((d) => d.body.type === 'batch_scrape.page').map((d) => d.body.data[0]?.metadata?.sourceURL);
    expect(pageUrls.sort()).toEqual([...urls].sort());
    expect(accepted.at(-1)?.body.success).toBe(true);
  });

  it('crawl with a webhook URL string: crawl.started, crawl.page per page, crawl.completed; `events` filters', async () => {
    const started = await client.startCrawl(`${site.url}/pages/1.html`, { limit: 4, crawlEntireDomain: true, webhook: `${hookUrl}/crawl` });
    const got = await deliveriesTo('/crawl', 'crawl.completed');
    const types = got.map((d) => d.body.type);
    expect(types).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
    expect(got.every((d) => d.body.id === started.id)).toBe(true);

    await client.startCrawl(`${site.url}/pages/1.html`, { limit: 3, webhook: { url: `${hookUrl}/only-completed`, events: ['completed'] } });
    const only = await deliveriesTo('/only-completed', 'crawl.completed');
    expect(only.map((d) => d.body.type)).toEqual(['crawl.completed']);
  });

  it('GET /v2/crawl/active does not list a webhook (its headers may hold the receiver\'s credentials)', async () => {
    const { id } = await client.startCrawl(`${site.url}/`, { limit: 3, delay: 0.5, webhook: { url: `${hookUrl}/active`, headers: { authorization: 'Bearer receiver-credential-1' } } });
    const res = await request(`${service.url}/v2/crawl/active`, { headers: { authorization: `Bearer ${service.key}` } });
    const listed = (res.json.crawls as { id: string; options: Record<string, unknown> }[]).find((c) => c.id === id);
    expect(listed?.options.limit).toBe(3);
    expect(res.text).not.toContain('receiver-credential-1');
    expect(listed?.options).not.toHaveProperty('webhook');
    await client.cancelCrawl(id);
  });

  it('crawl.failed carries the error', async () => {
    const started = await client.startCrawl(`${site.url}/missing`, { webhook: `${hookUrl}/failed` });
    const got = await deliveriesTo('/failed', 'crawl.failed');
    expect(got.map((d) => d.body.type)).toEqual(['crawl.started', 'crawl.page', 'crawl.failed']);
    // The page that could not be crawled: success false, its URL and why.
    expect(got[1]?.body.success).toBe(false);
    expect(got[1]?.body.data[0]?.metadata?.sourceURL).toBe(`${site.url}/missing`);
    expect(got[1]?.body.error).toBe('The page answered HTTP 404.');
    const last = got.at(-1);
    expect(last?.body.type).toBe('crawl.failed');
    expect(last?.body.success).toBe(false);
    expect(last?.body.id).toBe(started.id);
    expect(last?.body.error).toContain('404');
  });

  it('a webhook to an address the SSRF rules refuse is not delivered, logged, and the job completes', async () => {
    const started = await client.startBatchScrape([`${site.url}/about.html`], { webhook: { url: 'http://127.0.0.9:9/hook', headers: { authorization: 'Bearer receiver-secret-value' } } });
    const until = Date.now() + 30_000;
    let job = await client.getBatchScrapeStatus(started.id);
    while (job.status === 'scraping' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      job = await client.getBatchScrapeStatus(started.id);
    }
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(1);
    const logUntil = Date.now() + 10_000;
    while (!service.logText().includes('webhook refused') && Date.now() < logUntil) await new Promise((r) => setTimeout(r, 50));
    const line = service.logLines().find((l) => l.msg === 'webhook refused');
    expect(line?.jobId).toBe(started.id);
    expect(String(line?.reason)).toMatch(/^URL_BLOCKED/);
    expect(service.logText()).not.toContain('receiver-secret-value');
    expect(service.logText()).not.toContain(SECRET);
  });
});
