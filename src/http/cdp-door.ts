/**
 * The DevTools door of browser sessions: `cdpUrl` is `ws(s)://{public}/v2/browser/cdp/{token}`,
 * a WebSocket that folio relays, message for message, to the session's own Chromium (whose
 * DevTools endpoint listens on loopback only). The token is the capability: no API key is sent
 * (Playwright's `connectOverCDP(cdpUrl)` and Puppeteer's `connect` just work), and it is masked
 * in every logged path (src/log.ts). Unknown, expired or revoked-key sessions: 404 before the
 * upgrade. Each message counts as activity (activityTtl); the socket closes when the session ends.
 * Mounted on the HTTP server's `upgrade` event (src/cli/serve.ts).
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { BrowserService } from '../browser/index.ts';
import { ServiceError } from '../errors.ts';
import { pathOnly, type Logger } from '../log.ts';

const PATH = /^\/v2\/browser\/cdp\/([A-Za-z0-9_-]{20,100})\/?$/;
/** DevTools messages can be large (a screenshot's base64). */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface CdpDoor {
  close(): Promise<void>;
}

function refuse(socket: Duplex, err: ServiceError): number {
  const body = JSON.stringify(err.toBody());
  socket.end(`HTTP/1.1 ${err.status} Not Found\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  return err.status;
}

export function attachCdpDoor(server: http.Server, deps: { browser: BrowserService; logger: Logger }): CdpDoor {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const sockets = new Set<WebSocket>();

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const raw = (req.url ?? '/').split('?')[0] ?? '/';
    const m = PATH.exec(raw);
    if (!raw.startsWith('/v2/browser/cdp/')) return;
    const path = pathOnly(req.url ?? '/');
    const started = Date.now();
    const log = (status: number, teamId: string | null) => deps.logger.info({ method: req.method, path, status, ms: Date.now() - started, teamId, websocket: true }, 'request');
    socket.on('error', () => undefined);
    const gone = new ServiceError('NOT_FOUND', 'No open browser session has this DevTools URL: the session was deleted, expired, or its API key was revoked. Create one with POST /v2/browser.');
    void (async () => {
      const session = m?.[1] ? await deps.browser.sessions.byToken(m[1]) : undefined;
      if (!session) {
        log(refuse(socket, gone), null);
        return;
      }
      wss.handleUpgrade(req, socket, head, (client) => {
        log(101, session.owner.teamId);
        sockets.add(client);
        const upstream = new WebSocket(session.devtoolsUrl, { perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES });
        const pending: { data: RawData; binary: boolean }[] = [];
        const closeBoth = () => {
          client.close();
          upstream.close();
        };
        const onSessionEnd = () => closeBoth();
        session.context.once('close', onSessionEnd);
        client.on('message', (data, binary) => {
          deps.browser.sessions.touch(session);
          if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
          else pending.push({ data, binary });
        });
        upstream.on('open', () => {
          for (const p of pending.splice(0)) upstream.send(p.data, { binary: p.binary });
        });
        upstream.on('message', (data, binary) => {
          if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
        });
        client.on('close', () => {
          sockets.delete(client);
          session.context.off('close', onSessionEnd);
          upstream.close();
        });
        upstream.on('close', () => client.close());
        client.on('error', () => undefined);
        upstream.on('error', () => client.close(1011));
      });
    })().catch((err: unknown) => {
      deps.logger.error({ err }, 'browser DevTools upgrade failed');
      socket.destroy();
    });
  };

  server.on('upgrade', onUpgrade);
  return {
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
