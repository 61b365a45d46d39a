/**
 * The UploadStorage contract (src/uploads/storage.ts) on every blob backend (src/blobs): the
 * local disk, an S3 bucket (s3rver on loopback) and PostgreSQL (a throw-away cluster). One set
 * of test bodies, run on each (describe.each): put/get/delete/list, the size limit and broken
 * streams leave nothing, the two namespaces stay apart, two handles share what they store, and
 * expiry holds through the services that use it — the upload-ref sweep (expired refs, orphans)
 * and the capture store (expired URLs, the 24 h sweep), with injected clocks. Every S3 request is
 * signature-checked on arrival (test/helpers/s3.ts), so all of them also prove the signing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client, openBlobStore, S3RequestError, type BlobStore } from '../../src/blobs/index.ts';
import { createCaptureStore } from '../../src/browser/index.ts';
import type { BlobSettings } from '../../src/config.ts';
import { isServiceError } from '../../src/errors.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { UploadRefStore } from '../../src/store/upload-refs.ts';
import { createUploadRefService } from '../../src/uploads/service.ts';
import { IncompleteUploadError, type UploadStorage } from '../../src/uploads/storage.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';

const key = () => crypto.randomBytes(16).toString('hex');
const MB = 1024 * 1024;

let s3: TestS3;
let cluster: TestPostgres;
let databaseUrl: string;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-blobs-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  [s3, cluster] = await Promise.all([startS3(), startPostgres()]);
  databaseUrl = await cluster.createDatabase();
  // The store's migrations create the blob tables (migration 3).
  await (await openPostgresStore(databaseUrl, { maxConnections: 1 })).close();
}, 120_000);
afterAll(async () => {
  await s3?.stop();
  await cluster?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Backend {
  /** Settings of a blob store; `shared` is one place every call names (local: one DATA_DIR). */
  settings(): BlobSettings;
  dataDir: string;
  /** An upload-ref store to run the upload service on. */
  refs(): Promise<UploadRefStore & { close(): Promise<void> }>;
}

const backends: Record<'local' | 's3' | 'postgres', () => Backend> = {
  local: () => {
    const dataDir = tempDir();
    return { dataDir, settings: () => ({ kind: 'local' }), refs: () => Promise.resolve(openSqliteStore(tempDir())) };
  },
  s3: () => {
    const prefix = `run-${key().slice(0, 8)}/`;
    return {
      dataDir: tempDir(),
      settings: () => ({ kind: 's3', bucket: s3.bucket, prefix, endpoint: s3.endpoint, region: 'us-east-1', pathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }),
      refs: () => Promise.resolve(openSqliteStore(tempDir())),
    };
  },
  postgres: () => ({ dataDir: tempDir(), settings: () => ({ kind: 'postgres', databaseUrl }), refs: () => openPostgresStore(databaseUrl, { maxConnections: 2 }) }),
};

async function expectGone(storage: UploadStorage, k: string): Promise<void> {
  const err = await storage.read(k).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isServiceError(err) && err.code).toBe('NOT_FOUND');
}

