/**
 * Local SIEM receivers for the audit tests, speaking the sinks' real wire formats: an HTTP webhook
 * collector (JSON arrays of events), a syslog receiver over UDP (one RFC 5424 message per
 * datagram) and over TCP (octet-counted frames, RFC 6587 3.4.1), and an HTTP server that accepts
 * connections and never answers (a dead sink).
 */
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Collector<T> {
  url: string;
  port: number;
  received: T[];
  /** Resolves once `n` items have arrived (fails after `ms`). */
  waitFor(n: number, ms?: number): Promise<T[]>;
  close(): Promise<void>;
}

function waiter<T>(received: T[]) {
  return async (n: number, ms = 15_000): Promise<T[]> => {
    const until = Date.now() + ms;
    while (received.length < n) {
      if (Date.now() > until) throw new Error(`only ${received.length} of ${n} items arrived within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return received;
  };
}

export interface WebhookPost {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP collector: every POST body is kept, answered 200 (or `status` while it is set). */
export async function startWebhookCollector(): Promise<Collector<WebhookPost> & { status: number; attempts: number }> {
  const received: WebhookPost[] = [];
  const state = { status: 200, attempts: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.attempts += 1;
      if (state.status === 200) received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = state.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/siem`,
    port,
    received,
    waitFor: waiter(received),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A syslog receiver over UDP: one message per datagram. */
export async function startUdpSyslog(): Promise<Collector<string>> {
  const received: string[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg) => received.push(msg.toString('utf8')));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    url: `syslog://127.0.0.1:${port}`,
    port,
    received,
    waitFor: waiter(received),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A syslog receiver over TCP, reading octet-counted frames (`LEN SP MSG`). */
export async function startTcpSyslog(): Promise<Collector<string>> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const space = pending.indexOf(0x20);
        if (space === -1) break;
        const length = Number(pending.subarray(0, space).toString('ascii'));
        if (!Number.isInteger(length)) throw new Error('not an octet-counted frame');
        if (pending.length < space + 1 + length) break;
        received.push(pending.subarray(space + 1, space + 1 + length).toString('utf8'));
        pending = pending.subarray(space + 1 + length);
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `syslog+tcp://127.0.0.1:${port}`,
    port,
    received,
    waitFor: waiter(received),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP server that takes connections and requests and never answers: a sink that hangs. */
export async function startDeadSink(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer(() => {
    count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/siem`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
