/**
 * A DevTools endpoint that shows ONE browser context of the shared Chromium: interact's `code`
 * runs against a held scrape page (held-pages.ts), and that page lives in the same Chromium as
 * every other team's renders. The sandboxed child (execute.ts) connects to this relay on
 * loopback (an unguessable path, one connection), the relay connects to Chromium's own DevTools
 * endpoint and filters the protocol in both directions:
 *
 *   - targets (pages, frames, workers) of other contexts, and Chromium's own UI targets, are never shown: their auto-attach is
 *     released (`Runtime.runIfWaitingForDebugger`, `Target.detachFromTarget`) by the relay itself,
 *     and `Target.*` events and `Target.getTargets` results of other contexts are dropped;
 *   - a command on a session the relay did not hand out is refused; so is any command naming a
 *     `browserContextId` or `targetId` outside the scope; a browser-level command without a
 *     `browserContextId` gets the scoped one (Playwright's "default context" IS the held one);
 *   - browser-level commands are an allow-list (what Playwright's connectOverCDP and its page
 *     operations use); `Target.createBrowserContext`, `Browser.close`, tracing and the like are
 *     refused, and `Browser.setDownloadBehavior` is answered without reaching Chromium
 *     (downloads stay refused).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** Browser-level (no sessionId) commands passed on, with the scope checks below. */
const BROWSER_ALLOWED = new Set([
  'Browser.getVersion',
  'Browser.getWindowForTarget',
  'Browser.setWindowBounds',
  'Browser.getWindowBounds',
  'Browser.grantPermissions',
  'Browser.resetPermissions',
  'Target.setAutoAttach',
  'Target.setDiscoverTargets',
  'Target.getTargetInfo',
  'Target.getTargets',
  'Target.createTarget',
  'Target.closeTarget',
  'Target.activateTarget',
  'Target.attachToTarget',
  'Target.detachFromTarget',
  'Storage.getCookies',
  'Storage.setCookies',
  'Storage.clearCookies',
]);
/** Target types of web content: the page, its frames and workers. */
const WEB_TARGET_TYPES = new Set(['page', 'iframe', 'worker', 'shared_worker', 'service_worker']);
/** Answered `{}` by the relay: harmless for the caller, not to be applied to the shared browser. */
const ANSWERED_LOCALLY = new Set(['Browser.setDownloadBehavior']);
/** `Target.*` commands refused on page sessions too (they reach beyond the page). */
const TARGET_REFUSED_IN_SESSIONS = new Set(['Target.createTarget', 'Target.createBrowserContext', 'Target.disposeBrowserContext', 'Target.getBrowserContexts', 'Target.attachToBrowserTarget', 'Target.exposeDevToolsProtocol', 'Target.setRemoteLocations', 'Target.getTargets', 'Target.setDiscoverTargets']);

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: unknown;
}

interface TargetInfo {
  targetId?: string;
  browserContextId?: string;
  type?: string;
}

