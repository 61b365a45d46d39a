/**
 * Two folio instances on one PostgreSQL (DATABASE_URL), through their HTTP ports and the real
 * Firecrawl SDK: a key created on one works on the other; parallel parses sent to both are each
 * charged once, and one idempotency key sent to both at once is charged once; an OAuth code asked
 * of both at once is exchanged once (the others are replays that revoke it); a code issued by one
 * is exchanged on the other, its refresh token rotated on both, and a replay of the code on either
 * revokes the connection on both; an uploadRef spent on one is refused by the other (its bytes stay on the
 * instance that took the upload until the shared blob store lands).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { postParse, request, startTestService, upload, type RawResponse, type TestService } from '../http/helpers.ts';
import { curlUpload, parseByRef, ticketFor } from '../uploads/helpers.ts';

const HTML = readCorpus('html', 'markitdown', 'test_blog.html');
const CLIENT = 'https://client.example.com/oauth/client.json';
const REDIRECT = 'http://127.0.0.1:43123/callback';

let cluster: TestPostgres;
let a: TestService;
let b: TestService;

beforeAll(async () => {
  cluster = await startPostgres();
  const databaseUrl = await cluster.createDatabase();
  // In the postgres+redis project both also share one Redis database, as a deployment would.
  const redisUrl = (await testStoreEnv('two instances on one PostgreSQL')).REDIS_URL;
  const shared = { DATABASE_URL: databaseUrl, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
  // Started one after the other as a deployment would; both apply (or find) the same schema.
  a = await startTestService({}, shared);
  b = await startTestService({}, shared);
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await cluster?.stop();
});

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

  it('an uploadRef minted, uploaded and parsed on one instance is refused as spent by the other', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pg-upload-'));
    try {
      const file = path.join(dir, 'blog.html');
      fs.writeFileSync(file, HTML);
      const ticket = await ticketFor(a, 'blog.html');
      const put = await curlUpload(ticket, file);
      expect(put.status, put.stdout).toBe(200);
      const parsed = await parseByRef(a, { uploadRef: ticket.uploadRef });
      expect(parsed.status, parsed.text).toBe(200);
      // Spent on the first instance: the second, reading the same store, refuses it too.
      const again = await parseByRef(b, { uploadRef: ticket.uploadRef });
      expect(again.status).toBe(400);
      expect(again.json).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('already been used') });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
