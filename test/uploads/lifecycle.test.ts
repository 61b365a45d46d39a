/**
 * The life of an upload ref over time (issue 5 §5): its bytes exist until the parse and are
 * deleted right after it (before it under zeroDataRetention); it expires; the sweep removes
 * expired refs and their files; an owner's outstanding refs are capped (429 + Retry-After).
 * The upload service's clock is injected, so ten minutes pass in no time. The stored files are
 * looked at through the storage interface, so the file runs on every blob backend: the local disk
 * here, PostgreSQL in the vitest project `postgres` (FOLIO_BLOB_URL=postgres, test/http/helpers.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessRunner, type ParseRunner } from '../../src/limits/runner.ts';
import { corpusPath } from '../helpers/corpus.ts';
import { TEST_STORE } from '../helpers/test-store.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { curlUpload, parseByRef, requestTicket, storedKeys, ticketFor, uploadDir } from './helpers.ts';

const DOCX = corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx');
const TTL_MS = 600_000;

let service: TestService;
let offsetMs = 0;
/** What the upload storage held each time the runner started a parse. */
const seenByRunner: string[][] = [];

beforeAll(async () => {
  const inner = inProcessRunner();
  const observing: ParseRunner = async (input, options, run) => {
    seenByRunner.push(await storedKeys(service));
    return inner(input, options, run);
  };
  // On the postgres+redis project the bytes are kept in that PostgreSQL too (the shared blob store):
  // this file looks at them through the storage interface, so it runs on either backend.
  const blobs: Record<string, string> = TEST_STORE === 'postgres+redis' ? { FOLIO_BLOB_URL: 'postgres' } : {};
  service = await startTestService({ runner: observing, now: () => new Date(Date.now() + offsetMs) }, { FOLIO_MAX_UPLOAD_REFS: '3', FOLIO_DEFAULT_ZDR: 'on', ...blobs });
});
afterAll(async () => {
  await service.stop();
});
beforeEach(async () => {
  // Each test starts with nothing outstanding: everything before now has expired and is swept.
  offsetMs += TTL_MS + 1000;
  await service.uploads.sweep();
  seenByRunner.length = 0;
});

async function team(name: string): Promise<{ url: string; key: string }> {
  const { key } = await service.createKey(name);
  return { url: service.url, key };
}

describe('the stored bytes', () => {
  it('exist while an ordinary parse runs and are deleted right after it', async () => {
    const t = await ticketFor(service, 'a.docx');
    expect((await curlUpload(t, DOCX)).status).toBe(200);
    expect(await storedKeys(service)).toHaveLength(1);
    const res = await parseByRef(service, { uploadRef: t.uploadRef });
    expect(res.status).toBe(200);
    expect(seenByRunner).toEqual([[expect.stringMatching(/^[a-f0-9]{32}$/)]]);
    expect(await storedKeys(service)).toEqual([]);
  });

  it('are deleted before the parse runs under zeroDataRetention', async () => {
    const t = await ticketFor(service, 'a.docx');
    expect((await curlUpload(t, DOCX)).status).toBe(200);
    expect(await storedKeys(service)).toHaveLength(1);
    const res = await parseByRef(service, { uploadRef: t.uploadRef, zeroDataRetention: true });
    expect(res.status).toBe(200);
    expect((res.json.data as { markdown: string }).markdown.length).toBeGreaterThan(100);
    expect(seenByRunner).toEqual([[]]);
    expect(await storedKeys(service)).toEqual([]);
  });

  it('are deleted after a parse that fails too', async () => {
    const t = await ticketFor(service, 'broken.docx');
    const file = path.join(service.dataDir, 'broken.docx');
    fs.writeFileSync(file, Buffer.from('PK\u0003\u0004 this is not a zip archive at all'));
    expect((await curlUpload(t, file)).status).toBe(200);
    const res = await parseByRef(service, { uploadRef: t.uploadRef });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('CORRUPT_FILE');
    expect(await storedKeys(service)).toEqual([]);
  });
});

