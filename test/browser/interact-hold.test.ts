/**
 * Interact on the scrape's own page (src/browser/held-pages.ts, cdp-scope.ts) against a started
 * folio, with the Firecrawl SDK's `interact`/`stopInteraction` and over HTTP: a rendered scrape's
 * page stays open (a value its actions made survives, which a reload and replay would not give),
 * text typed into a form by one interact is there for the next, the code sees only its own page
 * (not another held page of the same Chromium), DELETE closes it (410 GONE after), the idle ttl
 * and FOLIO_INTERACT_MAX_PAGES close the oldest, another team gets a 404, and a plain-fetch
 * scrape still reopens its page.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedJson, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';
import { startBrowserSite, type BrowserSite } from './site.ts';

let site: BrowserSite;
let service: TestService;
let clock = new Date();
let sdk: Firecrawl;

beforeAll(async () => {
  site = await startBrowserSite();
  service = await startTestService(
    { now: () => clock },
    { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_BROWSER_MAX_PAGES: '3', FOLIO_INTERACT_MAX_PAGES: '2', FOLIO_INTERACT_TTL_SECONDS: '60', FOLIO_DEFAULT_ZDR: 'on' },
  );
  sdk = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await site?.close();
});

const call = (method: string, path: string, key: string, body?: unknown): Promise<RawResponse> => keyedJson(service.url, method, path, key, body);

/** A rendered scrape of the form whose script leaves a random value in the page. */
async function scrapeForm(): Promise<{ scrapeId: string; token: unknown }> {
  const scraped = await sdk.scrape(`${site.url}/form.html`, {
    formats: ['markdown'],
    actions: [
      { type: 'executeJavascript', script: 'window.token = String(Math.random()); return window.token' },
      { type: 'click', selector: '#name' },
      { type: 'write', text: 'Ada' },
    ],
  });
  return { scrapeId: scraped.metadata?.scrapeId as string, token: (scraped.actions?.javascriptReturns as { value?: unknown }[] | undefined)?.[0]?.value };
}

