/**
 * A folio whose S3 blob store cannot take the bytes (its bucket does not exist), over HTTP: the
 * PUT of an upload answers 500 UNKNOWN_ERROR with the fixed message, the log line says what is
 * wrong (S3's error code and what to do), `/ready` takes the instance out; the secret key appears
 * nowhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import { curlUpload, ticketFor } from '../uploads/helpers.ts';

const SECRET = 'blob-secret-that-must-not-leak-7f3a';
let s3: TestS3;
let service: TestService;

beforeAll(async () => {
  s3 = await startS3('folio-test', SECRET);
  service = await startTestService({}, { ...s3.env(), FOLIO_BLOB_URL: 's3://no-such-bucket/folio' });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await s3?.stop();
});

describe('an S3 blob store that cannot take the bytes', () => {
  it('fails the PUT with 500 UNKNOWN_ERROR, logs why, takes /ready out, and never shows the secret', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-blob-http-'));
    try {
      const file = path.join(dir, 'a.html');
      fs.writeFileSync(file, '<h1>hello</h1>');
      const ticket = await ticketFor(service, 'a.html');
      const put = await curlUpload(ticket, file);
      expect(put.status, `${put.stdout} ${service.logText().slice(-1500)}`).toBe(500);
      expect(put.json).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
      const logged = service.logText();
      expect(logged).toMatch(/S3 PutObject on bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ failed: HTTP 404 NoSuchBucket/);
      expect(logged).toContain('create the bucket named in FOLIO_BLOB_URL');
      const ready = await request(`${service.url}/ready`);
      expect(ready.status).toBe(503);
      expect((ready.json.checks as Record<string, string>).blobs).not.toBe('ok');
      for (const text of [logged, put.stdout, ready.text]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('Signature=');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
