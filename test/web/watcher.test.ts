/**
 * The job watcher over WebSocket with the Firecrawl SDK's own `watcher()` (which sends the API key
 * as the WebSocket subprotocol): a running crawl and a running batch streamed document by
 * document until done, a finished job caught up at once, and refusals — no key, a wrong key,
 * another team's job — answered before the upgrade, never logging the key.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../auth/api-keys.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite({ pages: 10 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_CRAWL_CONCURRENCY: '2' });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

interface Watched {
  documents: { metadata?: { sourceURL?: string } }[];
  snapshots: { status: string; completed: number; total: number }[];
  done?: { status: string; completed?: number; total?: number };
  error?: { error?: string };
}

function watch(c: Firecrawl, id: string, kind: 'crawl' | 'batch', ms = 60_000): Promise<Watched> {
  const w = c.watcher(id, { kind, timeout: ms / 1000 });
  const out: Watched = { documents: [], snapshots: [] };
  w.on('document', (d: Watched['documents'][number]) => out.documents.push(d));
  w.on('snapshot', (s: Watched['snapshots'][number]) => out.snapshots.push(s));
  return new Promise((resolve) => {
    w.on('done', (d: Watched['done']) => {
      out.done ??= d;
      resolve(out);
    });
    w.on('error', (e: Watched['error']) => {
      out.error = e;
      resolve(out);
    });
    void w.start();
  });
}

/** A raw upgrade request: the status and body of a refusal (or 101). */
function upgrade(path: string, protocol?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${service.url}${path}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        ...(protocol ? { 'sec-websocket-protocol': protocol } : {}),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the job watcher (WebSocket)', () => {
  it('streams a running crawl document by document until done', async () => {
    const { id } = await client.startCrawl(`${site.url}/`, { limit: 8, delay: 0.1 });
    const got = await watch(client, id, 'crawl');
    expect(got.error).toBeUndefined();
    expect(got.done?.status).toBe('completed');
    const status = await client.getCrawlStatus(id);
    expect(status.status).toBe('completed');
    const urls = got.documents.map((d) => d.metadata?.sourceURL ?? '');
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.sort()).toEqual(status.data.map((d) => d.metadata?.sourceURL ?? '').sort());
    expect(urls.length).toBe(8);
    // The first snapshot (the catchup) came while the job was still running.
    expect(got.snapshots[0]?.status).toBe('scraping');
  });

  it('streams a running batch scrape until done', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${site.url}/slow?ms=150&n=${i}`);
    const { id } = await client.startBatchScrape(urls, { maxConcurrency: 2 });
    const got = await watch(client, id, 'batch');
    expect(got.done?.status).toBe('completed');
    expect(got.documents.map((d) => d.metadata?.sourceURL).sort()).toEqual([...urls].sort());
  });

  it('catches up a finished job at once', async () => {
    const job = await client.batchScrape([`${site.url}/about.html`, `${site.url}/article.html`], { pollInterval: 1, timeout: 30 });
    const got = await watch(client, job.id ?? '', 'batch');
    expect(got.done?.status).toBe('completed');
    expect(got.documents).toHaveLength(2);
  });

  it('ends with the cancelled status when the job is cancelled while watched', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `${site.url}/slow?ms=200&n=${i}`);
    const { id } = await client.startBatchScrape(urls, { maxConcurrency: 1 });
    const watching = watch(client, id, 'batch');
    await new Promise((r) => setTimeout(r, 600));
    expect(await client.cancelBatchScrape(id)).toBe(true);
    const got = await watching;
    expect(got.done?.status).toBe('cancelled');
    expect(got.documents.length).toBeLessThan(20);
  });

  it('refuses the upgrade without a key, with a wrong key, and for another team’s job; the key is never logged', async () => {
    const { id } = await client.startBatchScrape([`${site.url}/about.html`]);
    const none = await upgrade(`/v2/batch/scrape/${id}`);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    const wrongKey = generateApiKey();
    const wrong = await upgrade(`/v2/batch/scrape/${id}`, wrongKey);
    expect(wrong.status).toBe(401);
    const other = await service.createKey('watch-other');
    const foreign = await upgrade(`/v2/batch/scrape/${id}`, other.key);
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'NOT_FOUND' });
    const asCrawl = await upgrade(`/v2/crawl/${id}`, service.key);
    expect(asCrawl.status).toBe(404);
    const ok = await upgrade(`/v2/batch/scrape/${id}`, service.key);
    expect(ok.status).toBe(101);

    // The SDK reports the refusal as its error (and does not fall back to polling).
    const got = await watch(new Firecrawl({ apiKey: wrongKey, apiUrl: service.url }), id, 'batch', 20_000);
    expect(got.done).toBeUndefined();
    expect(got.error).toMatchObject({ error: 'WebSocket error' });

    const lines = service.logLines().filter((l) => l.websocket === true);
    expect(lines.map((l) => l.status)).toEqual(expect.arrayContaining([401, 404, 101]));
    const text = service.logText();
    for (const k of [service.key, wrongKey, other.key]) expect(text).not.toContain(k);
  });
});