describe('interact on the held page of a rendered scrape', () => {
  it('drives the very page the scrape rendered; typed text survives between interacts; the code sees only its page; DELETE closes it (410 after)', async () => {
    const a = await scrapeForm();
    expect(a.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof a.token).toBe('string');
    expect(service.browser.held.size).toBe(1);

    // The scrape's own page: its random value is there (a reload and replay would draw a new one), and so is what it typed.
    const first = await sdk.interact(a.scrapeId, { code: "return JSON.stringify([await page.evaluate(() => window.token), await page.inputValue('#name')])" });
    expect(first).toMatchObject({ success: true, exitCode: 0 });
    expect(JSON.parse(first.result as string)).toEqual([a.token, 'Ada']);
    // No Chromium of its own was started for it.
    expect(service.browser.sessions.list(service.teamId, 'interact')).toEqual([]);

    // State typed by one interact is there for the next.
    await sdk.interact(a.scrapeId, { code: "await page.fill('#name', 'Grace Hopper')" });
    const typed = await call('POST', `/v2/scrape/${a.scrapeId}/interact`, service.key, { code: "await page.click('#send'); return await page.textContent('#greeting')" });
    expect(typed.status).toBe(200);
    expect(typed.json).toMatchObject({ success: true, result: 'Hello, Grace Hopper!' });

    // A second held page in the same Chromium: neither interact sees the other's page or context.
    const b = await scrapeForm();
    expect(service.browser.held.size).toBe(2);
    const seen = await sdk.interact(b.scrapeId, { code: 'return JSON.stringify(browser.contexts().map((c) => c.pages().map((p) => p.url())))' });
    expect(JSON.parse(seen.result as string)).toEqual([[`${site.url}/form.html`]]);
    const valueB = await sdk.interact(b.scrapeId, { code: "return await page.inputValue('#name')" });
    expect(valueB.result).toBe('Ada');
    const newContext = await sdk.interact(b.scrapeId, { code: 'await browser.newContext()' });
    expect(newContext.exitCode).toBe(1);
    expect(newContext.stderr).toContain('Refused by folio');

    // Another team: a 404 like an unknown id.
    const other = await service.createKey('hold-other-team');
    const foreign = await call('POST', `/v2/scrape/${a.scrapeId}/interact`, other.key, { code: 'return 1' });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect((await call('DELETE', `/v2/scrape/${a.scrapeId}/interact`, other.key)).status).toBe(404);

    // DELETE (the SDK's stopInteraction) closes it; the next interact is a clear 410.
    expect(await sdk.stopInteraction(a.scrapeId)).toMatchObject({ success: true, status: 'destroyed' });
    expect(service.browser.held.size).toBe(1);
    const after = await call('POST', `/v2/scrape/${a.scrapeId}/interact`, service.key, { code: 'return 1' });
    expect(after.status).toBe(410);
    expect(after.json).toMatchObject({ success: false, code: 'GONE' });
    expect(String(after.json?.error)).toMatch(/deleted|stopped by its owner/);
    expect(String(after.json?.error)).toContain('scrape the page again');
    await sdk.stopInteraction(b.scrapeId);
    expect(service.browser.held.size).toBe(0);
  }, 240_000);

  it('closes the oldest idle page at FOLIO_INTERACT_MAX_PAGES and idle pages after FOLIO_INTERACT_TTL_SECONDS (410 naming why)', async () => {
    const first = await scrapeForm();
    const second = await scrapeForm();
    const third = await scrapeForm();
    expect(service.browser.held.size).toBe(2);
    const evicted = await call('POST', `/v2/scrape/${first.scrapeId}/interact`, service.key, { code: 'return 1' });
    expect(evicted.status).toBe(410);
    expect(String(evicted.json?.error)).toContain('FOLIO_INTERACT_MAX_PAGES');

    // The third was used just now; the second idles past the ttl.
    clock = new Date(clock.getTime() + 45_000);
    expect((await sdk.interact(third.scrapeId, { code: 'return 1' })).result).toBe('1');
    clock = new Date(clock.getTime() + 20_000);
    expect(await service.browser.held.sweep()).toBe(1);
    const idle = await call('POST', `/v2/scrape/${second.scrapeId}/interact`, service.key, { code: 'return 1' });
    expect(idle.status).toBe(410);
    expect(String(idle.json?.error)).toContain('FOLIO_INTERACT_TTL_SECONDS');
    expect((await sdk.interact(third.scrapeId, { code: "return await page.inputValue('#name')" })).result).toBe('Ada');
    await sdk.stopInteraction(third.scrapeId);
  }, 240_000);

  it('a page held under zeroDataRetention is memory only and interactable; a plain-fetch scrape reopens its page', async () => {
    const zdr = await sdk.scrape(`${site.url}/form.html`, { formats: ['markdown'], zeroDataRetention: true, actions: [{ type: 'click', selector: '#name' }, { type: 'write', text: 'Secret' }] });
    const zdrId = zdr.metadata?.scrapeId as string;
    expect((await sdk.interact(zdrId, { code: "return await page.inputValue('#name')" })).result).toBe('Secret');
    await sdk.stopInteraction(zdrId);

    // A page the plain fetch engine answered has no browser page: interact opens one (a session of its own).
    const plain = await sdk.scrape(`${site.url}/styled.html`, { formats: ['markdown'] });
    const plainId = plain.metadata?.scrapeId as string;
    expect(service.browser.held.size).toBe(0);
    expect((await sdk.interact(plainId, { code: "return await page.textContent('p')" })).result).toBe('A page to screenshot.');
    expect(service.browser.sessions.list(service.teamId, 'interact')).toHaveLength(1);
    await sdk.stopInteraction(plainId);
    expect(service.browser.sessions.list(service.teamId, 'interact')).toEqual([]);
  }, 240_000);
});
