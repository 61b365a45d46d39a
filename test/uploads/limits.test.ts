/**
 * The upload URL under the 50 MB limit (interface-v2 "Limits"): a declared Content-Length over
 * it is refused at once without reading (and, with `Expect: 100-continue`, before the client
 * sends a byte); a body without a length is cut off at the limit; no file, not even a partial
 * one, is left behind; a refused or interrupted upload leaves the URL usable until it expires.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.ts';
import { bodyPump, request, startTestService, type TestService } from '../http/helpers.ts';
import { curlUpload, parseByRef, storedFiles, ticketFor, type Ticket } from './helpers.ts';

const LIMIT = 50 * 1024 * 1024;
const TOO_LARGE = 'The file exceeds the 50 MB (52428800 bytes) upload limit';
const DOCX = corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx');

let service: TestService;
let tmp: string;

beforeAll(async () => {
  service = await startTestService();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-upload-limits-'));
});
afterAll(async () => {
  await service.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Waits until the upload directory is empty (a refused upload's part file goes as it is answered). */
async function storageDrained(ms = 2000): Promise<string[]> {
  const until = Date.now() + ms;
  while (storedFiles(service).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return storedFiles(service);
}

interface StreamedPut {
  status: number;
  body: Record<string, unknown>;
  /** Whether the server sent `100 Continue`. */
  continued: boolean;
  sentAtAnswer: number;
  sentInAll: number;
}

/**
 * PUTs `size` bytes as fast as the connection takes them, chunked unless `headers` declare a
 * length, and keeps sending after the answer (a server that read on would get all of it). With
 * `Expect: 100-continue` it sends only after the server says so.
 */
function streamPut(url: string, size: number, headers: Record<string, string> = {}): Promise<StreamedPut> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent: false, headers });
    let sent = 0;
    let continued = false;
    let answer: Omit<StreamedPut, 'sentInAll'> | undefined;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('the connection was still open after 20 s'));
    }, 20_000);
    const pump = bodyPump(req, size, 0x61, (n) => (sent += n));
    req.on('continue', () => {
      continued = true;
      pump();
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, continued, sentAtAnswer: sent };
        // Nothing more to learn: stop sending (a client that got its answer does the same).
        req.destroy();
      });
    });
    req.on('error', () => {});
    req.on('close', () => {
      clearTimeout(timer);
      if (answer) resolve({ ...answer, sentInAll: sent });
      else reject(new Error(`the connection closed without an answer after ${sent} bytes`));
    });
    if (/100-continue/i.test(headers.expect ?? '')) req.flushHeaders();
    else pump();
  });
}

/** The URL still takes the file (after a refusal or an interruption), and it parses. */
async function stillUsable(t: Ticket): Promise<void> {
  const put = await curlUpload(t, DOCX);
  expect(put.status).toBe(200);
  const res = await parseByRef(service, { uploadRef: t.uploadRef });
  expect(res.status).toBe(200);
}

