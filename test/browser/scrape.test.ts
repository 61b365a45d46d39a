/**
 * The browser engine through POST /v2/scrape of a started folio (one Chromium for the whole
 * file): rendered scrape (asked for, and an app shell), every action kind, the screenshot
 * format (PNG size = viewport, JPEG with quality, inline under zeroDataRetention), capture URLs
 * that expire (an injected clock), failing and invalid actions, and the Firecrawl SDK's scrape
 * with `screenshot` and `actions`; and SSRF through the browser: a page on the allowed site whose
 * scripts fetch, iframe, redirect and open WebSockets to loopback, private and metadata
 * addresses gets nothing, and the guarded proxy counted every refusal.
 */
// test matrix: once — rendering, actions and the guard proxy in one Chromium; the store only authenticates.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLookup, type LookupFunction } from '../../src/web/fetch/guarded-connect.ts';
import { request, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';
import { startBrowserSite, startForbidden, type BrowserSite } from './site.ts';

let site: BrowserSite;
let service: TestService;
/** An HTTPS page (self-signed, made with openssl here) whose text a script writes: the CONNECT path. */
let tls: https.Server;
let tlsUrl = '';
let clock = new Date();

/** The test's DNS: the names of /cross.html answer 127.0.0.1 (no lookup leaves the machine). */
const TEST_NAMES = new Set(['other.test', 'ads.doubleclick.net', 'rebind.test']);
const lookup: LookupFunction = (hostname, options, callback) => {
  if (!TEST_NAMES.has(hostname)) {
    systemLookup(hostname, options, callback);
    return;
  }
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

beforeAll(async () => {
  site = await startBrowserSite();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-browser-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  tls = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><head><title>TLS</title></head><body><main id="m"></main><script>document.getElementById("m").innerHTML = "<h1>Encrypted Harbour</h1>";</script></body></html>');
  });
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
  const tlsHostPort = `127.0.0.1:${(tls.address() as AddressInfo).port}`;
  tlsUrl = `https://${tlsHostPort}/tls.html`;
  // other.test and ads.doubleclick.net are allowed by name; rebind.test is not (it answers loopback).
  service = await startTestService({ now: () => clock, lookup }, { FOLIO_FETCH_ALLOW: `${site.hostPort},${tlsHostPort},other.test,ads.doubleclick.net`, FOLIO_BROWSER_MAX_PAGES: '2', FOLIO_DEFAULT_ZDR: 'on' });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  tls?.closeAllConnections();
  await new Promise<void>((resolve) => (tls ? tls.close(() => resolve()) : resolve()));
  await site?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Data {
  markdown?: string;
  html?: string;
  screenshot?: string;
  warning?: string;
  actions?: { screenshots: string[]; scrapes: { url: string; html: string }[]; javascriptReturns: { type: string; value: unknown }[]; pdfs: string[] };
  metadata: Record<string, unknown>;
}

function postScrape(body: unknown): Promise<RawResponse> {
  return request(`${service.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
    timeoutMs: 60_000,
  });
}

async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Width and height from a PNG's IHDR chunk (PNG spec §11.2.2), after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('rendered scrape', () => {
  it('fetches plainly by default, renders when asked, and gives every scrape a scrapeId', async () => {
    const plain = await postScrape({ url: `${site.url}/js.html` });
    expect(plain.status).toBe(200);
    const plainData = plain.json.data as Data;
    expect(plainData.markdown).not.toContain('Rendered Harbour Report');
    expect(String(plainData.metadata.scrapeId)).toMatch(UUID);

    const rendered = await postScrape({ url: `${site.url}/js.html`, waitFor: 50, formats: ['markdown', 'html'] });
    expect(rendered.status).toBe(200);
    const data = rendered.json.data as Data;
    expect(data.markdown).toContain('# Rendered Harbour Report');
    expect(data.markdown).toContain('Tides rise twice daily at Aberdyfi.');
    expect(data.warning).toBeUndefined();
    expect(data.metadata.statusCode).toBe(200);
    expect(data.metadata.url).toBe(`${site.url}/js.html`);
    expect(String(data.metadata.scrapeId)).toMatch(UUID);
    expect(data.metadata.scrapeId).not.toBe(plainData.metadata.scrapeId);
  });

  it('renders an https page through a CONNECT tunnel of the guarded proxy', async () => {
    const opened = service.browser.proxyStats.allowed;
    const res = await postScrape({ url: tlsUrl, waitFor: 1 });
    expect(res.status).toBe(200);
    expect((res.json.data as Data).markdown).toContain('# Encrypted Harbour');
    expect(service.browser.proxyStats.allowed).toBeGreaterThan(opened);
  });

  it('renders an application shell without being asked, the app-shell warning gone', async () => {
    const res = await postScrape({ url: `${site.url}/shell.html` });
    expect(res.status).toBe(200);
    const data = res.json.data as Data;
    expect(data.markdown).toContain('Shell Dashboard');
    expect(data.markdown).toContain('42 widgets');
    expect(data.warning).toBeUndefined();
    expect(site.requests).toContain('/static/app.js');
  });
});

describe('engine', () => {
  it('emulates a mobile device, sends the request headers to the page’s own origin, warns that redactPII spares action results', async () => {
    const res = await postScrape({
      url: `${site.url}/js.html`,
      mobile: true,
      redactPII: true,
      headers: { 'x-folio-test': 'origin-only-7Q' },
      actions: [{ type: 'executeJavascript', script: '({ width: screen.width, mobile: /Mobile/.test(navigator.userAgent), touch: navigator.maxTouchPoints > 0 })' }],
    });
    expect(res.status).toBe(200);
    // screen.width: without a viewport meta tag a mobile browser lays the page out 980 px wide.
    expect((res.json.data as Data).actions?.javascriptReturns[0]?.value).toEqual({ width: 390, mobile: true, touch: true });
    expect((res.json.data as Data).warning).toContain('`redactPII` applies to the page');
    const seen = site.requestHeaders.filter((h) => h['x-folio-test'] === 'origin-only-7Q');
    // The plain fetch first, then the browser's navigation.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.some((h) => /Mobile/.test(String(h['user-agent'])))).toBe(true);
    expect(service.logText()).not.toContain('origin-only-7Q');
  });

  it('sends headers to the page’s origin only, blocks ad hosts, refuses a name that resolves to loopback', async () => {
    const res = await postScrape({ url: `${site.url}/cross.html`, waitFor: 1, headers: { 'x-folio-test': 'first-party-3R' } });
    expect(res.status).toBe(200);
    const at = (via: string) => site.requests.findIndex((r) => r === `/pixel.png?via=${via}`);
    expect(at('cross')).toBeGreaterThanOrEqual(0);
    expect(site.requestHeaders[at('cross')]?.['x-folio-test']).toBeUndefined();
    expect(site.requestHeaders[at('cross')]?.host).toMatch(/^other\.test:/);
    expect(at('ad')).toBe(-1);
    expect(at('rebind')).toBe(-1);
    expect(service.browser.proxyStats.refusedTargets).toContain(`rebind.test:${new URL(site.url).port}`);

    const unblocked = await postScrape({ url: `${site.url}/cross.html`, waitFor: 1, blockAds: false });
    expect(unblocked.status).toBe(200);
    expect(at('ad')).toBeGreaterThanOrEqual(0);
    expect(at('rebind')).toBe(-1);
  });

  it('renders at most FOLIO_BROWSER_MAX_PAGES pages at once', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => postScrape({ url: `${site.url}/hold.html?ms=1000`, waitFor: 1 })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.every((a) => String((a.json.data as Data).markdown).includes('Held page'))).toBe(true);
    expect(site.holdMax()).toBeGreaterThanOrEqual(1);
    expect(site.holdMax()).toBeLessThanOrEqual(2);
  });

  it('answers 408 SCRAPE_TIMEOUT when the render runs past `timeout`', async () => {
    const started = Date.now();
    const res = await postScrape({ url: `${site.url}/js.html`, timeout: 3000, actions: [{ type: 'wait', milliseconds: 20_000 }] });
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('SCRAPE_TIMEOUT');
    expect(String(res.json.error)).toContain('within 3000 ms');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('launches Chromium again after it died', async () => {
    const chromiumPids = () =>
      fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
        try {
          const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return Number(fields[1]) === process.pid && /chrom/i.test(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
        } catch {
          return false;
        }
      }).map(Number);
    const before = chromiumPids();
    expect(before.length).toBeGreaterThan(0);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    const res = await postScrape({ url: `${site.url}/js.html`, waitFor: 1 });
    expect(res.status).toBe(200);
    expect((res.json.data as Data).markdown).toContain('Rendered Harbour Report');
    const after = chromiumPids();
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((pid) => before.includes(pid))).toBe(false);
    expect(service.logText()).toContain('Chromium exited unexpectedly');
  });
});

describe('actions', () => {
  it('clicks, waits (for a selector and for milliseconds), scrapes and runs JavaScript, in order', async () => {
    const res = await postScrape({
      url: `${site.url}/click.html`,
      actions: [
        { type: 'wait', selector: '#more' },
        { type: 'scrape' },
        { type: 'click', selector: '#more' },
        { type: 'wait', milliseconds: 50 },
        { type: 'wait', selector: '#hidden p' },
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: "return { harbours: document.querySelectorAll('#hidden p').length }" },
      ],
    });
    expect(res.status).toBe(200);
    const data = res.json.data as Data;
    expect(data.markdown).toContain('The secret harbour is Porthleven.');
    const actions = data.actions;
    expect(actions?.scrapes).toHaveLength(2);
    expect(actions?.scrapes[0]?.html).not.toContain('<p>The secret harbour');
    expect(actions?.scrapes[1]?.html).toContain('<p>The secret harbour is Porthleven.</p>');
    expect(actions?.scrapes[1]?.url).toBe(`${site.url}/click.html`);
    expect(actions?.javascriptReturns).toEqual([
      { type: 'string', value: 'Behind a click' },
      { type: 'object', value: { harbours: 1 } },
    ]);
    expect(actions?.screenshots).toEqual([]);
    expect(actions?.pdfs).toEqual([]);
  });

  it('fills a form (click, write, press) and scrolls an infinite list', async () => {
    const form = await postScrape({
      url: `${site.url}/form.html`,
      actions: [
        { type: 'click', selector: '#name' },
        { type: 'write', text: 'Ada Lovelace' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#greeting:not(:empty)' },
      ],
    });
    expect(form.status).toBe(200);
    expect((form.json.data as Data).markdown).toContain('Hello, Ada Lovelace!');

    const scroll = await postScrape({
      url: `${site.url}/scroll.html`,
      actions: [
        { type: 'scroll', direction: 'down' },
        { type: 'wait', milliseconds: 100 },
        { type: 'scroll', direction: 'down' },
        { type: 'wait', milliseconds: 100 },
        { type: 'scroll', direction: 'down' },
        { type: 'wait', selector: 'li:nth-child(25)' },
        { type: 'scroll', direction: 'up', selector: 'body' },
        { type: 'executeJavascript', script: 'document.querySelectorAll("li").length' },
      ],
    });
    expect(scroll.status).toBe(200);
    const data = scroll.json.data as Data;
    const count = Number(data.actions?.javascriptReturns[0]?.value);
    expect(count).toBeGreaterThanOrEqual(30);
    expect(data.markdown).toContain('Item 30');
  });

  it('takes screenshots and PDFs as actions, served at capture URLs', async () => {
    const res = await postScrape({
      url: `${site.url}/styled.html`,
      actions: [{ type: 'screenshot', viewport: { width: 640, height: 480 } }, { type: 'pdf', format: 'A4' }, { type: 'screenshot', quality: 60 }],
    });
    expect(res.status).toBe(200);
    const actions = (res.json.data as Data).actions;
    expect(actions?.screenshots).toHaveLength(2);
    expect(actions?.pdfs).toHaveLength(1);
    const png = await download(actions?.screenshots[0] ?? '');
    expect(png.status).toBe(200);
    expect(png.type).toBe('image/png');
    expect(pngSize(png.bytes)).toEqual({ width: 640, height: 480 });
    const jpeg = await download(actions?.screenshots[1] ?? '');
    expect(jpeg.type).toBe('image/jpeg');
    expect([...jpeg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const pdf = await download(actions?.pdfs[0] ?? '');
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('answers a failing action with 400 ACTION_FAILED naming its index, and a bad list with BAD_REQUEST', async () => {
    const failing = await postScrape({ url: `${site.url}/click.html`, actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#no-such-button' }] });
    expect(failing.status).toBe(400);
    expect(failing.json.code).toBe('ACTION_FAILED');
    expect(String(failing.json.error)).toContain("actions[1] (click '#no-such-button') failed");

    const throwing = await postScrape({ url: `${site.url}/click.html`, actions: [{ type: 'executeJavascript', script: "throw new Error('boom from the page')" }] });
    expect(throwing.status).toBe(400);
    expect(throwing.json.code).toBe('ACTION_FAILED');
    expect(String(throwing.json.error)).toContain('actions[0] (executeJavascript)');
    expect(String(throwing.json.error)).toContain('boom from the page');

    const unknown = await postScrape({ url: `${site.url}/click.html`, actions: [{ type: 'hover', selector: 'a' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.code).toBe('BAD_REQUEST');
    expect(String(unknown.json.error)).toContain('`actions[0]');
    const tooLong = await postScrape({ url: `${site.url}/click.html`, actions: [{ type: 'wait', milliseconds: 120_000 }] });
    expect(tooLong.json.code).toBe('BAD_REQUEST');
    expect(String(tooLong.json.error)).toContain('actions[0].milliseconds');
    const both = await postScrape({ url: `${site.url}/click.html`, actions: [{ type: 'wait', milliseconds: 5, selector: '#x' }] });
    expect(String(both.json.error)).toContain('exactly one of `milliseconds` or `selector`');
    const many = await postScrape({ url: `${site.url}/click.html`, actions: Array.from({ length: 51 }, () => ({ type: 'scrape' })) });
    expect(String(many.json.error)).toContain('`actions`');
  });
});

