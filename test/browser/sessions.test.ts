/**
 * Browser sessions and interact against a started folio (one service for the file): the Firecrawl
 * SDK's `browser`, `browserExecute`, `listBrowsers`, `deleteBrowser`, `interact` and
 * `stopInteraction`; a session driven over its `cdpUrl` with playwright-core's connectOverCDP;
 * execute's sandbox refusing file writes, child processes and the network; other languages, other
 * teams, expiry (an injected clock), a revoked key, and the DevTools token never logged; and the
 * MCP tools (scrape with actions and screenshot, interact, browser_*) through the MCP SDK client.
 */
import fs from 'node:fs';
import Firecrawl from '@mendable/firecrawl-js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { keyedJson, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';
import { MCP_SCOPE } from '../../auth/scopes.ts';
import type { TeamPlanChange } from '../../src/store/team-plans.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { startBrowserSite, type BrowserSite } from './site.ts';

let site: BrowserSite;
let service: TestService;
let clock = new Date();
let sdk: Firecrawl;

beforeAll(async () => {
  site = await startBrowserSite();
  service = await startTestService({ now: () => clock }, { FOLIO_FETCH_ALLOW: site.hostPort, FOLIO_BROWSER_MAX_PAGES: '2', FOLIO_BROWSER_SESSIONS_PER_TEAM: '3', FOLIO_DEFAULT_ZDR: 'on', FOLIO_DEFAULT_MAX_CONCURRENT: '8' });
  sdk = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await site?.close();
});

const call = (method: string, path: string, key: string, body?: unknown): Promise<RawResponse> => keyedJson(service.url, method, path, key, body);
const json = (r: RawResponse) => r.json;

/** A new team with a key, on the plan given (credits, maxConcurrent). */
async function teamOnPlan(name: string, plan: TeamPlanChange): Promise<{ key: string; keyId: string; teamId: string }> {
  const { key, id: keyId } = await service.createKey(name);
  const teamId = (await service.store.findTeamByName(name))?.id ?? '';
  await service.store.updateTeamPlan(teamId, plan, new Date());
  return { key, keyId, teamId };
}

