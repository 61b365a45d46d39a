/**
 * Every public method of the official Firecrawl JS SDK's v2 client (`@mendable/firecrawl-js`
 * FirecrawlClient, enumerated from its prototype, `research.*` included, so a new SDK method shows
 * up here) called against a started folio. Each either works, with real content from the local
 * site or the corpus, or fails with folio's clear error naming what is missing, never the generic
 * 404 "No route matches". The README's table ("Firecrawl SDK methods") says which: this test holds
 * it to what folio answered.
 */
import { FirecrawlClient, ResearchClient, SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../http/helpers.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readmeTable } from './readme-table.ts';
import { NO_ROUTE, startWorld, VERDICTS, type World } from './world.ts';

/** Declared `private` in the SDK's types (nothing marks them at run time). */
const PRIVATE = new Set(['constructor', 'isCloudService']);

/** Methods of a prototype (getters left out), in declaration order. */
function methodsOf(proto: object): string[] {
  return Object.getOwnPropertyNames(proto).filter((name) => !PRIVATE.has(name) && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function');
}

/** The getters that hand out a sub-client: their methods are public methods too. */
const SUB_CLIENTS: Record<string, object> = { research: ResearchClient.prototype };

const SDK_METHODS = [
  ...methodsOf(FirecrawlClient.prototype),
  ...Object.entries(SUB_CLIENTS).flatMap(([getter, proto]) => methodsOf(proto).map((m) => `${getter}.${m}`)),
];

let world: World;
let client: FirecrawlClient;

async function json(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${world.service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${world.service.key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
  });
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${res.text}`);
  return res.json;
}

async function waitFor(path: string): Promise<Record<string, unknown>> {
  const until = Date.now() + 30_000;
  for (;;) {
    const status = await json('GET', path);
    if (status.status !== 'scraping' || Date.now() > until) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A finished crawl of the local site, made over plain HTTP (so the SDK's crawl methods are tested on their own). */
let crawlJob: Promise<string> | undefined;
function finishedCrawl(): Promise<string> {
  crawlJob ??= json('POST', '/v2/crawl', { url: `${world.site.url}/pages/1.html`, limit: 3 }).then(async ({ id }) => {
    await waitFor(`/v2/crawl/${String(id)}`);
    return String(id);
  });
  return crawlJob;
}

let batchJob: Promise<string> | undefined;
function finishedBatch(): Promise<string> {
  batchJob ??= json('POST', '/v2/batch/scrape', { urls: [`${world.site.url}/article.html`, `${world.site.url}/about.html`] }).then(async ({ id }) => {
    await waitFor(`/v2/batch/scrape/${String(id)}`);
    return String(id);
  });
  return batchJob;
}

const article = () => `${world.site.url}/article.html`;
/** A scrape of the article (its metadata.scrapeId is what interact drives). */
let scraped: Promise<string> | undefined;
const scrapeId = (): Promise<string> => (scraped ??= json('POST', '/v2/scrape', { url: article() }).then((r) => String((r.data as { metadata: { scrapeId: string } }).metadata.scrapeId)));
const pagesOf = (docs: { metadata?: { sourceURL?: string } }[]) => docs.map((d) => d.metadata?.sourceURL).sort();
const JOB = '00000000-0000-4000-8000-000000000000';

function expectCrawled(job: { status: string; data: { markdown?: string; metadata?: { sourceURL?: string } }[] }) {
  expect(job.status).toBe('completed');
  expect(job.data.length).toBeGreaterThan(0);
  expect(job.data.map((d) => d.markdown ?? '').join('\n')).toMatch(/This is page number 1 of the test graph/);
}

function expectBatch(job: { status: string; data: { markdown?: string; metadata?: { sourceURL?: string } }[] }) {
  expect(job.status).toBe('completed');
  expect(pagesOf(job.data)).toEqual([`${world.site.url}/about.html`, article()]);
  expect(job.data.map((d) => d.markdown ?? '').join('\n')).toContain('Small harbours see two tides a day');
}

async function watch(id: string, kind: 'crawl' | 'batch') {
  const watcher = client.watcher(id, { kind, timeout: 30 });
  const documents: unknown[] = [];
  let done: { status: string; data: unknown[] } | undefined;
  let failure: unknown;
  watcher.on('document', (d: unknown) => documents.push(d));
  watcher.on('done', (d: { status: string; data: unknown[] }) => (done = d));
  watcher.on('error', (e: unknown) => (failure = e));
  await watcher.start();
  watcher.close();
  if (!done) throw new Error(`watcher(${kind}) ended without 'done': ${JSON.stringify(failure)}`);
  expect(done.status).toBe('completed');
  expect(documents.length).toBeGreaterThan(0);
}

/** One call per method, with arguments a real user would pass; it throws when the result is not right. */
const CALLS: Record<string, () => Promise<void>> = {
  scrape: async () => {
    const doc = await client.scrape(article(), { formats: ['markdown', 'links'] });
    expect(doc.markdown).toContain('Small harbours see two tides a day');
    expect(doc.links).toContain(`${world.site.url}/docs/paper.pdf`);
  },
  scrapeUrl: async () => {
    expect((await client.scrapeUrl(article())).markdown).toContain('# Tidal Energy in Small Harbours');
  },
  findTools: async () => {
    await client.findTools({ categories: ['finance'], level: 'providers' });
  },
  interact: async () => {
    const result = await client.interact(await scrapeId(), { code: 'return await page.title()', language: 'node' });
    expect(result.result).toBe('Tidal Energy in Small Harbours');
  },
  stopInteraction: async () => {
    expect(await client.stopInteraction(await scrapeId())).toMatchObject({ success: true, status: 'destroyed' });
  },
  scrapeExecute: async () => {
    expect((await client.scrapeExecute(await scrapeId(), { code: "return await page.textContent('h1')", language: 'node' })).result).toContain('Tidal Energy');
  },
  stopInteractiveBrowser: async () => {
    expect((await client.stopInteractiveBrowser(await scrapeId())).success).toBe(true);
  },
  deleteScrapeBrowser: async () => {
    expect((await client.deleteScrapeBrowser(await scrapeId())).success).toBe(true);
  },
  parse: async () => {
    const doc = await client.parse({ data: readCorpus('html', 'markitdown', 'test_blog.html'), filename: 'test_blog.html', contentType: 'text/html' }, { formats: ['markdown', 'links'] });
    expect(doc.markdown).toContain('an example where high cost can easily prevent a generic complex');
    expect(doc.links).toContain('https://arxiv.org/abs/2303.04673');
  },
  search: async () => {
    const result = await client.search('tidal energy', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    const first = result.web?.[0];
    expect(first && 'markdown' in first ? first.markdown : undefined).toContain('Small harbours see two tides a day');
  },
  developerSearch: async () => {
    await client.developerSearch('express 5 error handler');
  },
  feedback: async () => {
    await client.feedback({ endpoint: 'scrape', jobId: JOB, rating: 'good' });
  },
  searchFeedback: async () => {
    await client.searchFeedback(JOB, { rating: 'good' });
  },
  'research.searchPapers': async () => {
    await client.research.searchPapers('tidal energy');
  },
  'research.getPaper': async () => {
    await client.research.getPaper('arxiv:1706.03762');
  },
  'research.similarPapers': async () => {
    await client.research.similarPapers('arxiv:1706.03762', { intent: 'follow-up work' });
  },
  'research.searchGithub': async () => {
    await client.research.searchGithub('firecrawl');
  },
  map: async () => {
    const { links } = await client.map(world.site.url, { limit: 50 });
    expect(links.map((l) => l.url)).toEqual(expect.arrayContaining([article(), `${world.site.url}/pages/3.html`]));
  },
  mapUrl: async () => {
    expect((await client.mapUrl(world.site.url)).links.map((l) => l.url)).toContain(`${world.site.url}/about.html`);
  },
  startCrawl: async () => {
    const { id, url } = await client.startCrawl(`${world.site.url}/pages/1.html`, { limit: 2 });
    expect(url).toBe(`${world.service.url}/v2/crawl/${id}`);
    await waitFor(`/v2/crawl/${id}`);
  },
  asyncCrawlUrl: async () => {
    const { id } = await client.asyncCrawlUrl(`${world.site.url}/pages/1.html`, { limit: 2 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(`/v2/crawl/${id}`);
  },
  getCrawlStatus: async () => {
    expectCrawled(await client.getCrawlStatus(await finishedCrawl()));
  },
  checkCrawlStatus: async () => {
    expectCrawled(await client.checkCrawlStatus(await finishedCrawl()));
  },
  cancelCrawl: async () => {
    const { id } = await client.startCrawl(`${world.site.url}/slow?ms=5000`, { limit: 5 });
    expect(await client.cancelCrawl(id)).toBe(true);
    expect((await client.getCrawlStatus(id)).status).toBe('cancelled');
  },
  crawl: async () => {
    expectCrawled(await client.crawl(`${world.site.url}/pages/1.html`, { limit: 3, pollInterval: 1, timeout: 30 }));
  },
  crawlUrl: async () => {
    expectCrawled(await client.crawlUrl(`${world.site.url}/pages/1.html`, { limit: 3, pollInterval: 1, timeout: 30 }));
  },
  getCrawlErrors: async () => {
    const errors = await client.getCrawlErrors(await finishedCrawl());
    expect(errors).toEqual({ errors: [], robotsBlocked: [] });
  },
  checkCrawlErrors: async () => {
    expect((await client.checkCrawlErrors(await finishedCrawl())).errors).toEqual([]);
  },
  getActiveCrawls: async () => {
    const { id } = await client.startCrawl(`${world.site.url}/slow?ms=5000`, { limit: 1 });
    const { crawls } = await client.getActiveCrawls();
    expect(crawls.map((c) => c.id)).toContain(id);
    await client.cancelCrawl(id);
  },
  crawlParamsPreview: async () => {
    const preview = await client.crawlParamsPreview(world.site.url, 'only the blog posts under /pages/');
    // Without a language model folio reads the explicit parts of the prompt (the path).
    expect(preview.url).toBe(`${world.site.url}/`);
    expect(JSON.stringify(preview.includePaths)).toContain('pages');
  },
  createMonitor: async () => {
    await client.createMonitor({ name: 'tides', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [article()] }] } as unknown as Parameters<FirecrawlClient['createMonitor']>[0]);
  },
  listMonitors: async () => {
    await client.listMonitors();
  },
  getMonitor: async () => {
    await client.getMonitor(JOB);
  },
  updateMonitor: async () => {
    await client.updateMonitor(JOB, { name: 'tides' } as Parameters<FirecrawlClient['updateMonitor']>[1]);
  },
  deleteMonitor: async () => {
    await client.deleteMonitor(JOB);
  },
  runMonitor: async () => {
    await client.runMonitor(JOB);
  },
  listMonitorChecks: async () => {
    await client.listMonitorChecks(JOB);
  },
  getMonitorCheck: async () => {
    await client.getMonitorCheck(JOB, JOB);
  },
  startBatchScrape: async () => {
    const { id } = await client.startBatchScrape([article(), `${world.site.url}/about.html`]);
    expectBatch(await waitFor(`/v2/batch/scrape/${id}`) as unknown as Parameters<typeof expectBatch>[0]);
  },
  asyncBatchScrapeUrls: async () => {
    const { id } = await client.asyncBatchScrapeUrls([article(), `${world.site.url}/about.html`]);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(`/v2/batch/scrape/${id}`);
  },
  getBatchScrapeStatus: async () => {
    expectBatch(await client.getBatchScrapeStatus(await finishedBatch()));
  },
  checkBatchScrapeStatus: async () => {
    expectBatch(await client.checkBatchScrapeStatus(await finishedBatch()));
  },
  getBatchScrapeErrors: async () => {
    expect(await client.getBatchScrapeErrors(await finishedBatch())).toEqual({ errors: [], robotsBlocked: [] });
  },
  checkBatchScrapeErrors: async () => {
    expect((await client.checkBatchScrapeErrors(await finishedBatch())).errors).toEqual([]);
  },
  cancelBatchScrape: async () => {
    const { id } = await client.startBatchScrape([`${world.site.url}/slow?ms=5000`, `${world.site.url}/slow?ms=5001`]);
    expect(await client.cancelBatchScrape(id)).toBe(true);
    expect((await client.getBatchScrapeStatus(id)).status).toBe('cancelled');
  },
  batchScrape: async () => {
    expectBatch(await client.batchScrape([article(), `${world.site.url}/about.html`], { pollInterval: 1, timeout: 30 }));
  },
  batchScrapeUrls: async () => {
    expectBatch(await client.batchScrapeUrls([article(), `${world.site.url}/about.html`], { pollInterval: 1, timeout: 30 }));
  },
  startExtract: async () => {
    await client.startExtract({ urls: [article()], prompt: 'The peak kW per harbour' });
  },
  getExtractStatus: async () => {
    const { id } = await client.startExtract({ urls: [article()], prompt: 'The peak kW per harbour' });
    expect((await client.getExtractStatus(id ?? JOB)).success).toBe(true);
  },
  extract: async () => {
    expect(await client.extract({ urls: [article()], prompt: 'The peak kW per harbour', pollInterval: 1, timeout: 30 })).toMatchObject({ status: 'completed', data: { peakKw: 42 } });
  },
  startAgent: async () => {
    await client.startAgent({ prompt: 'Which harbour has the highest peak output?', urls: [article()] });
  },
  getAgentStatus: async () => {
    const { id } = await client.startAgent({ prompt: 'Which harbour has the highest peak output?', urls: [article()] });
    expect((await client.getAgentStatus(id)).success).toBe(true);
  },
  listAgents: async () => {
    await client.listAgents();
  },
  agent: async () => {
    expect(await client.agent({ prompt: 'Which harbour has the highest peak output?', urls: [article()], pollInterval: 1, timeout: 30 })).toMatchObject({ status: 'completed', data: { harbour: 'Porthleven' } });
  },
  cancelAgent: async () => {
    const { id } = await client.startAgent({ prompt: 'Which harbour has the highest peak output?' });
    expect(await client.cancelAgent(id)).toBe(true);
  },
  getAgentTrace: async () => {
    const done = await client.agent({ prompt: 'Which harbour has the highest peak output?', pollInterval: 1, timeout: 30 });
    const { id } = (await client.listAgents()).agents?.[0] ?? { id: JOB };
    expect(done.status).toBe('completed');
    expect((await client.getAgentTrace(id)).events?.at(-1)).toMatchObject({ type: 'run.finished' });
  },
  getAgentSnapshot: async () => {
    await client.getAgentSnapshot(JOB, 'snapshot-1');
  },
  getAgentThread: async () => {
    await client.getAgentThread(JOB);
  },
  browser: async () => {
    const created = await client.browser({ ttl: 60 });
    expect(created.cdpUrl).toMatch(/^ws:\/\//);
    await client.deleteBrowser(created.id as string);
  },
  browserExecute: async () => {
    const { id } = await client.browser({});
    try {
      expect((await client.browserExecute(id as string, { code: 'console.log(1)', language: 'node' })).stdout).toBe('1\n');
    } finally {
      await client.deleteBrowser(id as string);
    }
  },
  deleteBrowser: async () => {
    const { id } = await client.browser({});
    expect(await client.deleteBrowser(id as string)).toMatchObject({ success: true, status: 'destroyed' });
  },
  listBrowsers: async () => {
    expect((await client.listBrowsers()).success).toBe(true);
  },
  getConcurrency: async () => {
    // The test service runs 2 parse processes: the default plan's concurrency (FOLIO_DEFAULT_MAX_CONCURRENT unset).
    const { concurrency, maxConcurrency } = await client.getConcurrency();
    expect(maxConcurrency).toBe(2);
    expect(concurrency).toBeGreaterThanOrEqual(0);
    expect(concurrency).toBeLessThanOrEqual(2);
  },
  getCreditUsage: async () => {
    await client.getCreditUsage();
  },
  getTokenUsage: async () => {
    await client.getTokenUsage();
  },
  getCreditUsageHistorical: async () => {
    await client.getCreditUsageHistorical(true);
  },
  getTokenUsageHistorical: async () => {
    await client.getTokenUsageHistorical();
  },
  getQueueStatus: async () => {
    const status = await client.getQueueStatus();
    expect(status).toMatchObject({ success: true, maxConcurrency: 2 });
    expect(status.jobsInQueue).toBe(status.activeJobsInQueue + status.waitingJobsInQueue);
    expect(status.mostRecentSuccess === null || !Number.isNaN(Date.parse(status.mostRecentSuccess))).toBe(true);
  },
  watcher: async () => {
    const { id } = await client.startCrawl(`${world.site.url}/pages/1.html`, { limit: 3 });
    await watch(id, 'crawl');
    await watch(await finishedBatch(), 'batch');
  },
};

/** folio's answer inside an SdkError: the research client keeps the body in `details`. */
function folioAnswer(err: unknown): { status?: number; code?: unknown; message: string } | undefined {
  if (!(err instanceof SdkError)) return undefined;
  const body = typeof err.details === 'object' && err.details !== null ? (err.details as Record<string, unknown>) : {};
  return { status: err.status, code: typeof body.code === 'string' ? body.code : err.code, message: typeof body.error === 'string' ? body.error : err.message };
}

const table = readmeTable('sdk-methods');

beforeAll(async () => {
  world = await startWorld();
  client = new FirecrawlClient({ apiKey: world.service.key, apiUrl: world.service.url, maxRetries: 1 });
});
afterAll(async () => {
  await world.stop();
});

describe('every public method of the Firecrawl JS SDK v2 client against folio', () => {
  it('the README table lists exactly the SDK’s public methods', () => {
    expect([...table.keys()].sort()).toEqual([...SDK_METHODS].sort());
    expect(Object.keys(CALLS).sort()).toEqual([...SDK_METHODS].sort());
  });

  for (const method of SDK_METHODS) {
    const verdict = table.get(method) ?? 'works';
    it(`${method}: ${verdict}`, async () => {
      const call = CALLS[method];
      if (!call) throw new Error(`no call written for the new SDK method ${method}: add one to CALLS and a README row`);
      const failure = await call().then(
        () => undefined,
        (err: unknown) => err ?? new Error('rejected without a reason'),
      );
      if (verdict === 'works') {
        if (failure !== undefined) throw failure;
        return;
      }
      if (verdict === 'refused by firecrawl-mcp') throw new Error(`"${verdict}" is not a verdict for an SDK method`);
      expect(failure, `${method} worked, but the README says "${verdict}": update the table`).toBeDefined();
      const answer = folioAnswer(failure);
      expect(answer, `not an answer from folio: ${String(failure)}`).toBeDefined();
      expect(answer?.message).not.toMatch(NO_ROUTE);
      const { codes, message } = VERDICTS[verdict];
      expect(codes, `folio's code ${String(answer?.code)}: ${answer?.message}`).toContain(answer?.code);
      expect(answer?.message).toMatch(message);
    });
  }
});
