/**
 * The fair queue per team (issue 15 item 3, docs/limits.md) through a started server with the real
 * parse pool: one parse process, each team one job at a time, a team queue of 3. Team A floods
 * with slow PDFs (an 18-page corpus PDF, seconds each); team B's small page is served as soon as
 * A's running parse ends, ahead of A's waiting ones (before, the pool's one FIFO made B wait for
 * all of them, and refused it once A filled the queue). A's fifth request is over its queue: 429
 * with Retry-After. Waiting requests carry concurrencyLimited and concurrencyQueueDurationMs; a
 * request that waits past its timeout is 408 saying it waited. The SDK's getQueueStatus and
 * getConcurrency read the team's queue. Scrapes hold the team's place from the fetch on, and the
 * pages of a batch scrape wait their turn among the team's jobs; so does the MCP scrape tool.
 */
import { FirecrawlClient } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { postParse, request, startTestService, upload, type RawResponse, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf } from '../mcp/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

const slowPdf = readCorpus('pdf', 'docling', 'redp5110_sampled.pdf');
const smallPage = readCorpus('html', 'readability', 'wikipedia', 'source.html');
const SLOW = { timeout: 240_000, parsers: [{ type: 'pdf', mode: 'fast' }] };

let service: TestService;
let site: TestSite;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  site = await startSite();
  service = await startTestService({}, { FOLIO_MAX_CONCURRENT_PARSES: '1', FOLIO_DEFAULT_MAX_CONCURRENT: '1', FOLIO_MAX_QUEUED_PER_TEAM: '3', FOLIO_FETCH_ALLOW: site.hostPort });
  keyA = (await service.createKey('team-a')).key;
  keyB = (await service.createKey('team-b')).key;
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await site?.close();
});

function parseAs(key: string, filename: string, data: Buffer, options: unknown): Promise<RawResponse> {
  return postParse({ url: service.url, key }, upload(filename, data, options), { timeoutMs: 240_000, headers: { connection: 'close' } }).catch((err: unknown) => {
    throw new Error(`POST /v2/parse ${filename}: ${String(err)}`);
  });
}

function queueStatus(key: string): Promise<RawResponse> {
  // A fresh connection per poll: a kept-alive one may be closed by the server as it is reused.
  return request(`${service.url}/v2/team/queue-status`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } }).catch((err: unknown) => {
    throw new Error(`GET /v2/team/queue-status: ${String(err)}`);
  });
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