describe('browser sessions', () => {
  it('creates a session, drives it over cdpUrl, executes code in it, lists and deletes it (the Firecrawl SDK)', async () => {
    const created = await sdk.browser({ ttl: 300, activityTtl: 120 });
    expect(created.success).toBe(true);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.cdpUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v2/browser/cdp/[A-Za-z0-9_-]{43}$`));
    expect(created.cdpUrl).not.toContain(service.key);
    expect(Date.parse(created.expiresAt ?? '') - clock.getTime()).toBe(300_000);
    const id = created.id as string;
    onTestFinished(async () => {
      await service.browser.sessions.use(id, service.teamId).then((s) => (s ? service.browser.sessions.end(s, 'test cleanup') : undefined));
    });

    // Playwright over folio's DevTools door: the page is loaded through the guarded proxy.
    const remote = await chromium.connectOverCDP(created.cdpUrl as string);
    try {
      const context = remote.contexts()[0];
      const page = context?.pages()[0] ?? (await context!.newPage());
      await page.goto(`${site.url}/js.html`);
      expect(await page.textContent('h1')).toBe('Rendered Harbour Report');
    } finally {
      await remote.close();
    }

    // The session's browser goes through the guarded proxy too: another loopback port is refused.
    const refusedBefore = service.browser.proxyStats.refused;
    const blocked = await sdk.browserExecute(id, { code: "const p = await context.newPage(); const r = await p.goto('http://127.0.0.1:65000/secret').catch((e) => e.message); await p.close(); return String(r && r.status ? r.status() : r)", language: 'node' });
    expect(blocked.stderr).toBe("");
    expect(blocked.exitCode).toBe(0);
    expect(service.browser.proxyStats.refused).toBeGreaterThan(refusedBefore);
    expect(service.browser.proxyStats.refusedTargets.join(' ')).toContain('127.0.0.1:65000');

    // The same page, from execute's sandbox: where the CDP client left it.
    const ran = await sdk.browserExecute(id, { code: "console.log('from the sandbox'); return { title: await page.title(), h1: await page.textContent('h1') };", language: 'node' });
    expect(ran.success).toBe(true);
    expect(ran.exitCode).toBe(0);
    expect(ran.stdout).toContain('from the sandbox');
    expect(JSON.parse(ran.result ?? 'null')).toEqual({ title: 'Written by script', h1: 'Rendered Harbour Report' });

    const listed = await sdk.listBrowsers();
    expect(listed.sessions?.map((s) => s.id)).toContain(id);
    expect(listed.sessions?.find((s) => s.id === id)?.status).toBe('active');

    const gone = await sdk.deleteBrowser(id);
    expect(gone).toMatchObject({ success: true, status: 'destroyed' });
    expect((await sdk.listBrowsers()).sessions?.map((s) => s.id)).not.toContain(id);
    await expect(chromium.connectOverCDP(created.cdpUrl as string, { timeout: 10_000 })).rejects.toThrow(/404/);
    expect((await call('POST', `/v2/browser/${id}/execute`, service.key, { code: 'return 1', language: 'node' })).status).toBe(404);

    // The DevTools token is a capability: it never reaches a log line.
    const token = (created.cdpUrl as string).split('/').pop() as string;
    expect(service.logText()).not.toContain(token);
    expect(service.logText()).toContain('/v2/browser/cdp/[redacted]');
  }, 120_000);

  it("execute's sandbox refuses file writes, reads of folio's environment and data, child processes and other network; other languages are a clear 400", async () => {
    const created = await sdk.browser({});
    const id = created.id as string;
    try {
      const write = await sdk.browserExecute(id, { code: "require('node:fs').writeFileSync('/tmp/folio-sandbox-escape.txt', 'x'); return 'wrote'", language: 'node' });
      expect(write.exitCode).toBe(1);
      expect(write.result).toBeUndefined();
      expect(write.stderr).toContain('ERR_ACCESS_DENIED');
      expect(fs.existsSync('/tmp/folio-sandbox-escape.txt')).toBe(false);

      // folio's secrets are in its environment and its data directory: neither is readable.
      const environ = await sdk.browserExecute(id, { code: "return require('node:fs').readFileSync('/proc/' + process.ppid + '/environ', 'latin1')", language: 'node' });
      expect(environ.exitCode).toBe(1);
      expect(environ.stderr).toContain('ERR_ACCESS_DENIED');
      const data = await sdk.browserExecute(id, { code: `return require('node:fs').readdirSync(${JSON.stringify(service.dataDir)}).join(',')`, language: 'node' });
      expect(data.exitCode).toBe(1);
      expect(data.stderr).toContain('ERR_ACCESS_DENIED');

      const spawn = await sdk.browserExecute(id, { code: "return require('node:child_process').execSync('id').toString()", language: 'node' });
      expect(spawn.exitCode).toBe(1);
      expect(spawn.stderr).toContain('ERR_ACCESS_DENIED');

      const net = await sdk.browserExecute(id, { code: `const r = await fetch('${site.url}/js.html?sandbox'); return r.status`, language: 'node' });
      expect(net.exitCode).toBe(1);
      expect(site.requests).not.toContain('/js.html?sandbox');
      expect(net.stderr).toMatch(/fetch failed|ERR_ACCESS_DENIED|limited to the browser session/);

      const dns = await sdk.browserExecute(id, { code: "return (await require('node:dns').promises.lookup('example.com')).address", language: 'node' });
      expect(dns.exitCode).toBe(1);
      expect(dns.stderr).toContain('DNS is refused');

      const slow = await sdk.browserExecute(id, { code: 'await new Promise(() => undefined)', language: 'node', timeout: 3 });
      expect(slow.killed).toBe(true);

      const python = await call('POST', `/v2/browser/${id}/execute`, service.key, { code: 'print(1)', language: 'python' });
      expect(python.status).toBe(400);
      expect(json(python)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(String(json(python).error)).toContain('language: "node"');
      // The SDK's default language is bash: refused the same way.
      await expect(sdk.browserExecute(id, { code: 'ls' })).rejects.toThrow(/Node\.js only/);
    } finally {
      await sdk.deleteBrowser(id);
    }
  }, 120_000);

  it("another team's session is a 404; sessions expire (ttl, activityTtl) and die with their key", async () => {
    const other = await service.createKey('other-team');
    const mine = await sdk.browser({ ttl: 600, activityTtl: 60 });
    const id = mine.id as string;
    expect((await call('POST', `/v2/browser/${id}/execute`, other.key, { code: 'return 1', language: 'node' })).status).toBe(404);
    expect((await call('DELETE', `/v2/browser/${id}`, other.key)).status).toBe(404);
    expect(json(await call('GET', '/v2/browser', other.key)).sessions).toEqual([]);

    // Idle longer than activityTtl: the sweep ends it.
    clock = new Date(clock.getTime() + 61_000);
    expect(await service.browser.sessions.sweep()).toBeGreaterThanOrEqual(1);
    expect((await sdk.listBrowsers()).sessions?.map((s) => s.id)).not.toContain(id);

    // The key that created a session is revoked: the next use finds nothing.
    const otherSdk = new Firecrawl({ apiKey: other.key, apiUrl: service.url });
    const theirs = await otherSdk.browser({});
    await service.store.revokeApiKey(other.id);
    const second = await service.createKey('other-team');
    expect((await call('POST', `/v2/browser/${theirs.id as string}/execute`, second.key, { code: 'return 1', language: 'node' })).status).toBe(404);
    expect(json(await call('GET', '/v2/browser', second.key)).sessions).toEqual([]);
  }, 120_000);

  it('bounds the sessions of a team, concurrent requests included (429 naming the setting)', async () => {
    const ids: string[] = [];
    try {
      // Four at once: sessions still starting count, so exactly one is refused.
      const answers = await Promise.all(Array.from({ length: 4 }, () => call('POST', '/v2/browser', service.key, {})));
      for (const a of answers) if (a.status === 200) ids.push(String(json(a).id));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
      const over = answers.find((a) => a.status === 429);
      expect(String(over && json(over).error)).toContain('FOLIO_BROWSER_SESSIONS_PER_TEAM');
      expect(answers.find((a) => a.status === 429)?.headers['retry-after']).toBeDefined();
    } finally {
      for (const id of ids) await sdk.deleteBrowser(id);
    }
  }, 120_000);
});

describe("sessions and the team's concurrency", () => {
  it('an open session holds one of the team places: at the limit a session is a 429 saying what is open, a scrape waits; DELETE and key revocation give the place back', async () => {
    const { key, keyId } = await teamOnPlan('places-team', { maxConcurrent: 2 });
    const team = new Firecrawl({ apiKey: key, apiUrl: service.url });
    const first = await team.browser({});
    const second = await team.browser({});
    const queue = json(await call('GET', '/v2/team/queue-status', key));
    expect(queue).toMatchObject({ activeJobsInQueue: 2, maxConcurrency: 2 });

    const refused = await call('POST', '/v2/browser', key, {});
    expect(refused.status).toBe(429);
    expect(json(refused)).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(String(json(refused).error)).toContain('2 browser sessions open and 0 other jobs');
    expect(String(json(refused).error)).toContain('DELETE /v2/browser/');
    expect(refused.headers['retry-after']).toBeDefined();
    // A scrape waits for a place, here past its short timeout.
    const waited = await call('POST', '/v2/scrape', key, { url: `${site.url}/styled.html`, timeout: 1500 });
    expect(waited.status).toBe(408);

    // DELETE gives its place back: a scrape runs, a new session opens.
    await team.deleteBrowser(first.id as string);
    expect((await call('POST', '/v2/scrape', key, { url: `${site.url}/styled.html` })).status).toBe(200);
    const third = await team.browser({});
    expect(third.success).toBe(true);

    // A revoked key ends its sessions (the sweep), and their places are free again.
    await service.store.revokeApiKey(keyId);
    await service.browser.sessions.sweep();
    const fresh = await service.createKey('places-team');
    expect(json(await call('GET', '/v2/browser', fresh.key)).sessions).toEqual([]);
    expect(json(await call('GET', '/v2/team/queue-status', fresh.key))).toMatchObject({ activeJobsInQueue: 0 });
    const again = await call('POST', '/v2/browser', fresh.key, {});
    expect(again.status).toBe(200);
    await call('DELETE', `/v2/browser/${String(json(again).id)}`, fresh.key);
    void second;
  }, 180_000);
});

describe('interact and the team concurrency', () => {
  it('an idle held page holds no place; an interact call takes one while it runs and waits for it within its timeout', async () => {
    const { key } = await teamOnPlan('interact-places-team', { maxConcurrent: 1 });
    const team = new Firecrawl({ apiKey: key, apiUrl: service.url });
    const scraped = await team.scrape(`${site.url}/click.html`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] });
    const scrapeId = scraped.metadata?.scrapeId as string;
    // The held page idles: the team's only place is free for a session.
    expect(json(await call('GET', '/v2/team/queue-status', key))).toMatchObject({ activeJobsInQueue: 0 });
    const session = await team.browser({});
    // The session holds the only place: the interact waits for it, past its 2 s timeout.
    const waited = await call('POST', `/v2/scrape/${scrapeId}/interact`, key, { code: 'return 1', timeout: 2 });
    expect(waited.status).toBe(408);
    expect(String(json(waited).error)).toContain('interact waited');
    await team.deleteBrowser(session.id as string);
    expect((await team.interact(scrapeId, { code: "return await page.textContent('#hidden')" })).result).toBe('The secret harbour is Porthleven.');
    await team.stopInteraction(scrapeId);
  }, 120_000);
});

describe('browser time in credits', () => {
  it('a session costs 2 credits per started minute of its life (creditsBilled), an interact call its run; 402 when a minute cannot be paid', async () => {
    const { key } = await teamOnPlan('credits-team', { credits: 10 });
    const team = new Firecrawl({ apiKey: key, apiUrl: service.url });
    const remaining = async () => (await team.getCreditUsage()).remainingCredits;

    const scraped = await team.scrape(`${site.url}/click.html`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] });
    expect(await remaining()).toBe(9);
    expect((await team.interact(scraped.metadata?.scrapeId as string, { code: 'return 1' })).result).toBe('1');
    expect(await remaining()).toBe(7);
    await team.stopInteraction(scraped.metadata?.scrapeId as string);

    const short = await team.browser({});
    expect(await team.deleteBrowser(short.id as string)).toMatchObject({ success: true, creditsBilled: 2 });
    expect(await remaining()).toBe(5);
    // 61 s of life: two started minutes.
    const long = await team.browser({});
    clock = new Date(clock.getTime() + 61_000);
    const ended = await call('DELETE', `/v2/browser/${long.id as string}`, key);
    expect(json(ended)).toMatchObject({ success: true, creditsBilled: 4 });
    expect(await remaining()).toBe(1);

    const refused = await call('POST', '/v2/browser', key, {});
    expect(refused.status).toBe(402);
    expect(json(refused)).toMatchObject({ success: false, code: 'PAYMENT_REQUIRED' });
    expect(String(json(refused).error)).toContain('costs at least 2');
    const again = await team.scrape(`${site.url}/click.html`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] });
    const noInteract = await call('POST', `/v2/scrape/${again.metadata?.scrapeId as string}/interact`, key, { code: 'return 1' });
    expect(noInteract.status).toBe(402);
    await call('DELETE', `/v2/scrape/${again.metadata?.scrapeId as string}/interact`, key);
  }, 180_000);

  it('over MCP: interact with a `url` pays its scrape (1) and its run (2); an OAuth caller\'s session is charged to its team under its client', async () => {
    const { key, teamId } = await teamOnPlan('mcp-credits-team', { credits: 10 });
    const team = new Firecrawl({ apiKey: key, apiUrl: service.url });
    const keyed = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${key}` });
    try {
      const byUrl = await keyed.callTool({ name: 'interact', arguments: { url: `${site.url}/js.html`, code: "return await page.textContent('h1')" } });
      expect(structuredOf(byUrl).result).toBe('Rendered Harbour Report');
      expect((await team.getCreditUsage()).remainingCredits).toBe(7);
      await keyed.callTool({ name: 'interact_stop', arguments: { scrapeId: structuredOf(byUrl).scrapeId as string } });
    } finally {
      await keyed.close();
    }

    const grant = await service.store.createOAuthGrant({ clientId: 'https://client.example/app', teamId, scope: MCP_SCOPE, resource: '/v2/mcp-oauth' });
    const token = (await service.tokens.issue(grant, {})).access_token;
    const oauth = await connectMcp(`${service.url}/v2/mcp-oauth`, { authorization: `Bearer ${token}` });
    try {
      const created = structuredOf(await oauth.callTool({ name: 'browser_create', arguments: {} }));
      expect(structuredOf(await oauth.callTool({ name: 'browser_delete', arguments: { sessionId: created.id as string } }))).toMatchObject({ success: true, creditsBilled: 2 });
    } finally {
      await oauth.close();
    }
    expect((await team.getCreditUsage()).remainingCredits).toBe(5);
    const spenders = (await team.getCreditUsageHistorical(true)).periods.map((p) => ({ apiKey: p.apiKey, creditsUsed: p.creditsUsed }));
    expect(spenders).toEqual(expect.arrayContaining([{ apiKey: 'oauth:https://client.example/app', creditsUsed: 2 }]));
    expect(spenders.reduce((n, p) => n + p.creditsUsed, 0)).toBe(5);
  }, 180_000);
});