export interface ScopedEndpoint {
  /** ws://127.0.0.1:{port}/{secret}: for the sandboxed child only. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Opens a relay on loopback that exposes `browserContextId` of the Chromium at `upstreamUrl`.
 * `onActivity` is called on every message from the client (the held page's idle clock).
 */
export async function openScopedEndpoint(upstreamUrl: string, browserContextId: string, onActivity: () => void = () => undefined): Promise<ScopedEndpoint> {
  const secret = randomBytes(24).toString('base64url');
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, path: `/${secret}` });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  const port = (wss.address() as AddressInfo).port;
  const sockets = new Set<WebSocket>();
  let accepted = false;

  wss.on('connection', (client) => {
    if (accepted) {
      client.close(1008, 'one connection');
      return;
    }
    accepted = true;
    sockets.add(client);
    const upstream = new WebSocket(upstreamUrl, { perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES });
    sockets.add(upstream);
    const pending: string[] = [];
    const sessions = new Set<string>();
    const targets = new Set<string>();
    /** Ids of the relay's own commands (released foreign attachments): their answers are dropped. */
    let ownId = 1_000_000_000;
    const ownIds = new Set<number>();
    /** The client's attach commands in flight: their answers name a session of the scope. */
    const attaching = new Set<number>();

    const toUpstream = (m: Message) => {
      const text = JSON.stringify(m);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else pending.push(text);
    };
    const toClient = (m: Message) => {
      if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(m));
    };
    const refuse = (m: Message, why: string) => {
      if (m.id !== undefined) toClient({ id: m.id, ...(m.sessionId ? { sessionId: m.sessionId } : {}), error: { code: -32000, message: `Refused by folio: ${why}` } });
    };
    const own = (method: string, params: Record<string, unknown>, sessionId?: string) => {
      const id = ownId++;
      ownIds.add(id);
      toUpstream({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    };
    // Chromium's own UI targets of the context (`browser_ui`: the omnibox popup, a privileged WebUI page) are not the page's.
    const inScope = (info: TargetInfo | undefined) => info?.browserContextId === browserContextId && WEB_TARGET_TYPES.has(info.type ?? '');

    /** The scope checks of a command's parameters; a reason to refuse, or undefined. */
    const outOfScope = (params: Record<string, unknown>): string | undefined => {
      if (params.browserContextId !== undefined && params.browserContextId !== browserContextId) return 'another browser context';
      if (typeof params.targetId === 'string' && !targets.has(params.targetId)) return 'a target outside this page';
      if (typeof params.sessionId === 'string' && !sessions.has(params.sessionId)) return 'a session outside this page';
      return undefined;
    };

    const fromClient = (raw: RawData) => {
      onActivity();
      let m: Message;
      try {
        m = JSON.parse(raw.toString()) as Message;
      } catch {
        return;
      }
      if (typeof m.method !== 'string' || typeof m.id !== 'number') return;
      const params = m.params ?? {};
      if (m.sessionId !== undefined) {
        if (!sessions.has(m.sessionId)) return refuse(m, 'an unknown session');
        if (TARGET_REFUSED_IN_SESSIONS.has(m.method) || m.method.startsWith('Browser.') || m.method.startsWith('Tracing.')) return refuse(m, `${m.method} reaches beyond this page`);
        const why = outOfScope(params);
        if (why) return refuse(m, why);
        toUpstream(m);
        return;
      }
      if (ANSWERED_LOCALLY.has(m.method)) {
        toClient({ id: m.id, result: {} });
        return;
      }
      if (!BROWSER_ALLOWED.has(m.method)) return refuse(m, `${m.method} is not available on an interact page`);
      const why = outOfScope(params);
      if (why) return refuse(m, why);
      if (m.method === 'Target.attachToTarget') attaching.add(m.id);
      const scoped = ['Target.createTarget', 'Browser.grantPermissions', 'Browser.resetPermissions', 'Storage.getCookies', 'Storage.setCookies', 'Storage.clearCookies'].includes(m.method) ? { ...params, browserContextId } : params;
      toUpstream({ ...m, params: scoped });
    };

    const fromUpstream = (raw: RawData) => {
      let m: Message;
      try {
        m = JSON.parse(raw.toString()) as Message;
      } catch {
        return;
      }
      if (m.id !== undefined) {
        if (ownIds.delete(m.id)) return;
        if (m.result && Array.isArray(m.result.targetInfos)) {
          m.result = { ...m.result, targetInfos: (m.result.targetInfos as TargetInfo[]).filter((t) => inScope(t) || (t.targetId !== undefined && targets.has(t.targetId))) };
        }
        if (attaching.delete(m.id) && typeof m.result?.sessionId === 'string') sessions.add(m.result.sessionId);
        if (typeof m.result?.targetId === 'string') targets.add(m.result.targetId);
        toClient(m);
        return;
      }
      const params = m.params ?? {};
      if (m.sessionId !== undefined && !sessions.has(m.sessionId)) return;
      if (m.method === 'Target.attachedToTarget') {
        const info = params.targetInfo as TargetInfo | undefined;
        const child = params.sessionId as string;
        // A target attached under a page of the scope (a frame, a worker) is in the scope too.
        if (m.sessionId !== undefined || inScope(info)) {
          sessions.add(child);
          if (info?.targetId) targets.add(info.targetId);
          toClient(m);
        } else {
          if (params.waitingForDebugger === true) own('Runtime.runIfWaitingForDebugger', {}, child);
          own('Target.detachFromTarget', { sessionId: child });
        }
        return;
      }
      if (m.method === 'Target.detachedFromTarget') {
        const child = params.sessionId as string;
        if (!sessions.delete(child)) return;
        toClient(m);
        return;
      }
      if (m.method === 'Target.targetCreated' || m.method === 'Target.targetInfoChanged') {
        const info = params.targetInfo as TargetInfo | undefined;
        if (!inScope(info)) return;
        if (info?.targetId) targets.add(info.targetId);
        toClient(m);
        return;
      }
      if (m.method === 'Target.targetDestroyed' || m.method === 'Target.targetCrashed') {
        const id = params.targetId as string;
        if (!targets.has(id)) return;
        if (m.method === 'Target.targetDestroyed') targets.delete(id);
        toClient(m);
        return;
      }
      // Other browser-level events (Browser.downloadWillBegin …) name contexts or frames of anyone: dropped.
      if (m.sessionId === undefined) return;
      toClient(m);
    };

    client.on('message', fromClient);
    upstream.on('message', fromUpstream);
    upstream.on('open', () => {
      for (const text of pending.splice(0)) upstream.send(text);
    });
    const closeBoth = () => {
      client.close();
      upstream.close();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', () => undefined);
    upstream.on('error', () => client.close(1011));
  });

  return {
    url: `ws://127.0.0.1:${port}/${secret}`,
    async close() {
      for (const s of sockets) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** One command on a DevTools endpoint (a fresh connection, closed after): its result. */
export async function cdpCommand(url: string, method: string, params: Record<string, unknown> = {}, timeoutMs = 5000): Promise<Record<string, unknown>> {
  const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
  try {
    return await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer within ${timeoutMs} ms`)), timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, method, params })));
      socket.on('message', (raw: RawData) => {
        const m = JSON.parse(raw.toString()) as Message;
        if (m.id !== 1) return;
        clearTimeout(timer);
        if (m.error !== undefined) reject(new Error(`${method}: ${JSON.stringify(m.error).slice(0, 200)}`));
        else resolve(m.result ?? {});
      });
    });
  } finally {
    socket.terminate();
  }
}
