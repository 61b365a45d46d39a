/**
 * The job watcher the Firecrawl SDK opens (`watcher(id, {kind})`): a WebSocket on
 * `/v2/crawl/{id}` or `/v2/batch/scrape/{id}`, authenticated by the API key the SDK sends as
 * the WebSocket subprotocol (`Sec-WebSocket-Protocol: <key>`; an `Authorization: Bearer` header
 * works too). Mounted on the HTTP server's `upgrade` event (src/cli/serve.ts).
 *
 * Messages (JSON), the kinds the SDK reads:
 *   {type: 'catchup', data: {status, completed, total, creditsUsed, expiresAt, data: [docs]}}  first
 *   {type: 'document', data: doc}                     each page stored after the catchup, in order
 *   {type: 'status', data: {status, completed, total, creditsUsed, expiresAt, data: []}}  progress
 *   {type: 'done', data: {status: 'completed', …}}     the job completed; then the socket closes
 *   {type: 'error', error}                             the job failed (or vanished)
 * A cancelled job ends with a `status` message whose status is `cancelled`.
 *
 * The watcher reads the job from the store (polling, every `pollMs`), so it works whichever
 * process scrapes the pages (REDIS_URL) and across restarts. A missing or wrong key, or a job of
 * another team, refuses the upgrade with the HTTP status and folio's JSON error. The upgrade is
 * logged like a request (method, path, status, team): never its headers, so never the key.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyApiKey, type ApiKeyDirectory } from '../../auth/api-keys.ts';
import { isServiceError, ServiceError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { pathOnly } from '../log.ts';
import type { JobKind } from '../store/crawl-jobs.ts';
import type { CrawlService, CrawlStatusPage } from '../web/crawl/index.ts';

export const WATCH_POLL_MS = 250;
const CDP_PATH = /^\/v2\/browser\/cdp\//;
/** Documents per store read (and at most in the catchup). */
const CHUNK = 200;

const PATHS: readonly { kind: JobKind; pattern: RegExp }[] = [
  { kind: 'crawl', pattern: /^\/v2\/crawl\/([0-9a-f-]{36})\/?$/ },
  { kind: 'batch', pattern: /^\/v2\/batch\/scrape\/([0-9a-f-]{36})\/?$/ },
];

export interface JobWatcherDeps {
  keys: ApiKeyDirectory;
  crawls: CrawlService;
  logger: Logger;
  pollMs?: number;
}

export interface JobWatcher {
  /** Closes every watcher socket (1001, going away). */
  close(): Promise<void>;
}

function keyOf(req: http.IncomingMessage): string | undefined {
  const offered = req.headers['sec-websocket-protocol'];
  const first = typeof offered === 'string' ? offered.split(',')[0]?.trim() : undefined;
  if (first) return first;
  const auth = req.headers.authorization;
  const m = typeof auth === 'string' ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1];
}

function refuse(socket: Duplex, err: ServiceError): number {
  const status = err.status;
  const body = JSON.stringify(err.toBody());
  const reason = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Bad Request';
  const challenge = status === 401 ? 'WWW-Authenticate: Bearer realm="folio"\r\n' : '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${challenge}Connection: close\r\n\r\n${body}`,
  );
  return status;
}

const snapshot = (page: CrawlStatusPage, status: string, data: unknown[]) => ({
  success: true,
  status,
  completed: page.completed,
  total: page.total,
  creditsUsed: page.creditsUsed,
  expiresAt: page.expiresAt,
  data,
});