describe('the fair queue per team', () => {
  it('one team flooding with slow PDFs does not starve another; its own excess waits, then is refused with Retry-After', async () => {
    const sdkA = new FirecrawlClient({ apiKey: keyA, apiUrl: service.url });
    const finishedA: number[] = [];
    const flood = Array.from({ length: 4 }, (_, i) =>
      parseAs(keyA, `slow-${i}.pdf`, slowPdf, SLOW).then((res) => {
        if (res.status === 200) finishedA.push(i);
        return res;
      }),
    );
    // One running, three waiting: the team's whole queue.
    await until('A has 1 running and 3 waiting', async () => {
      const s = (await queueStatus(keyA)).json;
      return s.activeJobsInQueue === 1 && s.waitingJobsInQueue === 3;
    });

    const status = await sdkA.getQueueStatus();
    expect(status).toMatchObject({ success: true, jobsInQueue: 4, activeJobsInQueue: 1, waitingJobsInQueue: 3, maxConcurrency: 1, mostRecentSuccess: null });
    expect(await sdkA.getConcurrency()).toEqual({ concurrency: 1, maxConcurrency: 1 });

    // The fifth is over the team's queue: refused at once, with when to come back.
    const over = await parseAs(keyA, 'slow-over.pdf', slowPdf, SLOW);
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(String(over.json.error)).toMatch(/3 jobs waiting behind its 1 running/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Team B: served as soon as the parse process is free, before A's waiting parses.
    const startedB = Date.now();
    const b = await parseAs(keyB, 'page.html', smallPage, { timeout: 120_000 });
    const tookB = Date.now() - startedB;
    expect(b.status, b.text).toBe(200);
    const afterB = (await queueStatus(keyA)).json;
    expect(finishedA.length, 'B came after at most one of A’s parses').toBeLessThanOrEqual(1);
    expect(afterB.waitingJobsInQueue, 'A still has parses waiting when B is answered').toBeGreaterThanOrEqual(1);
    // B waited for the busy parse process (A's first parse), not in a team queue of its own.
    const metaB = (b.json.data as { metadata: Record<string, unknown> }).metadata;
    expect(metaB.concurrencyLimited).toBe(true);
    expect(metaB.concurrencyQueueDurationMs).toBeGreaterThan(0);
    expect(metaB.concurrencyQueueDurationMs).toBeLessThanOrEqual(tookB);

    const results = await Promise.all(flood);
    for (const res of results) expect(res.status, res.text).toBe(200);
    const metas = results.map((r) => (r.json.data as { metadata: Record<string, unknown> }).metadata);
    // One ran at once; the three others (uploads arrive in any order) waited their turn, each longer than the one before.
    expect(metas.filter((m) => m.concurrencyLimited === undefined)).toHaveLength(1);
    const waits = metas
      .filter((m) => m.concurrencyLimited === true)
      .map((m) => {
        expect(typeof m.concurrencyQueueDurationMs).toBe('number');
        return m.concurrencyQueueDurationMs as number;
      })
      .sort((x, y) => x - y);
    expect(waits).toHaveLength(3);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[1]).toBeGreaterThan(waits[0] as number);
    expect(waits[2]).toBeGreaterThan(waits[1] as number);

    const done = await sdkA.getQueueStatus();
    expect(done).toMatchObject({ jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 1 });
    expect(Date.parse(String(done.mostRecentSuccess))).toBeGreaterThan(startedB);
    expect(await sdkA.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 1 });
  }, 240_000);

  it('a request that waits in its team queue past its timeout is 408 SCRAPE_TIMEOUT saying it waited', async () => {
    // Three slow parses ahead of it (one running, two waiting): far more than its 200 ms.
    const ahead = Array.from({ length: 3 }, (_, i) => parseAs(keyA, `slow-${i}.pdf`, slowPdf, SLOW));
    await until('A has 1 running and 2 waiting', async () => {
      const s = (await queueStatus(keyA)).json;
      return s.activeJobsInQueue === 1 && s.waitingJobsInQueue === 2;
    });
    const late = await parseAs(keyA, 'page.html', smallPage, { timeout: 200 });
    expect(late.status).toBe(408);
    expect(late.json).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect(String(late.json.error)).toMatch(/waited \d+ ms in the queue/);
    expect(String(late.json.error)).toMatch(/timeout of 200 ms/);
    for (const res of await Promise.all(ahead)) expect(res.status).toBe(200);
  }, 240_000);

  it('a scrape holds its team place while it fetches: the team’s next scrape waits, another team’s does not', async () => {
    const w = (await service.createKey('team-web')).key;
    const scrape = (key: string, url: string) =>
      request(`${service.url}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ url, timeout: 60_000 })),
        timeoutMs: 60_000,
      });
    const slow = scrape(w, `${site.url}/slow?ms=1500`);
    await until('W has its slow scrape running', async () => (await queueStatus(w)).json.activeJobsInQueue === 1);
    const next = scrape(w, `${site.url}/about.html`);
    await until('W has a scrape waiting', async () => (await queueStatus(w)).json.waitingJobsInQueue === 1);
    const other = await scrape(keyB, `${site.url}/about.html`);
    expect(other.status, other.text).toBe(200);
    expect((other.json.data as { metadata: Record<string, unknown> }).metadata.concurrencyLimited).toBeUndefined();
    expect((await queueStatus(w)).json.waitingJobsInQueue, 'B answered while W still waits').toBe(1);
    const [first, second] = await Promise.all([slow, next]);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    const meta = (second.json.data as { metadata: Record<string, unknown> }).metadata;
    expect(meta.concurrencyLimited).toBe(true);
    expect(meta.concurrencyQueueDurationMs).toBeGreaterThan(500);
  }, 120_000);

  it('batch scrape pages count against the team: they wait their turn, are never refused, and say they waited', async () => {
    const w = (await service.createKey('team-batch')).key;
    const urls = Array.from({ length: 5 }, (_, i) => `${site.url}/slow?ms=400&n=${i}`);
    const started = await request(`${service.url}/v2/batch/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ urls })),
    });
    expect(started.status, started.text).toBe(200);
    // Five pages, one place, a team queue of three: the pages wait (more than three of them at times) and none is refused.
    await until('the team runs one page and has others waiting', async () => {
      const s = (await queueStatus(w)).json;
      return s.activeJobsInQueue === 1 && Number(s.waitingJobsInQueue) >= 1;
    });
    let body: Record<string, unknown> = {};
    await until('the batch is done', async () => {
      body = (await request(`${service.url}/v2/batch/scrape/${String(started.json.id)}`, { headers: { authorization: `Bearer ${w}` } })).json;
      return body.status === 'completed';
    });
    const pages = body.data as { metadata: Record<string, unknown> }[];
    expect(pages).toHaveLength(5);
    expect(body.completed).toBe(5);
    const waited = pages.filter((p) => p.metadata.concurrencyLimited === true);
    expect(waited.length).toBeGreaterThanOrEqual(1);
    for (const p of waited) expect(p.metadata.concurrencyQueueDurationMs).toBeGreaterThan(0);
  }, 120_000);

  it('the MCP scrape tool of a team waits for the place its HTTP scrape holds (one queue for every door)', async () => {
    const k = (await service.createKey('team-mcp')).key;
    const client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${k}` });
    try {
      const slow = request(`${service.url}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ url: `${site.url}/slow?ms=1500` })),
        timeoutMs: 60_000,
      });
      await until('the HTTP scrape holds the team place', async () => (await queueStatus(k)).json.activeJobsInQueue === 1);
      const result = await client.callTool({ name: 'scrape', arguments: { url: `${site.url}/about.html` } });
      expect(result.isError, JSON.stringify(result).slice(0, 300)).toBeFalsy();
      const meta = structuredOf(result).metadata as Record<string, unknown>;
      expect(meta.concurrencyLimited).toBe(true);
      expect(meta.concurrencyQueueDurationMs).toBeGreaterThan(500);
      expect((await slow).status).toBe(200);
    } finally {
      await client.close();
    }
  }, 120_000);
});