describe.each(['local', 's3', 'postgres'] as const)('the blob store on %s', (name) => {
  let backend: Backend;
  let blobs: BlobStore;
  beforeAll(() => {
    backend = backends[name]();
    blobs = openBlobStore(backend.settings(), { dataDir: backend.dataDir });
  });
  afterAll(async () => {
    await blobs?.close();
  });
  /** S3 writes over 1 MiB wait in DATA_DIR/tmp until sent; nothing may stay there. */
  const spoolFiles = () => (fs.existsSync(path.join(backend.dataDir, 'tmp')) ? fs.readdirSync(path.join(backend.dataDir, 'tmp')) : []);

  it('stores, reads, lists and deletes an object (deleting twice is fine)', async () => {
    const k = key();
    const bytes = crypto.randomBytes(12_345);
    const before = Date.now();
    expect(await blobs.uploads.write(k, Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]), 50 * MB)).toBe(bytes.length);
    expect((await blobs.uploads.read(k)).equals(bytes)).toBe(true);
    const listed = (await blobs.uploads.list()).find((o) => o.key === k);
    expect(listed).toBeDefined();
    // Within a few seconds of the write (S3 keeps whole seconds).
    expect(Math.abs((listed?.modifiedAt.getTime() ?? 0) - before)).toBeLessThan(30_000);
    await blobs.uploads.delete(k);
    await blobs.uploads.delete(k);
    await expectGone(blobs.uploads, k);
    expect((await blobs.uploads.list()).map((o) => o.key)).not.toContain(k);
  });

  it('keeps a 6 MB file intact (several chunks on PostgreSQL)', async () => {
    const k = key();
    const bytes = crypto.randomBytes(6 * MB + 7);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
    expect(await blobs.uploads.write(k, Readable.from(pieces), 50 * MB)).toBe(bytes.length);
    expect(crypto.createHash('sha256').update(await blobs.uploads.read(k)).digest('hex')).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
    expect(spoolFiles()).toEqual([]);
    await blobs.uploads.delete(k);
  });

  it('refuses a stream over the limit with FILE_TOO_LARGE, leaves the rest unread and stores nothing', async () => {
    const k = key();
    const source = new PassThrough();
    const written = blobs.uploads.write(k, source, 1000);
    source.write(Buffer.alloc(600));
    source.write(Buffer.alloc(600));
    const err = await written.catch((e: unknown) => e);
    expect(isServiceError(err) && err.code).toBe('FILE_TOO_LARGE');
    expect(source.isPaused()).toBe(true);
    expect(spoolFiles()).toEqual([]);
    await expectGone(blobs.uploads, k);
    expect((await blobs.uploads.list()).map((o) => o.key)).not.toContain(k);
  });

  it('a stream that breaks off stores nothing, not even a partial object', async () => {
    const k = key();
    const source = new PassThrough();
    const written = blobs.uploads.write(k, source, 50 * MB);
    source.write(crypto.randomBytes(2 * MB));
    await new Promise((r) => setTimeout(r, 100));
    // Past 1 MiB an S3 write waits in a spool file of its own; the others write as it comes.
    expect(spoolFiles().map((f) => f.replace(/[0-9a-f]{24}$/, '…'))).toEqual(name === 's3' ? ['upload-s3-…'] : []);
    source.destroy(new Error('client went away'));
    await expect(written).rejects.toBeInstanceOf(IncompleteUploadError);
    expect(spoolFiles()).toEqual([]);
    await expectGone(blobs.uploads, k);
    expect((await blobs.uploads.list()).map((o) => o.key)).not.toContain(k);
  });

  it('keeps uploads and captures apart, and refuses keys that are not the services’ ids', async () => {
    const k = key();
    await blobs.captures.write(k, Readable.from([Buffer.from('png bytes')]), 100);
    await expectGone(blobs.uploads, k);
    expect((await blobs.uploads.list()).map((o) => o.key)).not.toContain(k);
    expect((await blobs.captures.read(k)).toString()).toBe('png bytes');
    await blobs.captures.delete(k);
    await expect(Promise.resolve().then(() => blobs.uploads.write('../../etc/passwd', Readable.from([Buffer.from('x')]), 10))).rejects.toThrow(/invalid/);
  });

  it('the upload service: a ref uploaded, taken and released; expired refs and old orphans swept, fresh ones kept', async () => {
    const store = await backend.refs();
    let offsetMs = 0;
    const uploads = createUploadRefService({ store, storage: blobs.uploads, publicUrl: 'http://folio.test', ttlSeconds: 600, maxRefs: 20, now: () => new Date(Date.now() + offsetMs) });
    try {
      const ticket = await uploads.create('team:blob', { filename: 'a.html' });
      const token = ticket.uploadUrl.split('/').at(-1) ?? '';
      await uploads.receive(token, Readable.from([Buffer.from('<h1>hello</h1>')]));
      expect(await blobs.uploads.list()).toHaveLength(1);
      const taken = await uploads.take('team:blob', ticket.uploadRef);
      expect(taken.bytes.toString()).toBe('<h1>hello</h1>');
      await taken.release();
      expect(await blobs.uploads.list()).toEqual([]);

      // Uploaded, never parsed: the sweep after expiry deletes the ref and its bytes.
      const stale = await uploads.create('team:blob', { filename: 'b.html' });
      await uploads.receive(stale.uploadUrl.split('/').at(-1) ?? '', Readable.from([Buffer.from('stale')]));
      // Bytes no ref owns (a crash between writing and recording).
      const orphan = key();
      await blobs.uploads.write(orphan, Readable.from([Buffer.from('orphan')]), 100);
      expect(await uploads.sweep()).toBe(0);
      expect((await blobs.uploads.list()).map((o) => o.key)).toContain(orphan);
      offsetMs = 601_000;
      // The taken ref's row and the stale one with its bytes.
      expect(await uploads.sweep()).toBe(2);
      // The orphan is not yet older than a ref could live (TTL + the grace of a PUT in progress).
      expect((await blobs.uploads.list()).map((o) => o.key)).toEqual([orphan]);
      offsetMs = 2 * 600_000 + 10 * 60_000 + 1000;
      await uploads.sweep();
      expect(await blobs.uploads.list()).toEqual([]);
    } finally {
      await uploads.close();
      await store.close();
    }
  });

  it('captures: served until their URL expires, then deleted; the sweep deletes what outlived its TTL', async () => {
    let offsetMs = 0;
    const captures = createCaptureStore({ storage: blobs.captures, publicUrl: 'http://folio.test', ttlSeconds: 86_400, now: () => new Date(Date.now() + offsetMs) });
    try {
      const png = crypto.randomBytes(3000);
      const url = await captures.save(png, 'png');
      const nameOf = (u: string) => u.split('/').at(-1) ?? '';
      expect((await captures.open(nameOf(url)))?.bytes.equals(png)).toBe(true);
      const other = await captures.save(Buffer.from('%PDF-1.4'), 'pdf');
      offsetMs = 86_400_000 + 1000;
      expect(await captures.open(nameOf(url))).toBeUndefined();
      // Opening the expired URL deleted its object; the other one the sweep deletes.
      expect(await blobs.captures.list()).toHaveLength(1);
      expect(await captures.sweep()).toBe(1);
      expect(await blobs.captures.list()).toEqual([]);
      expect(await captures.open(nameOf(other))).toBeUndefined();
    } finally {
      await captures.close();
    }
  });

  if (name !== 'local') {
    it('two handles on one shared store (two instances) see each other’s objects and deletions', async () => {
      const other = openBlobStore(backend.settings(), { dataDir: tempDir() });
      try {
        const k = key();
        await blobs.uploads.write(k, Readable.from([Buffer.from('shared bytes')]), 100);
        expect((await other.uploads.read(k)).toString()).toBe('shared bytes');
        await other.uploads.delete(k);
        await expectGone(blobs.uploads, k);
        await other.ping();
      } finally {
        await other.close();
      }
    });
  }
});