export function attachJobWatcher(server: http.Server, deps: JobWatcherDeps): JobWatcher {
  const pollMs = deps.pollMs ?? WATCH_POLL_MS;
  // The key is the offered subprotocol. WebSocket clients (undici, browsers) fail a handshake
  // that selects none of the offered ones, so it is selected: echoed to the client that sent it,
  // in this response only.
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => offered.values().next().value ?? false, maxPayload: 64 * 1024 });
  const sockets = new Set<WebSocket>();

  const stream = async (ws: WebSocket, owner: string, id: string, kind: JobKind) => {
    const send = (message: unknown) =>
      new Promise<void>((resolve, reject) => ws.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
    const first = await deps.crawls.status(owner, id, { skip: 0, limit: CHUNK }, kind);
    let sent = first.data.length;
    const complete = first.nextSkip === undefined;
    const live = first.status === 'scraping' || complete ? first.status : 'scraping';
    await send({ type: 'catchup', data: snapshot(first, live, first.data) });
    let lastCounts = `${first.completed}/${first.total}`;
    while (ws.readyState === ws.OPEN) {
      const page = await deps.crawls.status(owner, id, { skip: sent, limit: CHUNK }, kind);
      for (const doc of page.data) await send({ type: 'document', data: doc });
      sent += page.data.length;
      if (page.nextSkip !== undefined) continue;
      if (page.status !== 'scraping') {
        if (page.status === 'completed') await send({ type: 'done', data: snapshot(page, 'completed', []) });
        else if (page.status === 'failed') await send({ type: 'error', error: page.error ?? 'The job failed.' });
        else await send({ type: 'status', data: snapshot(page, page.status, []) });
        ws.close(1000, 'done');
        return;
      }
      const counts = `${page.completed}/${page.total}`;
      if (counts !== lastCounts) {
        lastCounts = counts;
        await send({ type: 'status', data: snapshot(page, 'scraping', []) });
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathOnly(req.url ?? '/');
    const match = PATHS.map((p) => ({ kind: p.kind, m: p.pattern.exec(path) })).find((p) => p.m);
    const started = process.hrtime.bigint();
    const log = (status: number, teamId: string | null) =>
      deps.logger.info(
        { method: req.method, path, status, ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10, teamId, websocket: true },
        'request',
      );
    // The DevTools door of browser sessions (src/http/cdp-door.ts) answers its own paths.
    if (CDP_PATH.test(path)) return;
    socket.on('error', () => undefined);
    if (!match?.m) {
      log(refuse(socket, new ServiceError('NOT_FOUND', 'No WebSocket endpoint here: watch a job on /v2/crawl/{id} or /v2/batch/scrape/{id}.')), null);
      return;
    }
    const id = match.m[1] ?? '';
    const kind = match.kind;
    void (async () => {
      const presented = keyOf(req);
      const stored = presented ? await verifyApiKey(deps.keys, presented) : undefined;
      if (!stored) {
        const why = presented ? 'Invalid API key: it is unknown, malformed or revoked.' : 'Missing API key: send it as the WebSocket subprotocol (the Firecrawl SDK does) or as `Authorization: Bearer <API_KEY>`.';
        log(refuse(socket, new ServiceError('UNAUTHORIZED', why)), null);
        return;
      }
      const owner = `team:${stored.teamId}`;
      try {
        await deps.crawls.status(owner, id, { limit: 1 }, kind);
      } catch (err) {
        log(refuse(socket, isServiceError(err) ? err : new ServiceError('NOT_FOUND', 'No such job.')), stored.teamId);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        log(101, stored.teamId);
        sockets.add(ws);
        ws.on('close', () => sockets.delete(ws));
        ws.on('error', () => undefined);
        stream(ws, owner, id, kind).catch((err: unknown) => {
          if (ws.readyState !== ws.OPEN) return;
          if (!isServiceError(err)) deps.logger.error({ err, jobId: id }, 'job watcher failed');
          ws.send(JSON.stringify({ type: 'error', error: isServiceError(err) ? err.message : 'The watcher stopped on an unexpected error.' }), () => ws.close(1011));
        });
      });
    })().catch((err: unknown) => {
      deps.logger.error({ err }, 'job watcher upgrade failed');
      socket.destroy();
    });
  };

  server.on('upgrade', onUpgrade);
  return {
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of sockets) ws.close(1001, 'the service is stopping');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of sockets) ws.terminate();
    },
  };
}