describe('the screenshot format', () => {
  it('is a PNG of the viewport, a JPEG with quality, full-page when asked, inline under zeroDataRetention', async () => {
    const res = await postScrape({ url: `${site.url}/styled.html`, formats: ['markdown', { type: 'screenshot', viewport: { width: 800, height: 600 } }] });
    expect(res.status).toBe(200);
    const data = res.json.data as Data;
    expect(data.markdown).toContain('Red block');
    expect(data.screenshot).toMatch(new RegExp(`^${service.url}/v2/captures/[0-9a-z]+-[A-Za-z0-9_-]{32}\\.png$`));
    const png = await download(data.screenshot ?? '');
    expect(pngSize(png.bytes)).toEqual({ width: 800, height: 600 });

    const full = await postScrape({ url: `${site.url}/scroll.html`, formats: [{ type: 'screenshot', fullPage: true, viewport: { width: 400, height: 300 } }] });
    const fullSize = pngSize((await download((full.json.data as Data).screenshot ?? '')).bytes);
    expect(fullSize.width).toBe(400);
    expect(fullSize.height).toBeGreaterThan(1000);

    const jpeg = await postScrape({ url: `${site.url}/styled.html`, formats: [{ type: 'screenshot', quality: 50 }] });
    expect((jpeg.json.data as Data).screenshot).toMatch(/\.jpeg$/);

    const zdr = await postScrape({ url: `${site.url}/styled.html`, zeroDataRetention: true, formats: [{ type: 'screenshot', viewport: { width: 320, height: 200 } }] });
    const inline = String((zdr.json.data as Data).screenshot);
    expect(inline.startsWith('data:image/png;base64,')).toBe(true);
    expect(pngSize(Buffer.from(inline.slice('data:image/png;base64,'.length), 'base64'))).toEqual({ width: 320, height: 200 });
  });

  it('serves a capture until it expires, then answers 404 and deletes it', async () => {
    const res = await postScrape({ url: `${site.url}/styled.html`, formats: [{ type: 'screenshot' }] });
    const url = String((res.json.data as Data).screenshot);
    const dir = path.join(service.dataDir, 'captures');
    const before = fs.readdirSync(dir).length;
    expect((await download(url)).status).toBe(200);

    clock = new Date(clock.getTime() + 23 * 3600_000);
    expect((await download(url)).status).toBe(200);
    clock = new Date(clock.getTime() + 3600_000 + 1000);
    const expired = await download(url);
    expect(expired.status).toBe(404);
    expect(JSON.parse(expired.bytes.toString('utf8'))).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(fs.readdirSync(dir).length).toBe(before - 1);
    // A day later every capture of this file is past its lifetime: the sweep removes them.
    clock = new Date(clock.getTime() + 2 * 86_400_000);
    expect(await service.browser.sweepCaptures()).toBeGreaterThan(0);
    expect(fs.readdirSync(dir)).toEqual([]);

    const forged = url.replace(/\/([0-9a-z]+)-/, (_m, exp: string) => `/${(parseInt(exp, 36) + 999_999).toString(36)}-`);
    expect((await download(forged)).status).toBe(404);
    expect(service.logText()).not.toContain(url.split('/').pop() ?? 'x');
  });
});

