/**
 * Every error leaves in the spec's shape `{ success: false, code, error }` with its status:
 * malformed requests, missing or extra parts, unsupported and mismatched files, unknown routes,
 * unexpected failures (500 without internals), timeouts and the 402/429 shapes. No spool file
 * survives any of them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.ts';
import { errorHandler } from '../../src/http/error-handler.ts';
import { createLogger } from '../../src/log.ts';
import { inProcessRunner, type ParseRunner } from '../../src/limits/runner.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { BOUNDARY, bodyPump, multipartBody, postParse, request, spoolDrained, startTestService, upload, type RawResponse, type TestService } from './helpers.ts';

const blog = readCorpus('html', 'markitdown', 'test_blog.html');
const pdf = readCorpus('pdf', 'pdfjs', 'rotation.pdf');
const docx = readCorpus('office', 'docx', 'kreuzberg-extraction_test.docx');

function expectError(res: RawResponse, status: number, code: string, ...fragments: string[]): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'success']);
  expect(res.json.success).toBe(false);
  expect(res.json.code).toBe(code);
  expect(typeof res.json.error).toBe('string');
  for (const f of fragments) expect(String(res.json.error)).toContain(f);
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  expect(await spoolDrained(service)).toEqual([]);
  await service.stop();
});

function post(headers: Record<string, string>, body?: Buffer) {
  return request(`${service.url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, ...headers },
    ...(body ? { body } : {}),
  });
}

describe('health and routing', () => {
  it('GET /health answers without a key', async () => {
    const res = await request(`${service.url}/health`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
  });

  it('unknown routes are 404 NOT_FOUND', async () => {
    expectError(await request(`${service.url}/nope`), 404, 'NOT_FOUND');
    expectError(await request(`${service.url}/v2/nothing-here`, { method: 'POST', headers: { authorization: `Bearer ${service.key}` } }), 404, 'NOT_FOUND', 'No route matches');
    expectError(await request(`${service.url}/v2/parse`, { headers: { authorization: `Bearer ${service.key}` } }), 404, 'NOT_FOUND');
  });

  it('Firecrawl paths folio does not serve get an answer naming the feature, not "No route matches" (docs/compat.md)', async () => {
    const auth = { authorization: `Bearer ${service.key}` };
    expectError(await request(`${service.url}/v2/agent/threads/abc`, { headers: auth }), 400, 'NOT_YET_SUPPORTED', 'Agent threads', 'planned for folio');
    expectError(await request(`${service.url}/v2/monitor/abc/checks`, { headers: auth }), 404, 'NOT_FOUND', 'Monitors', 'folio does not provide');
    expectError(await request(`${service.url}/exchange/discover`), 404, 'NOT_FOUND', 'Alexandria');
    // Without a key: the 401 every /v2 path gives.
    expectError(await request(`${service.url}/v2/agent`, { method: 'POST' }), 401, 'UNAUTHORIZED');
  });
});

describe('not multipart', () => {
  it('a JSON body is an upload by reference (docs/uploads.md): a malformed uploadRef is a 400 that says so', async () => {
    const res = await post({ 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ uploadRef: 'abc' })));
    expectError(res, 400, 'BAD_REQUEST', 'Invalid uploadRef');
  });

  it('no Content-Type, or another one, is a 400 that says what is expected', async () => {
    expectError(await post({}, Buffer.from('hello')), 400, 'BAD_REQUEST', 'no Content-Type', "'file' part");
    expectError(await post({ 'content-type': 'text/html' }, blog), 400, 'BAD_REQUEST', "'text/html'");
  });
});

describe('malformed multipart', () => {
  it('no boundary parameter', async () => {
    const res = await post({ 'content-type': 'multipart/form-data' }, multipartBody(upload('a.html', blog)));
    expectError(res, 400, 'BAD_REQUEST', 'boundary');
  });

  it('a body that does not use the announced boundary', async () => {
    const res = await post({ 'content-type': 'multipart/form-data; boundary=something-else' }, multipartBody(upload('a.html', blog)));
    expectError(res, 400, 'BAD_REQUEST', 'Invalid multipart/form-data body', 'Unexpected end of form');
  });

  it('a truncated body (cut inside the file part)', async () => {
    const body = multipartBody(upload('a.html', blog));
    const res = await post({ 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body.subarray(0, body.length >> 1));
    expectError(res, 400, 'BAD_REQUEST', 'Invalid multipart/form-data body');
  });

  it('a malformed part header', async () => {
    const body = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data name file\r\n\r\nxx\r\n--${BOUNDARY}--\r\n`);
    const res = await post({ 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body);
    expectError(res, 400, 'BAD_REQUEST', 'Malformed part header');
  });
});

describe('parts', () => {
  it('no file part', async () => {
    expectError(await postParse(service, [{ name: 'options', data: '{}' }]), 400, 'BAD_REQUEST', "no 'file' part");
  });

  it('two file parts', async () => {
    const res = await postParse(service, [
      { name: 'file', filename: 'a.html', data: blog },
      { name: 'file', filename: 'b.html', data: blog },
    ]);
    expectError(res, 400, 'BAD_REQUEST', "more than one 'file' part");
  });

  it('a file part without a filename', async () => {
    expectError(await postParse(service, [{ name: 'file', data: '<p>hi</p>' }]), 400, 'BAD_REQUEST', 'no filename');
  });

  it('a file under another part name', async () => {
    expectError(await postParse(service, [{ name: 'document', filename: 'a.html', data: blog }]), 400, 'BAD_REQUEST', "Unexpected file part 'document'");
  });

  it('two options parts', async () => {
    const res = await postParse(service, [{ name: 'options', data: '{}' }, { name: 'options', data: '{}' }, { name: 'file', filename: 'a.html', data: blog }]);
    expectError(res, 400, 'BAD_REQUEST', "more than one 'options' part");
  });

  it('exactly 10 parts are accepted; 11 are refused, also when the 11th is a file', async () => {
    const notes = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `note${i}`, data: 'x' }));
    const ten = await postParse(service, [...notes(8), ...upload('a.html', blog, {})]);
    expect(ten.status).toBe(200);
    expect((ten.json.data as { markdown: string }).markdown.length).toBeGreaterThan(0);
    expectError(await postParse(service, [...notes(11), { name: 'file', filename: 'a.html', data: blog }]), 400, 'BAD_REQUEST', 'more than 10 multipart parts');
    expectError(await postParse(service, [...notes(9), ...upload('a.html', blog, {})]), 400, 'BAD_REQUEST', 'more than 10 multipart parts');
  });

  it('text parts together over their cap are 413 PAYLOAD_TOO_LARGE naming the limit', async () => {
    // Each under the 1 MB field limit, together over the 1114112 bytes all text parts may take.
    const half = 'y'.repeat(600 * 1024);
    const res = await postParse(service, [{ name: 'a', data: half }, { name: 'b', data: half }, ...upload('a.html', blog)]);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE', 'text parts total more than 1114112 bytes');
  });

  it('an endless ignored text field under chunked encoding is refused while it streams', async () => {
    const fieldSize = 256 * 1024 * 1024;
    const result = await new Promise<{ status: number; body: Record<string, unknown>; sentAtAnswer: number }>((resolve, reject) => {
      const req = http.request(`${service.url}/v2/parse`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${service.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      let sent = 0;
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error('no answer within 60 s'));
      }, 60_000);
      req.on('response', (res) => {
        const sentAtAnswer = sent;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, sentAtAnswer });
          req.destroy();
        });
      });
      req.on('error', () => {});
      req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n`);
      bodyPump(req, fieldSize, 0x7a, (n) => (sent += n), `\r\n--${BOUNDARY}--\r\n`)();
    });
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', error: expect.stringContaining('1114112 bytes') });
    // Answered a few megabytes in, not after the whole field.
    expect(result.sentAtAnswer).toBeLessThan(32 * 1024 * 1024);
  });

  it('a part name longer than 100 bytes', async () => {
    expectError(await postParse(service, [{ name: 'n'.repeat(101), data: 'x' }, { name: 'file', filename: 'a.html', data: blog }]), 400, 'BAD_REQUEST', 'longer than 100 bytes');
  });

  it('an options part over 1 MB, as a text field and as a file part', async () => {
    const huge = JSON.stringify({ origin: 'x'.repeat(1024 * 1024) });
    expectError(await postParse(service, upload('a.html', blog, huge)), 400, 'BAD_REQUEST', "'options' part is larger than 1048576 bytes");
    const asFile = [{ name: 'options', filename: 'o.json', contentType: 'application/json', data: huge }, { name: 'file', filename: 'a.html', data: blog }];
    expectError(await postParse(service, asFile), 400, 'BAD_REQUEST', "'options' part is larger than 1048576 bytes");
  });

  it('other text fields are ignored', async () => {
    const res = await postParse(service, [{ name: 'note', data: 'hello' }, ...upload('a.html', blog)]);
    expect(res.status).toBe(200);
  });
});

describe('file types', () => {
  it('an extension outside the spec list is 400 UNSUPPORTED_FILE_TYPE', async () => {
    expectError(await postParse(service, upload('notes.txt', 'plain text')), 400, 'UNSUPPORTED_FILE_TYPE', "'.txt'", '.html, .htm, .pdf');
  });

  it('bytes that contradict the name are 400 UNSUPPORTED_FILE_TYPE', async () => {
    expectError(await postParse(service, upload('report.docx', pdf)), 400, 'UNSUPPORTED_FILE_TYPE', 'named as a Word (.docx) document', 'a PDF');
    expectError(await postParse(service, upload('page.pdf', blog)), 400, 'UNSUPPORTED_FILE_TYPE', 'named as a PDF');
    expectError(await postParse(service, upload('sheet.xlsx', docx)), 400, 'UNSUPPORTED_FILE_TYPE', 'Excel');
  });

  it('an empty file is 400 CORRUPT_FILE', async () => {
    expectError(await postParse(service, upload('empty.html', Buffer.alloc(0))), 400, 'CORRUPT_FILE', 'empty');
  });

  it('a truncated zip container is 400 CORRUPT_FILE', async () => {
    expectError(await postParse(service, upload('cut.docx', docx.subarray(0, 4000))), 400, 'CORRUPT_FILE');
  });
});

describe('timeouts through the worker pool', () => {
  it('a parse past its timeout is 408 SCRAPE_TIMEOUT', async () => {
    const page = readCorpus('html', 'markitdown', 'test_serp.html');
    expectError(await postParse(service, upload('serp.html', page, { timeout: 1 })), 408, 'SCRAPE_TIMEOUT', 'timeout of 1 ms');
    // The service goes on.
    expect((await postParse(service, upload('a.html', blog))).status).toBe(200);
  });
});

describe('failures of the runner', () => {
  const secret = 'internal detail /var/secret/path 0xdeadbeef';
  const failing: ParseRunner = async (input, options, run) => {
    switch (input.filename) {
      case 'boom.html':
        throw new Error(secret);
      case 'credits.html':
        throw new ServiceError('PAYMENT_REQUIRED', 'The team has no credits left.');
      case 'busy.html':
        throw new ServiceError('RATE_LIMITED', 'Too many parses are waiting; retry in a few seconds.');
      default:
        return inProcessRunner()(input, options, run);
    }
  };
  let failingService: TestService;
  beforeAll(async () => {
    failingService = await startTestService({ runner: failing });
  });
  afterAll(async () => {
    await failingService.stop();
  });

  it('an unexpected error is 500 UNKNOWN_ERROR without internals, and logged', async () => {
    const res = await postParse(failingService, upload('boom.html', blog));
    expectError(res, 500, 'UNKNOWN_ERROR');
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('deadbeef');
    const logged = failingService.logLines().find((l) => l.msg === 'unexpected error');
    expect(logged).toMatchObject({ level: 50, method: 'POST', path: '/v2/parse' });
    expect(JSON.stringify(logged)).toContain('0xdeadbeef');
    // The service goes on.
    expect((await postParse(failingService, upload('fine.html', blog))).status).toBe(200);
  });

  it('402 and 429 carry the same shape', async () => {
    expectError(await postParse(failingService, upload('credits.html', blog)), 402, 'PAYMENT_REQUIRED', 'credits');
    expectError(await postParse(failingService, upload('busy.html', blog)), 429, 'RATE_LIMITED', 'retry');
  });
});

describe('the error handler with framework errors', () => {
  it('body-parser JSON errors become 400 BAD_REQUEST in the spec shape', async () => {
    // folio's parse route takes no JSON body; later JSON routes share this error handler.
    const app = express();
    app.post('/json', express.json({ limit: '1kb' }), (_req, res) => {
      res.json({ ok: true });
    });
    app.use(errorHandler(createLogger({ level: 'silent' })));
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/json`;
    try {
      const broken = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"a":') });
      expectError(broken, 400, 'BAD_REQUEST', 'not valid JSON');
      const big = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ a: 'x'.repeat(4000) })) });
      expectError(big, 400, 'BAD_REQUEST', 'too large');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
