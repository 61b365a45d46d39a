/**
 * The scoped DevTools relay (src/browser/cdp-scope.ts) against a real Chromium with two contexts:
 * a raw DevTools client of the relay sees only its context's page, and every way to reach the
 * other context (its target id, a session it did not get, a context id, browser-level commands,
 * Target commands on a page session) is refused; Playwright's connectOverCDP works through it.
 */
import net from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScopedEndpoint } from '../../src/browser/index.ts';

let browser: Browser;
let upstream: string;
let mine: { contextId: string; targetId: string };
let other: { contextId: string; targetId: string };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [`--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'] });
  upstream = ((await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl;
  const ids = async (html: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(html);
    const info = (await (await context.newCDPSession(page)).send('Target.getTargetInfo')).targetInfo;
    return { contextId: info.browserContextId as string, targetId: info.targetId };
  };
  mine = await ids('<p>mine</p>');
  other = await ids('<p>other team</p>');
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** A raw DevTools client: send → the answer. */
async function client(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const events: Record<string, unknown>[] = [];
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  ws.on('message', (raw) => {
    const m = JSON.parse(raw.toString()) as Record<string, unknown>;
    if (typeof m.id === 'number') waiting.get(m.id)?.(m);
    else events.push(m);
  });
  return {
    events,
    send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
      const n = ++id;
      ws.send(JSON.stringify({ id: n, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise((resolve) => waiting.set(n, resolve));
    },
    close: () => ws.close(),
  };
}

describe('the scoped DevTools relay', () => {
  it('shows only its context and refuses every way to the other one', async () => {
    const endpoint = await openScopedEndpoint(upstream, mine.contextId);
    const c = await client(endpoint.url);
    try {
      const listed = (await c.send('Target.getTargets')).result as { targetInfos: { targetId: string }[] };
      expect(listed.targetInfos.map((t) => t.targetId)).toEqual([mine.targetId]);

      await c.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
      await new Promise((r) => setTimeout(r, 300));
      const attached = c.events.filter((e) => e.method === 'Target.attachedToTarget').map((e) => (e.params as { targetInfo: { targetId: string } }).targetInfo.targetId);
      expect(attached).toEqual([mine.targetId]);
      const session = (c.events.find((e) => e.method === 'Target.attachedToTarget')?.params as { sessionId: string }).sessionId;
      const read = (await c.send('Runtime.evaluate', { expression: 'document.body.textContent', returnByValue: true }, session)).result as { result: { value: string } };
      expect(read.result.value).toBe('mine');

      const refused = async (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
        const answer = await c.send(method, params, sessionId);
        expect(answer.error, method).toBeDefined();
        expect(String((answer.error as { message: string }).message)).toContain('Refused by folio');
      };
      await refused('Target.attachToTarget', { targetId: other.targetId, flatten: true });
      await refused('Target.getTargetInfo', { targetId: other.targetId });
      await refused('Target.closeTarget', { targetId: other.targetId });
      await refused('Target.createTarget', { url: 'about:blank', browserContextId: other.contextId });
      await refused('Storage.getCookies', { browserContextId: other.contextId });
      await refused('Target.createBrowserContext');
      await refused('Target.getBrowserContexts');
      await refused('Browser.close');
      await refused('Tracing.start');
      await refused('Runtime.evaluate', { expression: '1' }, 'not-a-session-of-mine');
      await refused('Target.getTargets', {}, session);
      await refused('Target.createTarget', { url: 'about:blank' }, session);
      await refused('Target.attachToTarget', { targetId: other.targetId, flatten: true }, session);
      await refused('Browser.getVersion', {}, session);
      // The other context's page is untouched.
      expect(browser.contexts()[1]?.pages()).toHaveLength(1);
    } finally {
      c.close();
      await endpoint.close();
    }
  }, 60_000);

  it("Playwright's connectOverCDP through it sees one context with its page", async () => {
    const endpoint = await openScopedEndpoint(upstream, mine.contextId);
    try {
      const remote = await chromium.connectOverCDP(endpoint.url);
      expect(remote.contexts()).toHaveLength(1);
      const pages = remote.contexts()[0]?.pages() ?? [];
      expect(await Promise.all(pages.map((p) => p.textContent('body')))).toEqual(['mine']);
      await expect(remote.newContext()).rejects.toThrow(/Refused by folio/);
      await remote.close();
    } finally {
      await endpoint.close();
    }
    // Closing the remote browser closed nothing of the held context.
    expect(browser.contexts()[0]?.pages()).toHaveLength(1);
  }, 60_000);

  it('takes one connection only', async () => {
    const endpoint = await openScopedEndpoint(upstream, mine.contextId);
    const first = await client(endpoint.url);
    try {
      const second = new WebSocket(endpoint.url);
      const code = await new Promise<number>((resolve) => second.on('close', (c) => resolve(c)));
      expect(code).toBe(1008);
    } finally {
      first.close();
      await endpoint.close();
    }
  }, 30_000);
});