describe('a declared Content-Length over 50 MB', () => {
  it('is refused at once with FILE_TOO_LARGE, without reading the body', async () => {
    const t = await ticketFor(service, 'big.docx');
    const res = await streamPut(t.uploadUrl, LIMIT + 1, { 'content-length': String(LIMIT + 1) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'FILE_TOO_LARGE', error: expect.stringContaining(TOO_LARGE) });
    expect(res.sentAtAnswer).toBeLessThan(LIMIT / 2);
    expect(await storageDrained()).toEqual([]);
    await stillUsable(t);
  });

  it('with Expect: 100-continue, is refused before the client is told to send', async () => {
    const t = await ticketFor(service, 'big.html');
    const res = await streamPut(t.uploadUrl, LIMIT + 1, { 'content-length': String(LIMIT + 1), expect: '100-continue' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('FILE_TOO_LARGE');
    expect(res.continued).toBe(false);
    expect(res.sentInAll).toBe(0);
    expect(await storageDrained()).toEqual([]);
  });

  it('an unknown URL with Expect: 100-continue is refused before the client sends', async () => {
    const t = await ticketFor(service, 'small.html');
    const wrong = t.uploadUrl.slice(0, -1) + (t.uploadUrl.endsWith('A') ? 'B' : 'A');
    const res = await streamPut(wrong, 4096, { 'content-length': '4096', expect: '100-continue' });
    expect(res.status).toBe(404);
    expect(res.continued).toBe(false);
    expect(res.sentInAll).toBe(0);
  });
});

describe('curl -T (which sends Expect: 100-continue for large files)', () => {
  it('a file of exactly 52428800 bytes is accepted, with 100 Continue sent at once', async () => {
    const file = path.join(tmp, 'exact.html');
    fs.writeFileSync(file, Buffer.alloc(LIMIT, 0x61));
    const t = await ticketFor(service, 'exact.html');
    const started = Date.now();
    const put = await curlUpload(t, file, ['-v']);
    const ms = Date.now() - started;
    expect(put.stderr).toMatch(/> Expect: 100-continue/i);
    expect(put.stderr).toMatch(/< HTTP\/1\.1 100 Continue/);
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ success: true, uploadRef: t.uploadRef, bytes: LIMIT });
    // curl waits 1 s for a 100 Continue that does not come; it came, so it did not wait.
    expect(ms).toBeLessThan(15_000);
    expect(fs.statSync(path.join(service.dataDir, 'uploads', storedFiles(service)[0] ?? '')).size).toBe(LIMIT);
    fs.rmSync(file);
  });

  it('one byte more is refused with FILE_TOO_LARGE before curl sends the file', async () => {
    const file = path.join(tmp, 'over.html');
    fs.writeFileSync(file, Buffer.alloc(LIMIT + 1, 0x61));
    const t = await ticketFor(service, 'over.html');
    const before = storedFiles(service);
    const put = await curlUpload(t, file, ['-v']);
    expect(put.status).toBe(400);
    expect(put.json).toEqual({ success: false, code: 'FILE_TOO_LARGE', error: expect.stringContaining(TOO_LARGE) });
    expect(put.stderr).not.toMatch(/100 Continue/);
    expect(storedFiles(service)).toEqual(before);
    fs.rmSync(file);
  });
});

describe('a body without a declared length (chunked)', () => {
  it('over 50 MB is cut off at the limit: FILE_TOO_LARGE while still sending, no part file left, the URL usable again', async () => {
    for (const f of storedFiles(service)) fs.rmSync(path.join(service.dataDir, 'uploads', f));
    const t = await ticketFor(service, 'stream.docx');
    const total = LIMIT + 64 * 1024 * 1024;
    const res = await streamPut(t.uploadUrl, total);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'FILE_TOO_LARGE', error: expect.stringContaining(TOO_LARGE) });
    expect(res.sentAtAnswer).toBeLessThan(total);
    expect(res.sentInAll).toBeLessThan(total);
    expect(await storageDrained()).toEqual([]);
    await stillUsable(t);
  });

  it('a client that goes away mid-upload leaves no part file, and the URL usable again', async () => {
    const t = await ticketFor(service, 'gone.docx');
    await new Promise<void>((resolve) => {
      const req = http.request(t.uploadUrl, { method: 'PUT', agent: false });
      req.on('error', () => {});
      req.write(Buffer.alloc(1024 * 1024, 0x61), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100);
      });
    });
    expect(await storageDrained()).toEqual([]);
    // The aborted PUT has given the URL back.
    const until = Date.now() + 2000;
    let put = await curlUpload(t, DOCX);
    while (put.status !== 200 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      put = await curlUpload(t, DOCX);
    }
    expect(put.status).toBe(200);
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
  });
});

describe('bodies that are not a file', () => {
  it('a multipart form is refused, saying to PUT the file itself', async () => {
    const t = await ticketFor(service, 'form.docx');
    const res = await request(t.uploadUrl, { method: 'PUT', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: Buffer.from('--x--\r\n') });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('curl -T');
    await stillUsable(t);
  });

  it('an empty body is refused, and the URL stays usable', async () => {
    const t = await ticketFor(service, 'empty.docx');
    const res = await request(t.uploadUrl, { method: 'PUT', body: Buffer.alloc(0) });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('empty');
    expect(storedFiles(service)).toEqual([]);
    await stillUsable(t);
  });
});
