/**
 * Two folio instances on one PostgreSQL (DATABASE_URL), through their HTTP ports and the real
 * Firecrawl SDK: a key created on one works on the other; parallel parses sent to both are each
 * charged once, and one idempotency key sent to both at once is charged once; an OAuth code asked
 * of both at once is exchanged once (the others are replays that revoke it); a code issued by one
 * is exchanged on the other, its refresh token rotated on both, and a replay of the code on either
 * revokes the connection on both. With the shared blob store (FOLIO_BLOB_URL: an S3 bucket on s3rver for
 * the first pair, PostgreSQL for a second pair on a database of its own): an uploadRef minted and uploaded
 * on one instance is parsed by the other, once, and its bytes are gone after; a PUT may land on either;
 * a screenshot captured on one is served by the other.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { postParse, request, startTestService, upload, type RawResponse, type TestService } from '../http/helpers.ts';
import { curlUpload, parseByRef, ticketFor } from '../uploads/helpers.ts';

const HTML = readCorpus('html', 'markitdown', 'test_blog.html');
const CLIENT = 'https://client.example.com/oauth/client.json';
const REDIRECT = 'http://127.0.0.1:43123/callback';

let cluster: TestPostgres;
let s3: TestS3;
/** A page for the browser to screenshot, on loopback. */
let site: http.Server;
let siteUrl = '';
let a: TestService;
let b: TestService;

