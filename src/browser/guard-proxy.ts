/**
 * The guarded forward proxy every request of the browser goes through: an HTTP proxy on
 * loopback that Chromium is started with (`--proxy-server`, `--proxy-bypass-list=<-loopback>`
 * so loopback is proxied too). It speaks the three ways a browser uses a proxy:
 *
 *   CONNECT host:port        https:// and wss:// (and ws:// — Chromium tunnels WebSockets)
 *   GET http://host/path     plain http:// (absolute-form, RFC 9112 §3.2.2)
 *   GET … Upgrade: websocket a plain ws:// upgrade sent in absolute-form
 *
 * and applies the SAME address rule as the fetcher (src/web/fetch): FOLIO_FETCH_ALLOW, literal
 * addresses checked before connecting, names checked inside the socket's own DNS lookup (so the
 * address checked is the address connected: DNS rebinding is refused at connect). Redirects are
 * re-checked because the browser makes a new request through the proxy for every hop.
 *
 * A refused plain-http request is answered 403 with `X-Folio-Blocked: <reason>` (the renderer
 * turns that into URL_BLOCKED when it is the page itself); a refused CONNECT is answered 403,
 * which Chromium reports as a failed tunnel. Every refusal is counted (`stats`).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseIp, parseAllowList, type AllowList } from '../web/fetch/address-policy.ts';
import { BlockedAddressError, guardedLookup, refusal, systemLookup, type LookupFunction } from '../web/fetch/guarded-connect.ts';

/** The header a refused plain-http answer carries, with the reason. */
export const BLOCKED_HEADER = 'x-folio-blocked';

/** The header of the proxy's own 502 (the upstream could not be reached), with what failed. */
export const PROXY_ERROR_HEADER = 'x-folio-proxy-error';

/** Idle time after which a proxied connection is closed. */
const IDLE_MS = 120_000;

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface ProxyStats {
  /** Requests and tunnels refused by the address rule since the proxy started. */
  refused: number;
  /** Requests and tunnels opened (allowed) since the proxy started. */
  allowed: number;
  /** The host:port of the last 100 refusals, oldest first. */
  refusedTargets: string[];
}

export interface GuardProxyOptions {
  /** FOLIO_FETCH_ALLOW entries. */
  allow: readonly string[];
  /** DNS lookup (tests inject one); default `dns.lookup`. */
  lookup?: LookupFunction;
  /** Told about every refusal: the host:port and why (no path, no query). */
  onRefused?: (target: string, reason: string) => void;
}

export interface GuardProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly stats: Readonly<ProxyStats>;
  /** Resolves when the target may be connected to under the rule; rejects with BlockedAddressError (the page's own URL, before navigating). */
  check(target: Target): Promise<void>;
  close(): Promise<void>;
}

export interface Target {
  host: string;
  port: number;
}

/** The socket options that make `net.connect` apply the address rule; throws BlockedAddressError for a refused literal. */
function connectOptions(allow: AllowList, lookup: LookupFunction, target: Target): { host: string; port: number; lookup: LookupFunction } {
  if (allow.allowsHost(target.host, target.port)) return { ...target, lookup };
  if (parseIp(target.host)) {
    const refused = refusal(allow, target.host, target.host);
    if (refused) throw refused;
    return { ...target, lookup };
  }
  return { ...target, lookup: guardedLookup(lookup, allow) };
}

function blockedCause(err: unknown): BlockedAddressError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof BlockedAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `host:port` of a CONNECT request target (RFC 9110 §9.3.6), IPv6 in brackets. */
function parseAuthority(authority: string | undefined): Target | undefined {
  const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority ?? '');
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (m[1] ?? '').replace(/^\[|\]$/g, '').toLowerCase(), port };
}

function absoluteTarget(raw: string | undefined): { url: URL; target: Target } | undefined {
  try {
    const url = new URL(raw ?? '');
    if (url.protocol !== 'http:' && url.protocol !== 'ws:') return undefined;
    return { url, target: { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: Number(url.port) || 80 } };
  } catch {
    return undefined;
  }
}

function forwardedHeaders(rawHeaders: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    out.push(name, rawHeaders[i + 1] ?? '');
  }
  return out;
}