describe('the S3 client against s3rver', () => {
  const location = () => ({ endpoint: new URL(s3.endpoint), bucket: s3.bucket, region: 'us-east-1', pathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });

  it('PUT, HEAD, GET and DELETE an object', async () => {
    const client = createS3Client(location());
    const body = Buffer.from('Welcome to folio.');
    await client.putObject('direct/a b+c.txt', body, crypto.createHash('sha256').update(body).digest('hex'), 'text/plain');
    expect(await client.headObject('direct/a b+c.txt')).toMatchObject({ size: body.length });
    expect((await client.getObject('direct/a b+c.txt'))?.toString()).toBe('Welcome to folio.');
    expect((await client.listObjects('direct/')).map((o) => o.key)).toEqual(['direct/a b+c.txt']);
    await client.deleteObject('direct/a b+c.txt');
    expect(await client.headObject('direct/a b+c.txt')).toBeUndefined();
    expect(await client.getObject('direct/a b+c.txt')).toBeUndefined();
  });

  it('refuses an unknown access key with what to check, and never shows the secret', async () => {
    const secret = 'a-secret-that-must-not-leak-0123456789';
    const client = createS3Client({ ...location(), credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: secret } });
    const err = await client.putObject('x', Buffer.from('x'), crypto.createHash('sha256').update('x').digest('hex')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(S3RequestError);
    const message = (err as Error).message;
    expect(message).toContain('InvalidAccessKeyId');
    expect(message).toContain('FOLIO_BLOB_S3_ACCESS_KEY_ID');
    expect(message).not.toContain(secret);
    expect(message).not.toContain('Signature=');
  });

  it('the readiness ping of an S3 blob store fails when its bucket is missing, and passes when it is there', async () => {
    const settings = { kind: 's3' as const, prefix: '', endpoint: s3.endpoint, region: 'us-east-1', pathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } };
    await openBlobStore({ ...settings, bucket: s3.bucket }, { dataDir: tempDir() }).ping();
    await expect(openBlobStore({ ...settings, bucket: 'missing-bucket' }, { dataDir: tempDir() }).ping()).rejects.toThrow(/NoSuchBucket/);
  });

  it('refuses a wrong secret (SignatureDoesNotMatch) with what to check, and never shows the secret', async () => {
    const wrong = 'wrong-secret-that-must-not-leak-42';
    const client = createS3Client({ ...location(), credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: wrong } });
    const err = await client.getObject('anything').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(S3RequestError);
    expect((err as S3RequestError).s3Code).toBe('SignatureDoesNotMatch');
    expect((err as Error).message).toContain('FOLIO_BLOB_S3_SECRET_ACCESS_KEY');
    expect((err as Error).message).not.toContain(wrong);
    // The right secret, same request: accepted (a missing object, not a refusal).
    expect(await createS3Client(location()).getObject('anything')).toBeUndefined();
  });

  it('a missing bucket and an unreachable endpoint are errors that say so', async () => {
    const noBucket = await createS3Client({ ...location(), bucket: 'no-such-bucket' }).listObjects('').catch((e: unknown) => e);
    expect((noBucket as Error).message).toMatch(/NoSuchBucket.*create the bucket/);
    const closed = await createS3Client({ ...location(), endpoint: new URL('http://127.0.0.1:9') }).getObject('k').catch((e: unknown) => e);
    expect((closed as Error).message).toMatch(/could not be sent: ECONNREFUSED/);
  });
});