beforeAll(async () => {
  [cluster, s3] = await Promise.all([startPostgres(), startS3()]);
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><head><title>Shared</title></head><body style="background:#1e6"><h1>Seen by both</h1></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as AddressInfo).port;
  siteUrl = `http://127.0.0.1:${sitePort}/page.html`;
  const databaseUrl = await cluster.createDatabase();
  // In the postgres+redis project both also share one Redis database, as a deployment would.
  const redisUrl = (await testStoreEnv('two instances on one PostgreSQL')).REDIS_URL;
  const shared = { DATABASE_URL: databaseUrl, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
  // Started one after the other as a deployment would; both apply (or find) the same schema.
  const env = { ...shared, ...s3.env('folio'), FOLIO_FETCH_ALLOW: `127.0.0.1:${sitePort}` };
  a = await startTestService({}, env);
  b = await startTestService({}, env);
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await cluster?.stop();
  await s3?.stop();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

async function withFile<T>(name: string, content: Buffer | string, work: (file: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pg-upload-'));
  try {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return await work(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const sdk = (service: TestService, key: string) => new Firecrawl({ apiKey: key, apiUrl: service.url });

describe('two instances on one PostgreSQL', () => {
  it('a key created on one instance authenticates on the other, and its revocation there is seen by the first', async () => {
    const { key, id } = await a.createKey('shared-team');
    const onB = await postParse({ url: b.url, key }, upload('blog.html', HTML));
    expect(onB.status, onB.text).toBe(200);
    expect(String(onB.json.data && (onB.json.data as Record<string, unknown>).markdown)).toContain('#');
    await b.store.revokeApiKey(id);
    const onA = await postParse({ url: a.url, key }, upload('blog.html', HTML));
    expect(onA.status).toBe(401);
  });

  it('parallel parses sent to both instances are each charged once', async () => {
    const { key } = await a.createKey('busy-team');
    const teamId = (await b.store.findTeamByName('busy-team'))?.id ?? '';
    await b.store.updateTeamPlan(teamId, { credits: 1000 }, new Date());
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => postParse({ url: (i % 2 === 0 ? a : b).url, key }, upload('blog.html', HTML))));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 12 }, () => 200));
    expect((await sdk(a, key).getCreditUsage()).remainingCredits).toBe(988);
    expect((await sdk(b, key).getCreditUsage()).remainingCredits).toBe(988);
    expect((await a.store.getTeamPlan(teamId))?.creditsUsed).toBe(12);
  });

  it('one x-idempotency-key sent to both instances at once is charged once', async () => {
    const { key } = await b.createKey('retry-team');
    const teamId = (await a.store.findTeamByName('retry-team'))?.id ?? '';
    await a.store.updateTeamPlan(teamId, { credits: 10 }, new Date());
    const headers = { 'x-idempotency-key': `same-${randomBytes(4).toString('hex')}` };
    const both = await Promise.all([a, b, a, b].map((s) => postParse({ url: s.url, key }, upload('blog.html', HTML), { headers })));
    expect(both.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await sdk(a, key).getCreditUsage()).remainingCredits).toBe(9);
    expect((await sdk(b, key).getCreditUsageHistorical()).periods.map((p) => p.creditsUsed)).toEqual([1]);
  });

  describe('OAuth', () => {
    function pkce() {
      const verifier = randomBytes(32).toString('base64url');
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
    }
    function form(service: TestService, params: Record<string, string>): Promise<RawResponse> {
      return request(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(new URLSearchParams(params).toString()),
      });
    }

    async function issue(service: TestService, userId: string) {
      const { verifier, challenge } = pkce();
      const code = await service.authorizationCodes.issueCode({
        clientId: CLIENT,
        userId,
        teamId: service.teamId,
        scope: 'mcp',
        resource: '/v2/mcp-oauth',
        redirectUri: REDIRECT,
        codeChallenge: challenge,
      });
      return (on: TestService) => form(on, { grant_type: 'authorization_code', code, client_id: CLIENT, redirect_uri: REDIRECT, code_verifier: verifier, resource: `${on.urls.mcp}/v2/mcp-oauth` });
    }
    const refresh = (on: TestService, token: unknown) => form(on, { grant_type: 'refresh_token', refresh_token: String(token), client_id: CLIENT });

    it('a code asked of both instances at once is exchanged once; the others are replays that revoke what it gave, on both', async () => {
      const exchange = await issue(a, 'user_pg_1');
      const answers = await Promise.all([b, a, b, a].map((s) => exchange(s)));
      const ok = answers.filter((r) => r.status === 200);
      expect(ok, answers.map((r) => `${r.status} ${r.text}`).join('\n')).toHaveLength(1);
      for (const refused of answers.filter((r) => r.status !== 200)) expect(refused.json.error).toBe('invalid_grant');
      for (const s of [a, b]) {
        const revoked = await refresh(s, ok[0]?.json.refresh_token);
        expect(revoked.json.error).toBe('invalid_grant');
        expect(String(revoked.json.error_description)).toMatch(/revoked/);
      }
    });

    it('a code issued by one instance is exchanged on the other, its refresh token rotated on the first and again on the second; a replay of the code on either revokes the connection on both', async () => {
      const exchange = await issue(a, 'user_pg_2');
      const got = await exchange(b);
      expect(got.status, got.text).toBe(200);
      const rotated = await refresh(a, got.json.refresh_token);
      expect(rotated.status, rotated.text).toBe(200);
      const next = await refresh(b, rotated.json.refresh_token);
      expect(next.status, next.text).toBe(200);
      for (const s of [a, b]) {
        const replay = await exchange(s);
        expect(replay.status).toBe(400);
        expect(replay.json.error).toBe('invalid_grant');
      }
      for (const s of [a, b]) {
        const refused = await refresh(s, next.json.refresh_token);
        expect(refused.json.error).toBe('invalid_grant');
        expect(String(refused.json.error_description)).toMatch(/revoked/);
      }
    });
  });

  it('an uploadRef minted and uploaded on one instance is parsed by the other, once; its bytes are then gone from the bucket', async () => {
    await withFile('blog.html', HTML, async (file) => {
      const ticket = await ticketFor(a, 'blog.html');
      const put = await curlUpload(ticket, file);
      expect(put.status, put.stdout).toBe(200);
      expect(await b.blobs.uploads.list()).toHaveLength(1);
      const parsed = await parseByRef(b, { uploadRef: ticket.uploadRef });
      expect(parsed.status, parsed.text).toBe(200);
      expect(String((parsed.json.data as Record<string, unknown>).markdown)).toContain('#');
      expect(await a.blobs.uploads.list()).toEqual([]);
      // Spent on the second instance: the first refuses it.
      const again = await parseByRef(a, { uploadRef: ticket.uploadRef });
      expect(again.status).toBe(400);
      expect(again.json).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('already been used') });
    });
  });

  it('the PUT of a ticket minted on one instance may land on the other (a load balancer chooses)', async () => {
    await withFile('blog.html', HTML, async (file) => {
      const ticket = await ticketFor(a, 'blog.html');
      const put = await curlUpload({ ...ticket, uploadUrl: ticket.uploadUrl.replace(a.url, b.url) }, file);
      expect(put.status, put.stdout).toBe(200);
      const parsed = await parseByRef(a, { uploadRef: ticket.uploadRef });
      expect(parsed.status, parsed.text).toBe(200);
    });
  });

  it('a screenshot captured on one instance is served by the other', async () => {
    const scraped = await request(`${a.url}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ url: siteUrl, formats: ['screenshot'] })),
    });
    expect(scraped.status, scraped.text).toBe(200);
    const shot = String((scraped.json.data as Record<string, unknown>).screenshot);
    expect(shot.startsWith(`${a.url}/v2/captures/`)).toBe(true);
    const download = async (url: string) => {
      const res = await fetch(url);
      return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const fromA = await download(shot);
    const fromB = await download(shot.replace(a.url, b.url));
    expect(fromB.status).toBe(200);
    expect(fromB.type).toBe('image/png');
    expect(fromB.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
  });
});

describe('two instances on one PostgreSQL that also keeps the blobs (FOLIO_BLOB_URL=postgres)', () => {
  let c: TestService;
  let d: TestService;
  beforeAll(async () => {
    const databaseUrl = await cluster.createDatabase();
    const env = { DATABASE_URL: databaseUrl, FOLIO_BLOB_URL: 'postgres' };
    c = await startTestService({ runner: inProcessRunner() }, env);
    d = await startTestService({ runner: inProcessRunner() }, env);
  }, 120_000);
  afterAll(async () => {
    await c?.stop();
    await d?.stop();
  });

  it('an uploadRef minted and uploaded on one is parsed by the other; its bytes are deleted from the database', async () => {
    await withFile('blog.html', HTML, async (file) => {
      const ticket = await ticketFor(c, 'blog.html');
      const put = await curlUpload(ticket, file);
      expect(put.status, put.stdout).toBe(200);
      expect(await d.blobs.uploads.list()).toHaveLength(1);
      const parsed = await parseByRef(d, { uploadRef: ticket.uploadRef });
      expect(parsed.status, parsed.text).toBe(200);
      expect(await c.blobs.uploads.list()).toEqual([]);
      expect((await parseByRef(c, { uploadRef: ticket.uploadRef })).status).toBe(400);
    });
  });
});
