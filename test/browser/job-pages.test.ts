/**
 * `actions` and the `screenshot` format in the pages of batch scrape and crawl (their
 * `scrapeOptions`), through the Firecrawl SDK against a started folio and the local browser site:
 * each page is rendered, its actions' results and screenshot URL are in the job's data (and a
 * search result scraped with actions, from a fake SearXNG speaking its JSON format); with the
 * browser off the job is refused at once with a clear 400 naming why.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startFakeSearxng, type FakeServer } from '../web/fake-searxng.ts';
import { startBrowserSite, type BrowserSite } from './site.ts';

let site: BrowserSite;
let searxng: FakeServer;
let service: TestService;
let sdk: Firecrawl;

beforeAll(async () => {
  site = await startBrowserSite();
  searxng = await startFakeSearxng();
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_BROWSER_MAX_PAGES: '2', SEARXNG_ENDPOINT: searxng.url });
  sdk = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await site?.close();
  await searxng?.close();
});

describe('browser options in job pages', () => {
  it('batch scrape renders each page: actions run, results and a screenshot URL per page', async () => {
    const job = await sdk.batchScrape([`${site.url}/click.html`, `${site.url}/form.html`], {
      options: { formats: ['markdown', { type: 'screenshot' }], actions: [{ type: 'executeJavascript', script: 'return document.title' }] },
      pollInterval: 1,
      timeout: 120,
    });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(2);
    const titles = job.data.map((d) => (d.actions?.javascriptReturns as { value?: unknown }[] | undefined)?.[0]?.value).sort();
    expect(titles).toEqual(['A form', 'Behind a click']);
    for (const page of job.data) {
      expect(page.screenshot).toMatch(new RegExp(`^${service.url}/`));
      const shot = await fetch(page.screenshot as string);
      expect(shot.status).toBe(200);
      expect(Buffer.from(await shot.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
    }
  }, 180_000);

  it('crawl pages run the scrapeOptions actions (a click reveals the text the markdown shows)', async () => {
    const job = await sdk.crawl(`${site.url}/click.html`, { limit: 1, scrapeOptions: { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] }, pollInterval: 1, timeout: 120 });
    expect(job.status).toBe('completed');
    expect(job.data[0]?.markdown).toContain('The secret harbour is Porthleven.');
  }, 180_000);

  it('search renders each scraped result that asks for actions', async () => {
    searxng.webUrls = [`${site.url}/click.html`];
    const found = await sdk.search('porthleven harbour', { limit: 1, scrapeOptions: { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] } });
    const first = found.web?.[0] as { markdown?: string } | undefined;
    expect(first?.markdown).toContain('The secret harbour is Porthleven.');
  }, 120_000);

  it('with the browser off, a batch with actions is refused at once, saying why', async () => {
    const off = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_BROWSER: 'off' });
    try {
      const res = await request(`${off.url}/v2/batch/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${off.key}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ urls: [`${site.url}/click.html`], formats: ['screenshot'] })),
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: 'NOT_YET_SUPPORTED' });
      expect(String(res.json?.error)).toContain('FOLIO_BROWSER=off');
    } finally {
      await off.stop();
    }
  }, 60_000);
});