describe('interact', () => {
  it("drives a scrape's page by code (where the scrape's actions left it), stops, and refuses other teams and prompts without an LLM", async () => {
    const scraped = await sdk.scrape(`${site.url}/click.html`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] });
    const scrapeId = scraped.metadata?.scrapeId as string;
    expect(scrapeId).toMatch(/^[0-9a-f-]{36}$/);

    const first = await sdk.interact(scrapeId, { code: "return await page.textContent('#hidden')" });
    expect(first).toMatchObject({ success: true, exitCode: 0, result: 'The secret harbour is Porthleven.' });
    // The same page again: state kept between calls.
    await sdk.interact(scrapeId, { code: "await page.evaluate(() => { window.marker = 'kept'; })" });
    expect((await sdk.interact(scrapeId, { code: 'return await page.evaluate(() => window.marker)' })).result).toBe('kept');

    const other = await service.createKey('interact-other');
    const foreign = await call('POST', `/v2/scrape/${scrapeId}/interact`, other.key, { code: 'return 1' });
    expect(foreign.status).toBe(404);
    expect(json(foreign).code).toBe('NOT_FOUND');

    const prompt = await call('POST', `/v2/scrape/${scrapeId}/interact`, service.key, { prompt: 'click the button' });
    expect(prompt.status).toBe(503);
    expect(json(prompt).code).toBe('NOT_CONFIGURED');
    expect(String(json(prompt).error)).toMatch(/OPENAI_BASE_URL.*OLLAMA_BASE_URL.*MODEL_NAME|MODEL_NAME/);

    const stopped = await sdk.stopInteraction(scrapeId);
    expect(stopped).toMatchObject({ success: true, status: 'destroyed' });
    expect(service.browser.sessions.list(service.teamId, 'interact')).toEqual([]);

    const unknown = await call('POST', '/v2/scrape/00000000-0000-4000-8000-000000000000/interact', service.key, { code: 'return 1' });
    expect(unknown.status).toBe(404);

    // A plain-fetch zeroDataRetention scrape is not remembered: nothing to interact with (a rendered one is held in memory: interact-hold.test.ts).
    const zdr = await sdk.scrape(`${site.url}/js.html`, { formats: ['markdown'], zeroDataRetention: true });
    const notKept = await call('POST', `/v2/scrape/${zdr.metadata?.scrapeId as string}/interact`, service.key, { code: 'return 1' });
    expect(notKept.status).toBe(404);
    expect(String(json(notKept).error)).toContain('zeroDataRetention');
  }, 180_000);
});