describe('expiry and the sweep', () => {
  it('an uploaded ref past its expiry is refused, saying to request a new upload', async () => {
    const t = await ticketFor(service, 'a.docx');
    expect((await curlUpload(t, DOCX)).status).toBe(200);
    offsetMs += TTL_MS;
    const res = await parseByRef(service, { uploadRef: t.uploadRef });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('expired') });
    expect(res.json.error).toContain('Request a new upload');
    expect(seenByRunner).toEqual([]);
  });

  it('one second before expiry it still works', async () => {
    const t = await ticketFor(service, 'a.docx');
    expect((await curlUpload(t, DOCX)).status).toBe(200);
    offsetMs += TTL_MS - 1000;
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
  });

  it('a PUT to an expired upload URL is refused and stores nothing', async () => {
    const t = await ticketFor(service, 'a.docx');
    offsetMs += TTL_MS;
    const put = await curlUpload(t, DOCX);
    expect(put.status).toBe(400);
    expect(put.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('upload URL has expired') });
    expect(await storedKeys(service)).toEqual([]);
  });

  it('the sweep deletes expired refs with their files, and leaves live ones', async () => {
    const old = await ticketFor(service, 'a.docx');
    expect((await curlUpload(old, DOCX)).status).toBe(200);
    await ticketFor(service, 'b.docx');
    offsetMs += TTL_MS / 2;
    const live = await ticketFor(service, 'c.docx');
    expect((await curlUpload(live, DOCX)).status).toBe(200);
    expect(await storedKeys(service)).toHaveLength(2);
    offsetMs += TTL_MS / 2;
    expect(await service.uploads.sweep()).toBe(2);
    expect(await storedKeys(service)).toHaveLength(1);
    // The swept ref is gone for good: unknown now, not "expired".
    const gone = await parseByRef(service, { uploadRef: old.uploadRef });
    expect(gone.status).toBe(404);
    expect((await parseByRef(service, { uploadRef: live.uploadRef })).status).toBe(200);
    expect(await storedKeys(service)).toEqual([]);
  });

  it('the sweep removes stored files no ref owns once they are old, and keeps fresh ones', async () => {
    // Written now, through the storage interface (any FOLIO_BLOB_URL backend).
    const orphan = 'ab'.repeat(16);
    await service.blobs.uploads.write(orphan, Readable.from([Buffer.from('leftover')]), 100);
    const later = offsetMs;
    // As the service's clock sees it now: fresh (a ref could still own it).
    offsetMs = 0;
    await service.uploads.sweep();
    expect(await storedKeys(service)).toEqual([orphan]);
    // Older than any ref can live (TTL + the grace of a PUT still streaming): removed.
    offsetMs = Math.max(later, 2 * TTL_MS + 60_000);
    await service.uploads.sweep();
    expect(await storedKeys(service)).toEqual([]);
  });

  it('on the local disk, the sweep also removes the part files of interrupted writes', async () => {
    if (service.blobs.kind !== 'local') {
      // Part files are the disk's: S3 never holds a partial object, PostgreSQL's incomplete rows are listed like any object (above).
      expect(service.blobs.kind).toMatch(/^(s3|postgres)$/);
      return;
    }
    const stale = path.join(uploadDir(service), 'ab'.repeat(16));
    const partial = path.join(uploadDir(service), `${'cd'.repeat(16)}.part`);
    const fresh = path.join(uploadDir(service), 'ef'.repeat(16));
    for (const f of [stale, partial, fresh]) fs.writeFileSync(f, 'leftover');
    // Times as the service's clock sees them.
    const serviceNow = new Date(Date.now() + offsetMs);
    const longAgo = new Date(serviceNow.getTime() - 2 * TTL_MS - 60_000);
    fs.utimesSync(stale, longAgo, longAgo);
    fs.utimesSync(partial, longAgo, longAgo);
    fs.utimesSync(fresh, serviceNow, serviceNow);
    await service.uploads.sweep();
    expect(await storedKeys(service)).toEqual(['ef'.repeat(16)]);
    expect(fs.readdirSync(uploadDir(service))).toEqual(['ef'.repeat(16)]);
    fs.rmSync(fresh);
  });
});

describe('the cap on outstanding refs (FOLIO_MAX_UPLOAD_REFS=3)', () => {
  it('a 4th unparsed ref is 429 with Retry-After until the oldest expires; other teams are not affected', async () => {
    const a = await team('cap-a');
    const first = await ticketFor(a, 'a.docx');
    offsetMs += 100_000;
    await ticketFor(a, 'b.docx');
    await ticketFor(a, 'c.docx');
    const refused = await requestTicket(a, 'd.docx');
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.stringContaining('3 upload refs') });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(499);
    expect(retryAfter).toBeLessThanOrEqual(500);
    expect(refused.json.error).toContain(`${retryAfter} seconds`);
    // Another team has its own allowance.
    expect((await requestTicket(await team('cap-b'), 'a.docx')).status).toBe(200);
    // Parsing one frees a place.
    expect((await curlUpload(first, DOCX)).status).toBe(200);
    expect((await parseByRef(a, { uploadRef: first.uploadRef })).status).toBe(200);
    expect((await requestTicket(a, 'd.docx')).status).toBe(200);
    expect((await requestTicket(a, 'e.docx')).status).toBe(429);
    // Expiry frees them all.
    offsetMs += TTL_MS;
    expect((await requestTicket(a, 'e.docx')).status).toBe(200);
  });
});