function safeReason(reason: string): string {
  return reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const allow = parseAllowList(options.allow);
  const lookup = options.lookup ?? systemLookup;
  const stats: ProxyStats = { refused: 0, allowed: 0, refusedTargets: [] };
  const sockets = new Set<Duplex>();

  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  const refused = (target: Target, err: BlockedAddressError): string => {
    stats.refused++;
    const named = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
    stats.refusedTargets.push(named);
    if (stats.refusedTargets.length > 100) stats.refusedTargets.shift();
    options.onRefused?.(named, err.message);
    return safeReason(err.message);
  };

  /** Opens a socket to the target under the address rule; rejects with BlockedAddressError or the connect error. */
  const open = (target: Target): Promise<net.Socket> =>
    new Promise((resolve, reject) => {
      let opts: ReturnType<typeof connectOptions>;
      try {
        opts = connectOptions(allow, lookup, target);
      } catch (err) {
        reject(err);
        return;
      }
      const socket = net.connect(opts);
      const onError = (err: Error) => {
        socket.destroy();
        reject(err);
      };
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        track(socket);
        socket.setTimeout(IDLE_MS, () => socket.destroy());
        stats.allowed++;
        resolve(socket);
      });
    });

  const server = http.createServer();
  server.on('connection', (socket: net.Socket) => {
    track(socket);
    socket.setTimeout(IDLE_MS, () => socket.destroy());
  });

  // Plain http:// requests in absolute-form.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const parsed = absoluteTarget(req.url);
    if (!parsed || parsed.url.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('folio browser proxy: absolute http:// URLs only');
      return;
    }
    const { url, target } = parsed;
    open(target).then(
      (socket) => {
        const upstream = http.request({
          createConnection: () => socket,
          host: target.host,
          port: target.port,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: forwardedHeaders(req.rawHeaders),
          setHost: false,
        });
        upstream.on('response', (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.rawHeaders));
          answer.pipe(res);
        });
        upstream.on('error', () => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', [PROXY_ERROR_HEADER]: 'the connection failed' }).end('folio browser proxy: the upstream connection failed');
          else res.destroy();
        });
        req.pipe(upstream);
        res.on('close', () => socket.destroy());
      },
      (err: unknown) => {
        const blocked = blockedCause(err);
        if (blocked) {
          const reason = refused(target, blocked);
          res.writeHead(403, { 'content-type': 'text/plain', [BLOCKED_HEADER]: reason }).end(`folio refused this request: ${reason}`);
          return;
        }
        const code = (err as NodeJS.ErrnoException).code;
        const what = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `the host name '${target.host}' could not be resolved` : code === 'ECONNREFUSED' ? `the connection to ${target.host}:${target.port} was refused` : 'could not connect';
        res.writeHead(502, { 'content-type': 'text/plain', [PROXY_ERROR_HEADER]: safeReason(what) }).end(`folio browser proxy: ${what}`);
      },
    );
  });

  // https://, wss:// and Chromium's tunnelled ws://.
  /** Both directions of an open tunnel, each end closing the other. */
  const splice = (socket: Duplex, client: Duplex): void => {
    socket.pipe(client);
    client.pipe(socket);
    socket.on('close', () => client.destroy());
    client.on('close', () => socket.destroy());
  };
  /** A target the address rule refused (403, counted, its reason in a header) or could not reach (502). */
  const refuseTunnel = (client: Duplex, target: Target, err: unknown): void => {
    const blocked = blockedCause(err);
    if (blocked) {
      client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${refused(target, blocked)}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
  };

  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const target = parseAuthority(req.url);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    open(target).then(
      (socket) => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) socket.write(head);
        splice(socket, client);
      },
      (err: unknown) => refuseTunnel(client, target, err),
    );
  });

  // A plain ws:// upgrade sent in absolute-form (not tunnelled).
  server.on('upgrade', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const parsed = absoluteTarget(req.url);
    if (!parsed) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const { url, target } = parsed;
    open(target).then(
      (socket) => {
        const lines = [`${req.method ?? 'GET'} ${url.pathname}${url.search} HTTP/1.1`];
        const raw = req.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) {
          const name = (raw[i] ?? '').toLowerCase();
          if (name === 'proxy-authorization' || name === 'proxy-connection') continue;
          lines.push(`${raw[i] ?? ''}: ${raw[i + 1] ?? ''}`);
        }
        socket.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) socket.write(head);
        splice(socket, client);
      },
      (err: unknown) => refuseTunnel(client, target, err),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    check(target) {
      let opts: ReturnType<typeof connectOptions>;
      try {
        opts = connectOptions(allow, lookup, target);
      } catch (err) {
        return Promise.reject(err);
      }
      if (opts.lookup === lookup) return Promise.resolve();
      return new Promise((resolve, reject) => {
        opts.lookup(target.host, { all: true }, (err) => (err ? reject(err) : resolve()));
      });
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