describe('Firecrawl SDK', () => {
  it('scrape() with the screenshot format and actions', async () => {
    const client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
    const doc = await client.scrape(`${site.url}/form.html`, {
      formats: ['markdown', { type: 'screenshot', viewport: { width: 600, height: 400 } }],
      actions: [
        { type: 'click', selector: '#name' },
        { type: 'write', text: 'Grace' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', milliseconds: 100 },
        { type: 'executeJavascript', script: "document.getElementById('greeting').textContent" },
      ],
    });
    expect(doc.markdown).toContain('Hello, Grace!');
    expect(pngSize((await download(doc.screenshot ?? '')).bytes)).toEqual({ width: 600, height: 400 });
    expect(doc.actions).toMatchObject({ javascriptReturns: [{ type: 'string', value: 'Hello, Grace!' }] });
    expect(String(doc.metadata?.scrapeId)).toMatch(UUID);
  });
});

describe('SSRF through the browser', () => {
  it('refuses every request of a page to loopback, private and metadata addresses at the guarded proxy', async () => {
    const forbidden = await startForbidden();
    try {
      const p = forbidden.port;
      const refusedBefore = service.browser.proxyStats.refused;
      const res = await postScrape({ url: `${site.url}/ssrf.html?p=${p}`, actions: [{ type: 'wait', selector: '#results li:nth-child(6)' }] });
      expect(res.status).toBe(200);
      const markdown = String((res.json.data as Data).markdown);
      for (const name of ['loopback', 'localhost', 'private', 'metadata', 'redirected', 'websocket']) expect(markdown).toContain(`${name}: failed`);
      expect(markdown).not.toContain('GOT');
      expect(markdown).not.toContain('OPEN');
      expect(forbidden.hits).toEqual([]);

      const stats = service.browser.proxyStats;
      // 5 fetches (one of them a redirect's second hop), 2 iframes (one redirected), 1 WebSocket.
      expect(stats.refused - refusedBefore).toBeGreaterThanOrEqual(8);
      expect(stats.refusedTargets).toEqual(expect.arrayContaining([`127.0.0.1:${p}`, `localhost:${p}`, '10.0.0.1:80', '169.254.169.254:80']));
      // The redirect hops themselves were served by the allowed site and followed through the proxy.
      expect(site.requests.filter((r) => r.startsWith('/redirect-to')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await forbidden.close();
    }
  });
});
