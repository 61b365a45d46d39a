/**
 * Connections (docs/connections.md) against the started service, with raw sockets for slow
 * clients: slow heads are dropped after the headers timeout, a body that sends nothing for the
 * idle timeout is dropped and its spool file removed, a slow but moving upload succeeds, uploads
 * in flight are capped per client address and per key (429 + Retry-After), and with the
 * connection cap full of slow clients `/health` answers throughout while other requests get
 * 429 or a connection. The caps are lowered through the environment to keep socket counts small.
 */
// test matrix: once — socket timeouts and per-process connection caps; no store or shared state in question.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { BOUNDARY, postParse, request, spoolDrained, spoolFiles, startTestService, upload, type TestService } from './helpers.ts';

const blog = readCorpus('html', 'markitdown', 'test_blog.html');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RawClient {
  socket: net.Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves with the ms from `since` when the server closed the connection. */
  closed: Promise<number>;
  startedAt: number;
  /** Writes `chunk` every `everyMs` until stopped or closed. */
  trickle(chunk: string, everyMs: number): void;
  stop(): void;
}

function connect(service: { port: number }, first?: string): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(service.port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    const startedAt = Date.now();
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', () => {});
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - startedAt)));
    void closed.then(() => clearInterval(timer));
    socket.once('connect', () => {
      if (first) socket.write(first);
      resolve({
        socket,
        received: () => data,
        closed,
        startedAt,
        trickle(chunk, everyMs) {
          timer = setInterval(() => {
            if (!socket.destroyed) socket.write(chunk);
          }, everyMs);
        },
        stop() {
          clearInterval(timer);
          socket.destroy();
        },
      });
    });
    socket.once('error', reject);
  });
}

/** The head and the start of a multipart upload whose file part never ends. */
function uploadHead(key: string, forwardedFor?: string): string {
  const contentLength = 10 * 1024 * 1024;
  return (
    `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
    (forwardedFor ? `X-Forwarded-For: ${forwardedFor}\r\n` : '') +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${contentLength}\r\n\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.html"\r\nContent-Type: text/html\r\n\r\n<html><body><p>`
  );
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(25);
  return check();
}

async function health(service: { url: string }): Promise<number> {
  const started = Date.now();
  const res = await request(`${service.url}/health`, { timeoutMs: 10_000 });
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ ok: true });
  return Date.now() - started;
}

