/**
 * Every door bills and refuses the same way (docs/accounts.md, docs/billing.md), through the
 * started service against the local test site and the fake SearXNG: scrape, map, search, crawl
 * and batch scrape pages charged; `zeroDataRetention` from a team without ZDR refused with 403
 * ZDR_NOT_ENABLED on parse (multipart and uploadRef), scrape, crawl and batch scrapeOptions and
 * MCP tools; a team with ZDR on is served and pays the ZDR surcharge; MCP calls with a key are
 * charged and refused with 402 like HTTP ones.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner, type ParseRunner } from '../../src/limits/runner.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { postParse, request, startTestService, upload, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { curlUpload, parseByRef, ticketFor } from '../uploads/helpers.ts';
import { startFakeSearxng, type FakeServer } from '../web/fake-searxng.ts';
import { startSite, type TestSite } from '../web/site.ts';
import { corpusPath } from '../helpers/corpus.ts';

const HTML = readCorpus('html', 'markitdown', 'test_blog.html');

let site: TestSite;
let searxng: FakeServer;
let service: TestService;
let runs = 0;

beforeAll(async () => {
  site = await startSite({ pages: 6 });
  searxng = await startFakeSearxng();
  const inner = inProcessRunner();
  const counting: ParseRunner = (input, options, run) => {
    runs += 1;
    return inner(input, options, run);
  };
  service = await startTestService({ runner: counting }, { FOLIO_FETCH_ALLOW: site.hostPort, SEARXNG_ENDPOINT: searxng.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
  await searxng.close();
});

interface Team {
  name: string;
  key: string;
  teamId: string;
  client: Firecrawl;
}

async function team(name: string, plan: { credits?: number | null; zdr?: boolean } = {}): Promise<Team> {
  const { key } = await service.createKey(name);
  const teamId = (await service.store.findTeamByName(name))?.id ?? '';
  if (Object.keys(plan).length > 0) await service.store.updateTeamPlan(teamId, plan, new Date());
  return { name, key, teamId, client: new Firecrawl({ apiKey: key, apiUrl: service.url }) };
}

function post(t: Team, path: string, body: unknown) {
  return request(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
}

const remaining = async (t: Team) => (await t.client.getCreditUsage()).remainingCredits;

async function until<T>(check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ZDR_NOT_ENABLED on every door', () => {
  let t: Team;
  beforeAll(async () => {
    t = await team('no-zdr-team');
  });

  const expectRefusal = (res: { status: number; json: Record<string, unknown> }) => {
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      success: false,
      code: 'ZDR_NOT_ENABLED',
      error: "Zero Data Retention is not enabled for team 'no-zdr-team'. The operator enables it with `folio teams set no-zdr-team --zdr on`; until then, send the request without `zeroDataRetention`.",
    });
  };

  it('parse, multipart: refused before the parse runs', async () => {
    runs = 0;
    expectRefusal(await postParse({ url: service.url, key: t.key }, upload('blog.html', HTML, { zeroDataRetention: true })));
    expect(runs).toBe(0);
  });

  it('parse, uploadRef JSON: refused, and the ref is not spent', async () => {
    runs = 0;
    const ticket = await ticketFor({ url: service.url, key: t.key }, 'a.docx');
    expect((await curlUpload(ticket, corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx'))).status).toBe(200);
    expectRefusal(await parseByRef({ url: service.url, key: t.key }, { uploadRef: ticket.uploadRef, zeroDataRetention: true }));
    expect(runs).toBe(0);
    const after = await parseByRef({ url: service.url, key: t.key }, { uploadRef: ticket.uploadRef });
    expect(after.status).toBe(200);
  });

  it('scrape, crawl scrapeOptions, crawl and batch top level', async () => {
    const before = await t.client.getCreditUsageHistorical();
    expectRefusal(await post(t, '/v2/scrape', { url: `${site.url}/article.html`, zeroDataRetention: true }));
    expectRefusal(await post(t, '/v2/crawl', { url: `${site.url}/`, limit: 2, scrapeOptions: { zeroDataRetention: true } }));
    expectRefusal(await post(t, '/v2/crawl', { url: `${site.url}/`, limit: 2, zeroDataRetention: true }));
    expectRefusal(await post(t, '/v2/batch/scrape', { urls: [`${site.url}/article.html`], zeroDataRetention: true }));
    expect(await t.client.getCreditUsageHistorical()).toEqual(before);
  });

  it('the SDK surfaces it as an SdkError with status 403', async () => {
    const failure = await t.client.startCrawl(`${site.url}/`, { limit: 2, zeroDataRetention: true }).then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(403);
    expect((failure as SdkError).code).toBe('ZDR_NOT_ENABLED');
  });

  it('MCP tools with a key: a tool error with the code', async () => {
    const mcp: Client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${t.key}` });
    try {
      const scrape = await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/article.html`, zeroDataRetention: true } });
      expect(scrape.isError).toBe(true);
      expect(structuredOf(scrape).code).toBe('ZDR_NOT_ENABLED');
      expect(textOf(scrape)).toContain('folio teams set no-zdr-team --zdr on');
      const batch = await mcp.callTool({ name: 'batch_scrape', arguments: { urls: [`${site.url}/article.html`], options: { zeroDataRetention: true } } });
      expect(structuredOf(batch).code).toBe('ZDR_NOT_ENABLED');
      const crawl = await mcp.callTool({ name: 'crawl', arguments: { url: `${site.url}/`, scrapeOptions: { zeroDataRetention: true } } });
      expect(structuredOf(crawl).code).toBe('ZDR_NOT_ENABLED');
    } finally {
      await mcp.close();
    }
  });

  it('a team with ZDR on is served, and pays the ZDR surcharge (1 + 1)', async () => {
    const zdr = await team('zdr-team', { zdr: true, credits: 10 });
    const res = await post(zdr, '/v2/scrape', { url: `${site.url}/article.html`, zeroDataRetention: true });
    expect(res.status).toBe(200);
    expect(await remaining(zdr)).toBe(8);
  });
});

describe('charges on the web operations', () => {
  it('scrape: 1 per page; map: 1 per call; search: 2 per 10 results', async () => {
    const t = await team('web-team', { credits: 100 });
    expect((await t.client.scrape(`${site.url}/article.html`)).markdown).toContain('Tidal');
    expect(await remaining(t)).toBe(99);
    expect((await t.client.map(`${site.url}/`)).links.length).toBeGreaterThan(0);
    expect(await remaining(t)).toBe(98);
    const found = await t.client.search('credits', { limit: 12 });
    expect(found.web?.length).toBe(12);
    expect(await remaining(t)).toBe(94);
  });

  it('a PDF scraped from the site: 1 per page processed', async () => {
    const t = await team('pdf-web-team', { credits: 100 });
    const doc = await t.client.scrape(`${site.url}/docs/paper.pdf`);
    expect(doc.metadata?.numPages).toBe(3);
    expect(await remaining(t)).toBe(97);
  });

  it('a failed scrape (the site answers 404 for a missing page) is not charged', async () => {
    const t = await team('missing-team', { credits: 5 });
    const res = await post(t, '/v2/scrape', { url: 'http://10.0.0.1/blocked' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await remaining(t)).toBe(5);
  });

  it('crawl: each stored page charged to the team and the key that started it', async () => {
    const t = await team('crawl-team', { credits: 100 });
    const started = await post(t, '/v2/crawl', { url: `${site.url}/`, limit: 3, sitemap: 'skip' });
    expect(started.status).toBe(200);
    const id = String(started.json.id);
    const job = await until(async () => {
      const s = await t.client.getCrawlStatus(id);
      return s.status === 'scraping' ? undefined : s;
    });
    expect(job.status).toBe('completed');
    const pages = job.data.length;
    expect(pages).toBe(3);
    // Page charges are written as pages are stored; the last may land just after the job ends.
    await until(async () => ((await remaining(t)) === 100 - pages ? true : undefined), 5000);
    const split = await t.client.getCreditUsageHistorical(true);
    expect(split.periods).toEqual([expect.objectContaining({ creditsUsed: pages, apiKey: expect.stringMatching(/^key_/) })]);
  });

  it('batch scrape: 1 per page', async () => {
    const t = await team('batch-team', { credits: 100 });
    const job = await t.client.batchScrape([`${site.url}/article.html`, `${site.url}/about.html`], { pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    await until(async () => ((await remaining(t)) === 98 ? true : undefined), 5000);
  });

  it('402 on scrape, crawl and batch before any fetch', async () => {
    const t = await team('broke-web-team', { credits: 0 });
    const before = site.requests.length;
    for (const [path, body] of [
      ['/v2/scrape', { url: `${site.url}/article.html` }],
      ['/v2/crawl', { url: `${site.url}/`, limit: 2 }],
      ['/v2/batch/scrape', { urls: [`${site.url}/article.html`] }],
      ['/v2/map', { url: `${site.url}/` }],
    ] as const) {
      const res = await post(t, path, body);
      expect(res.status).toBe(402);
      expect(res.json.code).toBe('PAYMENT_REQUIRED');
    }
    expect(site.requests.length).toBe(before);
  });
});

describe('MCP tool calls with a key', () => {
  it('are charged like the operation they run; reading a kept result is free', async () => {
    const t = await team('mcp-team', { credits: 10 });
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${t.key}` });
    try {
      const scrape = await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/article.html` } });
      expect(scrape.isError).toBeFalsy();
      expect(await remaining(t)).toBe(9);
      const status = await mcp.callTool({ name: 'crawl_status', arguments: { id: '00000000-0000-4000-8000-000000000000' } });
      expect(status.isError).toBe(true);
      expect(await remaining(t)).toBe(9);
    } finally {
      await mcp.close();
    }
  });

  it('a team without credits gets a PAYMENT_REQUIRED tool error, before the fetch', async () => {
    const t = await team('mcp-broke-team', { credits: 0 });
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${t.key}` });
    try {
      const before = site.requests.length;
      const scrape = await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/article.html` } });
      expect(scrape.isError).toBe(true);
      expect(structuredOf(scrape).code).toBe('PAYMENT_REQUIRED');
      expect(textOf(scrape)).toContain("Team 'mcp-broke-team' has 0 credits left and this scrape costs at least 1");
      expect(site.requests.length).toBe(before);
    } finally {
      await mcp.close();
    }
  });

  it('parallel calls cannot spend the same credits: with 3 left, 8 scrapes at once → 3 answered, 5 PAYMENT_REQUIRED, the balance 0', async () => {
    const t = await team('mcp-parallel-team', { credits: 3 });
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${t.key}` });
    try {
      const results = await Promise.all(Array.from({ length: 8 }, () => mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/article.html` } })));
      const refused = results.filter((r) => r.isError === true);
      expect(refused.map((r) => structuredOf(r).code)).toEqual(Array(5).fill('PAYMENT_REQUIRED'));
      expect(textOf(refused[0] ?? { content: [] })).toMatch(/held by its requests still running|has 0 credits left/);
      expect(await remaining(t)).toBe(0);
      // The holds went with the answers: once credits are added, the next call is answered.
      await service.store.updateTeamPlan(t.teamId, { credits: 1 }, new Date());
      expect((await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/article.html` } })).isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });
});
