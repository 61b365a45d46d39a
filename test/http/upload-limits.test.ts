/**
 * The 50 MB upload limit: exactly 52428800 bytes are accepted; one byte more is 400
 * FILE_TOO_LARGE, answered while the client is still sending, without the server reading the
 * rest. Spool files are gone after every request, including ones the client abandons.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDARY, bodyPump, postParse, spoolDrained, spoolFiles, startTestService, type TestService } from './helpers.ts';

const LIMIT = 50 * 1024 * 1024;
const TOO_LARGE = 'The file exceeds the 50 MB (52428800 bytes) upload limit';

/** An HTML document of exactly `size` bytes: real content, then a comment block as padding. */
function htmlOfSize(size: number): Buffer {
  const head = '<!doctype html><html><head><title>Exact limit</title></head><body><h1>Fifty megabytes exactly</h1><p>The padding below is one comment.</p><!--';
  const tail = '--></body></html>';
  const buf = Buffer.alloc(size, 0x2e);
  buf.write(head, 0, 'latin1');
  buf.write(tail, size - tail.length, 'latin1');
  return buf;
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

interface StreamedUpload {
  status: number;
  body: Record<string, unknown>;
  connection: string | undefined;
  /** Bytes of the file part the client had handed to its socket when the answer arrived. */
  sentAtAnswer: number;
  /** Bytes it managed to hand over in all. */
  sentInAll: number;
  fileSize: number;
}

/**
 * Streams a file part of `fileSize` bytes as fast as the connection takes it, without a
 * Content-Length (chunked), so only the streaming limit can stop it. It keeps sending after the
 * answer: if the server read on, the whole body would get through.
 */
function streamUpload(fileSize: number): Promise<StreamedUpload> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${service.url}/v2/parse`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${service.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    let sent = 0;
    let answer: Omit<StreamedUpload, 'sentInAll' | 'fileSize'> | undefined;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('the connection was still open after 20 s'));
    }, 20_000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, connection: res.headers.connection, sentAtAnswer: sent };
      });
    });
    req.on('error', () => {});
    req.on('close', () => {
      clearTimeout(timer);
      if (answer) resolve({ ...answer, sentInAll: sent, fileSize });
      else reject(new Error(`the connection closed without an answer after ${sent} bytes`));
    });
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.html"\r\nContent-Type: text/html\r\n\r\n`);
    bodyPump(req, fileSize, 0x2e, (n) => (sent += n), `\r\n--${BOUNDARY}--\r\n`)();
  });
}

describe('the 50 MB limit', () => {
  it('a file of exactly 52428800 bytes is accepted and parsed', async () => {
    const file = htmlOfSize(LIMIT);
    expect(file.length).toBe(52428800);
    const res = await postParse(service, [{ name: 'file', filename: 'exact.html', contentType: 'text/html', data: file }]);
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect((res.json.data as { markdown: string }).markdown).toContain('Fifty megabytes exactly');
    expect(await spoolDrained(service)).toEqual([]);
  });

  it('one byte more is 400 FILE_TOO_LARGE naming the limit', async () => {
    const res = await postParse(service, [{ name: 'file', filename: 'over.html', contentType: 'text/html', data: htmlOfSize(LIMIT + 1) }]);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, code: 'FILE_TOO_LARGE', error: expect.stringContaining(TOO_LARGE) });
    expect(await spoolDrained(service)).toEqual([]);
  });

  it('an oversized stream is answered while the client is still sending, and the rest is not read', async () => {
    const fileSize = LIMIT + 64 * 1024 * 1024;
    // Server side: what the server read from the connection.
    const sockets: Socket[] = [];
    const onConnection = (socket: Socket) => sockets.push(socket);
    service.server.on('connection', onConnection);
    const result = await streamUpload(fileSize);
    service.server.off('connection', onConnection);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('FILE_TOO_LARGE');
    expect(String(result.body.error)).toContain(TOO_LARGE);
    expect(result.connection).toBe('close');
    // The answer came after the limit was crossed and long before the end of the file …
    expect(result.sentAtAnswer).toBeGreaterThan(LIMIT);
    expect(result.sentAtAnswer).toBeLessThan(LIMIT + 16 * 1024 * 1024);
    // The server stopped reading right at the limit (a few parser chunks past it).
    expect(sockets).toHaveLength(1);
    const bytesRead = sockets[0]?.bytesRead ?? Infinity;
    expect(bytesRead).toBeGreaterThan(LIMIT);
    expect(bytesRead).toBeLessThan(LIMIT + 1024 * 1024);
    // … and although the client kept sending, it could never hand over the whole body (64 MB
    // more, well within reach in the time it had): nobody was reading it, and the server closed
    // the connection.
    expect(result.sentInAll).toBeLessThan(fileSize);
    expect(result.sentInAll - result.sentAtAnswer).toBeLessThan(16 * 1024 * 1024);
    expect(await spoolDrained(service)).toEqual([]);
  });

  it('a declared Content-Length far over the limit is refused before any body byte is read', async () => {
    const res = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      const req = http.request(`${service.url}/v2/parse`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${service.key}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(200 * 1024 * 1024),
        },
      });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => {
          resolve({ status: r.statusCode ?? 0, body, sent: req.socket?.bytesWritten ?? -1 });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(res.sent).toBeLessThan(1024);
  });
});

describe('spool files', () => {
  it('a client that abandons its upload leaves no spool file behind', async () => {
    const req = http.request(`${service.url}/v2/parse`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${service.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    req.on('error', () => {});
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="half.html"\r\n\r\n<p>`);
    req.write(Buffer.alloc(4 * 1024 * 1024, 0x2e));
    // The spool file exists while the upload is under way …
    const until = Date.now() + 5000;
    while (spoolFiles(service).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(spoolFiles(service)).toHaveLength(1);
    req.destroy();
    // … and is removed once the client is gone.
    expect(await spoolDrained(service)).toEqual([]);
    const health = await fetch(`${service.url}/health`);
    expect(health.status).toBe(200);
  });
});