describe('MCP tools (keyed surface)', () => {
  it('scrape renders with actions and a screenshot, interact drives its page, browser_* manage a session; keyless callers get none of it', async () => {
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
    try {
      const scraped = await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/form.html`, formats: ['markdown', { type: 'screenshot' }], actions: [{ type: 'click', selector: '#name' }, { type: 'write', text: 'Ada' }, { type: 'press', key: 'Enter' }] } });
      expect(scraped.isError ?? false).toBe(false);
      expect(textOf(scraped)).toContain('Hello, Ada!');
      expect(textOf(scraped)).toMatch(/Screenshot: http:\/\/127\.0\.0\.1:\d+\/v2\/captures\//);
      const scrapeId = (structuredOf(scraped).metadata as { scrapeId: string }).scrapeId;
      expect(textOf(scraped)).toContain(`scrapeId: ${scrapeId}`);

      const interacted = await mcp.callTool({ name: 'interact', arguments: { scrapeId, code: "return await page.textContent('#greeting')" } });
      expect(interacted.isError ?? false).toBe(false);
      expect(structuredOf(interacted)).toMatchObject({ success: true, result: 'Hello, Ada!', exitCode: 0, scrapeId });
      const byUrl = await mcp.callTool({ name: 'interact', arguments: { url: `${site.url}/js.html`, code: "return await page.textContent('h1')" } });
      expect(structuredOf(byUrl).result).toBe('Rendered Harbour Report');
      expect(structuredOf(await mcp.callTool({ name: 'interact_stop', arguments: { scrapeId } }))).toMatchObject({ success: true, status: 'destroyed' });
      await mcp.callTool({ name: 'interact_stop', arguments: { scrapeId: structuredOf(byUrl).scrapeId as string } });

      const created = structuredOf(await mcp.callTool({ name: 'browser_create', arguments: { ttl: 120 } }));
      expect(created.cdpUrl).toMatch(/^ws:\/\/.+\/v2\/browser\/cdp\//);
      const id = created.id as string;
      const ran = await mcp.callTool({ name: 'browser_execute', arguments: { sessionId: id, code: `await page.goto('${site.url}/click.html'); await page.click('#more'); return await page.textContent('#hidden')` } });
      expect(structuredOf(ran).result).toBe('The secret harbour is Porthleven.');
      expect(textOf(ran)).toContain('The secret harbour is Porthleven.');
      const bash = await mcp.callTool({ name: 'browser_execute', arguments: { sessionId: id, code: 'ls', language: 'bash' } });
      expect(bash.isError).toBe(true);
      expect(textOf(bash)).toContain('Node.js only');
      expect((structuredOf(await mcp.callTool({ name: 'browser_list', arguments: {} })).sessions as { id: string }[]).map((x) => x.id)).toContain(id);
      expect(structuredOf(await mcp.callTool({ name: 'browser_delete', arguments: { sessionId: id } }))).toMatchObject({ success: true, status: 'destroyed' });
      expect((structuredOf(await mcp.callTool({ name: 'browser_list', arguments: {} })).sessions as unknown[]).length).toBe(0);
    } finally {
      await mcp.close();
    }

    const keyless = await connectMcp(`${service.url}/v2/mcp`);
    try {
      const names = (await keyless.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('interact');
      expect(names.filter((n) => n.startsWith('browser_'))).toEqual([]);
      const refused = await keyless.callTool({ name: 'scrape', arguments: { url: `${site.url}/click.html`, actions: [{ type: 'click', selector: '#more' }] } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('keyless');
    } finally {
      await keyless.close();
    }
  }, 180_000);
});