describe('timeouts', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { FOLIO_HEADERS_TIMEOUT_SECONDS: '2', FOLIO_BODY_IDLE_TIMEOUT_SECONDS: '2' });
  });
  afterAll(async () => {
    await service.stop();
  });

  it('a slow request head is dropped after the headers timeout, even while it trickles', async () => {
    const trickling = await connect(service, 'POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickling.trickle('X-Slow: a\r\n', 300);
    const silent = await connect(service);
    const [tricklingMs, silentMs] = await Promise.all([trickling.closed, silent.closed]);
    // 2 s bound, checked every second by Node; generous upper bound for a loaded machine.
    expect(tricklingMs).toBeGreaterThan(1_500);
    expect(tricklingMs).toBeLessThan(10_000);
    expect(silentMs).toBeLessThan(10_000);
    expect(trickling.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an idle keep-alive connection is still closed after its answer', async () => {
    const client = await connect(service, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const ms = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeLessThan(10_000);
  });

  it('a body that sends nothing for the idle timeout is dropped, and its spool file removed', async () => {
    const stalled = await connect(service, uploadHead(service.key));
    // The upload is under way: its spool file exists.
    expect(await until(() => spoolFiles(service).length === 1, 10_000)).toBe(true);
    const sentAt = Date.now();
    await stalled.closed;
    const idleMs = Date.now() - sentAt;
    expect(idleMs).toBeGreaterThan(1_000);
    expect(idleMs).toBeLessThan(10_000);
    expect(await spoolDrained(service, 5_000)).toEqual([]);
    // The service goes on.
    await health(service);
  });

  it('a stalled PUT to an upload URL is dropped too, and its partial file removed', async () => {
    const ticket = await request(`${service.url}/v2/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ filename: 'slow.html' })),
    });
    expect(ticket.status).toBe(200);
    const uploadPath = new URL(String(ticket.json.uploadUrl)).pathname;
    const stored = path.join(service.dataDir, 'uploads');
    const stalled = await connect(service, `PUT ${uploadPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n<html><body>`);
    expect(await until(() => fs.readdirSync(stored).some((f) => f.endsWith('.part')), 10_000)).toBe(true);
    const sentAt = Date.now();
    await stalled.closed;
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect(await until(() => fs.readdirSync(stored).length === 0, 5_000)).toBe(true);
  });

  it('a 50 MB upload sent in pieces with pauses (idle, not total) succeeds', async () => {
    const size = 50 * 1024 * 1024;
    const file = Buffer.alloc(size, 0x2e);
    file.write('<html><body><h1>Fifty slow megabytes</h1><!--', 0, 'latin1');
    file.write('--></body></html>', size - 17, 'latin1');
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.html"\r\nContent-Type: text/html\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const client = await connect(
      service,
      `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${service.key}\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // Ten pieces, 700 ms apart: the connection pauses again and again, never for the 2 s idle timeout.
    const piece = Math.ceil(body.length / 10);
    for (let i = 0; i < 10 && !client.socket.destroyed; i++) {
      client.socket.write(body.subarray(i * piece, (i + 1) * piece));
      await sleep(700);
    }
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received()).toContain('Fifty slow megabytes');
    expect(await spoolDrained(service, 5_000)).toEqual([]);
  }, 120_000);

  it('a slow but moving upload outlasts the idle timeout several times over and succeeds', async () => {
    const paragraph = '<p>Slow but steady paragraph.</p>\n';
    const steps = 16;
    const file = `<html><body><h1>Slow upload</h1>\n${paragraph.repeat(steps)}</body></html>`;
    const body = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.html"\r\nContent-Type: text/html\r\n\r\n${file}\r\n--${BOUNDARY}--\r\n`,
    );
    const client = await connect(
      service,
      `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${service.key}\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // In pieces 500 ms apart: 8 s in all, four times the 2 s idle timeout.
    const piece = Math.ceil(body.length / steps);
    for (let i = 0; i < steps; i++) {
      client.socket.write(body.subarray(i * piece, (i + 1) * piece));
      await sleep(500);
    }
    await client.closed;
    expect(Date.now() - client.startedAt).toBeGreaterThan(7_000);
    const text = client.received();
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain('Slow upload');
    expect(await spoolDrained(service, 5_000)).toEqual([]);
  });
});

describe('uploads in flight per client address and per key', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { FOLIO_MAX_UPLOADS_PER_CLIENT: '4', FOLIO_MAX_UPLOADS_PER_KEY: '3', FOLIO_BODY_IDLE_TIMEOUT_SECONDS: '30' });
  });
  afterAll(async () => {
    await service.stop();
  });

  it('past either cap the request is 429 with Retry-After, and the slots come back when uploads end', async () => {
    const second = await service.createKey('other-team');
    const held: RawClient[] = [];
    for (let i = 0; i < 3; i++) held.push(await connect(service, uploadHead(service.key)));
    expect(await until(() => spoolFiles(service).length === 3, 10_000)).toBe(true);

    const perKey = await postParse(service, upload('a.html', blog));
    expect(perKey.status).toBe(429);
    expect(perKey.json).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.stringContaining('for this API key: at most 3 at once') });
    expect(perKey.headers['retry-after']).toBe('5');
    expect(String(perKey.json.error)).toContain('Retry in 5 seconds');
    // The key is never in the answer.
    expect(perKey.text).not.toContain(service.key);

    // Another key from the same address: one more fits (4 per address), then the address is full.
    held.push(await connect(service, uploadHead(second.key)));
    expect(await until(() => spoolFiles(service).length === 4, 10_000)).toBe(true);
    const perClient = await postParse({ url: service.url, key: second.key }, upload('a.html', blog));
    expect(perClient.status).toBe(429);
    expect(perClient.json).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.stringContaining('from your address: at most 4 at once') });
    expect(perClient.headers['retry-after']).toBe('5');
    // Health is not an upload.
    await health(service);

    for (const c of held) c.stop();
    expect(await spoolDrained(service, 5_000)).toEqual([]);
    const after = await postParse(service, upload('a.html', blog));
    expect(after.status).toBe(200);
    // Neither the key nor the address reaches the log.
    expect(service.logText()).not.toContain(service.key);
    expect(service.logText()).not.toContain(second.key);
  });
});

describe('client addresses behind a trusted proxy', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { FOLIO_TRUST_PROXY: 'loopback', FOLIO_MAX_UPLOADS_PER_CLIENT: '2', FOLIO_MAX_UPLOADS_PER_KEY: '100', FOLIO_BODY_IDLE_TIMEOUT_SECONDS: '30' });
  });
  afterAll(async () => {
    await service.stop();
  });

  const refusedFrom = async (address: string): Promise<boolean> => {
    const res = await postParse(service, upload('a.html', blog), { headers: { 'x-forwarded-for': address } });
    if (res.status === 429) expect(String(res.json.error)).toContain('from your address: at most 2 at once');
    else expect(res.status).toBe(200);
    return res.status === 429;
  };

  it('counts the forwarded address, and an IPv6 client by its /64', async () => {
    const held: RawClient[] = [];
    for (const address of ['198.51.100.7', '198.51.100.7', '2001:db8::1', '2001:db8::2']) held.push(await connect(service, uploadHead(service.key, address)));
    expect(await until(() => spoolFiles(service).length === 4, 10_000)).toBe(true);
    expect(await refusedFrom('198.51.100.7')).toBe(true);
    expect(await refusedFrom('2001:db8::3')).toBe(true);
    // Another IPv4 address, another /64, and the proxy's own address are other clients.
    expect(await refusedFrom('198.51.100.8')).toBe(false);
    expect(await refusedFrom('2001:db8:0:1::1')).toBe(false);
    for (const c of held) c.stop();
    expect(await spoolDrained(service, 5_000)).toEqual([]);
  });
});

describe('the connection cap with hundreds of slow clients', () => {
  const MAX = 40;
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(
      {},
      {
        FOLIO_MAX_CONNECTIONS: String(MAX),
        FOLIO_HEADERS_TIMEOUT_SECONDS: '60',
        FOLIO_BODY_IDLE_TIMEOUT_SECONDS: '60',
        FOLIO_MAX_UPLOADS_PER_CLIENT: '1000',
        FOLIO_MAX_UPLOADS_PER_KEY: '1000',
      },
    );
  });
  afterAll(async () => {
    await service.stop();
  });

  it('slow heads cannot hold the cap: /health and real requests are served throughout', async () => {
    const slow: RawClient[] = [];
    const healthMs: number[] = [];
    for (let i = 0; i < 300; i++) {
      const c = await connect(service, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      c.trickle('X-Slow: a\r\n', 1_000);
      slow.push(c);
      if (i % 50 === 49) healthMs.push(await health(service));
    }
    expect(healthMs).toHaveLength(6);
    const parsed = await postParse(service, upload('a.html', blog));
    expect(parsed.status).toBe(200);
    // The server never held more than the cap and its reserve: the oldest slow heads were closed.
    expect(await until(() => slow.filter((c) => c.socket.destroyed).length >= 300 - MAX, 10_000)).toBe(true);
    const open = await new Promise<number>((resolve, reject) => service.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    expect(open).toBeLessThanOrEqual(MAX + 16);
    for (const c of slow) c.stop();
  });

  it('with every connection busy, another request gets 429 with Retry-After on a reserve connection, and /health still answers', async () => {
    // Uploads that keep moving fill the cap with requests under way.
    const busy: RawClient[] = [];
    for (let i = 0; i < MAX; i++) {
      const c = await connect(service, uploadHead(service.key));
      c.trickle('x', 1_000);
      busy.push(c);
    }
    expect(await until(() => spoolFiles(service).length === MAX, 15_000)).toBe(true);
    const refused = await postParse(service, upload('a.html', blog));
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.stringContaining(`limit of ${MAX} concurrent connections`) });
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    for (let i = 0; i < 5; i++) await health(service);
    // Hundreds more connections while the cap is busy: each is answered or closed, none hangs.
    const extra = await Promise.all(Array.from({ length: 200 }, () => connect(service, 'GET /v2/anything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')));
    const outcomes = await Promise.all(extra.map((c) => Promise.race([c.closed.then(() => c.received()), sleep(20_000).then(() => 'open')])));
    expect(outcomes.filter((o) => o === 'open')).toEqual([]);
    for (const o of outcomes) {
      if (o !== '') expect(o).toMatch(/^HTTP\/1\.1 429 /);
    }
    expect(outcomes.filter((o) => o.startsWith('HTTP/1.1 429 ')).length).toBeGreaterThan(0);
    await health(service);
    for (const c of busy) c.stop();
    expect(await spoolDrained(service, 10_000)).toEqual([]);
    expect((await postParse(service, upload('a.html', blog))).status).toBe(200);
  });
});
