/**
 * The store interface on every engine (test/store/engines.ts): the same test bodies on SQLite
 * and on PostgreSQL. "Another" handle is a second folio instance on the same PostgreSQL, or the
 * CLI next to the server on one SQLite file; the races below run across both handles at once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, verifyApiKey } from '../../auth/api-keys.ts';
import { SIGNING_ALG, type StoredSigningKey } from '../../auth/signing-keys.ts';
import { UnlimitedCreditsError } from '../../src/store/team-plans.ts';
import type { Store } from '../../src/store/types.ts';
import { ENGINES, type StoreUnderTest } from './engines.ts';

const hex = (n = 16) => randomBytes(n).toString('hex');
const inFuture = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe.each(ENGINES)('store on $name', (engine) => {
  let t: StoreUnderTest;
  let store: Store;

  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    t = await engine.open();
    store = t.store;
  });
  afterEach(() => t.dispose());

  async function newKey(team = 'acme', on: Store = store) {
    const key = generateApiKey();
    const found = await on.ensureTeam(team);
    const record = await on.createApiKey({ teamId: found.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    return { key, record };
  }

  describe('agent and extract jobs', () => {
    it('create, list by owner (newest first), progress, one finish of two racing handles, trace in order, expiry', async () => {
      const soon = new Date(Date.now() + 3_600_000);
      const a = await store.createAgentJob({ id: `agent_${hex()}`, kind: 'agent', owner: 'team:t1', request: '{"prompt":"a"}', expiresAt: soon });
      const b = await store.createAgentJob({ id: `agent_${hex()}`, kind: 'agent', owner: 'team:t1', request: '{"prompt":"b"}', expiresAt: soon });
      await store.createAgentJob({ id: `extract_${hex()}`, kind: 'extract', owner: 'team:t1', request: '{}', expiresAt: soon });
      expect(a).toMatchObject({ status: 'processing', creditsUsed: 0, steps: 0, data: null });
      const listed = await store.listAgentJobs({ owner: 'team:t1', kind: 'agent' });
      expect(listed.map((j) => j.id)).toEqual([b.id, a.id]);
      expect(await store.listAgentJobs({ owner: 'team:t2', kind: 'agent' })).toEqual([]);

      await store.progressAgentJob(a.id, { credits: 3, tokens: 120, steps: 2 });
      await store.appendAgentEvent(a.id, '{"step":1}');
      await store.appendAgentEvent(a.id, '{"step":2}');
      const other = await t.another();
      // A cancel on one instance and the loop's end on another: exactly one finishes the job.
      const [x, y] = await Promise.all([
        store.finishAgentJob(a.id, { status: 'completed', data: '{"answer":1}', expiresAt: new Date(Date.now() - 1000) }),
        other.finishAgentJob(a.id, { status: 'cancelled', expiresAt: new Date(Date.now() - 1000) }),
      ]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      const finished = await other.getAgentJob(a.id);
      expect(finished).toMatchObject({ creditsUsed: 3, tokensUsed: 120, steps: 2 });
      expect(['completed', 'cancelled']).toContain(finished?.status);
      // Progress after the end changes nothing.
      await store.progressAgentJob(a.id, { credits: 9, tokens: 9, steps: 9 });
      expect((await store.getAgentJob(a.id))?.creditsUsed).toBe(3);
      expect(await other.agentEvents(a.id)).toEqual(['{"step":1}', '{"step":2}']);
      expect((await store.listAgentJobs({ status: 'processing' })).map((j) => j.id)).not.toContain(a.id);

      expect(await store.deleteExpiredAgentJobs(new Date())).toBe(1);
      expect(await store.getAgentJob(a.id)).toBeUndefined();
      expect(await store.agentEvents(a.id)).toEqual([]);
      expect(await store.getAgentJob(b.id)).toBeDefined();
    });
  });

  describe('schema', () => {
    it('a second handle on migrated storage applies nothing again and sees the data', async () => {
      await newKey();
      const other = await t.another();
      expect(await other.listApiKeys()).toHaveLength(1);
    });

    it('refuses a key for a team that does not exist (foreign key)', async () => {
      await expect(store.createApiKey({ teamId: 'team_missing', keyHash: hashApiKey(generateApiKey()), prefix: 'folio_abcdef' })).rejects.toThrow(/foreign key/i);
    });
  });

  describe('teams and API keys', () => {
    it('ensureTeam creates once, also when two handles race for it', async () => {
      const other = await t.another();
      const all = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? store : other).ensureTeam('acme')));
      expect(new Set(all.map((x) => x.id)).size).toBe(1);
      expect(all[0]?.id).toMatch(/^team_[0-9a-f]{16}$/);
      expect(await store.findTeamByName('acme')).toEqual(all[0]);
      expect(await store.findTeamByName('other')).toBeUndefined();
      expect((await store.listTeams()).map((x) => x.name)).toEqual(['acme']);
    });

    it('stores the SHA-256 and a 12-character prefix; finds, verifies and stops verifying a revoked key', async () => {
      const { key, record } = await newKey();
      expect(record).toMatchObject({ teamName: 'acme', prefix: key.slice(0, 12), keyHash: hashApiKey(key), lastUsedAt: null, revokedAt: null });
      expect(await store.findApiKeyByHash(hashApiKey(key))).toEqual(record);
      expect(await verifyApiKey(store, key)).toMatchObject({ id: record.id, teamName: 'acme' });
      expect(await verifyApiKey(store, generateApiKey())).toBeUndefined();
      const revoked = await store.revokeApiKey(record.id);
      expect(revoked?.revokedAt).toEqual(expect.any(String));
      expect(await verifyApiKey(store, key)).toBeUndefined();
      expect((await store.revokeApiKey(record.id))?.revokedAt).toBe(revoked?.revokedAt);
      expect(await store.revokeApiKey('key_unknown')).toBeUndefined();
    });

    it('lists keys of every team, oldest first, and records their use', async () => {
      const a = await newKey('acme');
      const b = await newKey('globex');
      expect((await store.listApiKeys()).map((k) => [k.id, k.teamName])).toEqual([
        [a.record.id, 'acme'],
        [b.record.id, 'globex'],
      ]);
      await store.touchApiKey(b.record.id, new Date('2026-01-02T03:04:05.000Z'));
      expect((await store.getApiKey(b.record.id))?.lastUsedAt).toBe('2026-01-02T03:04:05.000Z');
      expect((await store.getApiKey(a.record.id))?.lastUsedAt).toBeNull();
    });

    it('a key created on one handle verifies on the other, and a revocation there reaches the first', async () => {
      const other = await t.another();
      const { key } = await newKey('acme', store);
      expect(await verifyApiKey(other, key)).toBeDefined();
      await other.revokeApiKey((await other.listApiKeys())[0]?.id ?? '');
      expect(await verifyApiKey(store, key)).toBeUndefined();
    });
  });

  describe('OAuth', () => {
    async function grantOf(on: Store = store) {
      const team = await on.ensureTeam('acme');
      return on.createOAuthGrant({ clientId: 'client-1', teamId: team.id, scope: 'mcp', resource: '/v2/mcp' });
    }

    it('an authorization code is redeemed once when both handles race for it, and every loser finds the winner\'s grant', async () => {
      const other = await t.another();
      const team = await store.ensureTeam('acme');
      const codeHash = hex(32);
      await store.insertAuthorizationCode({
        codeHash,
        clientId: 'client-1',
        userId: 'user_1',
        teamId: team.id,
        scope: 'mcp',
        resource: '/v2/mcp',
        redirectUri: 'http://127.0.0.1/cb',
        codeChallenge: 'challenge',
        createdAt: new Date().toISOString(),
        expiresAt: inFuture(60),
      });
      const grant = { clientId: 'client-1', userId: 'user_1', teamId: team.id, scope: 'mcp', resource: '/v2/mcp' as const };
      // Each request that loses the race reads the code right away: it must find the winner's grant (what a replay revokes).
      const attempts = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const on = i % 2 === 0 ? store : other;
          const won = await on.redeemAuthorizationCode(codeHash, new Date(), grant);
          return { won, seen: won ? undefined : (await on.findAuthorizationCode(codeHash))?.grantId };
        }),
      );
      const winners = attempts.filter((a) => a.won !== undefined);
      expect(winners).toHaveLength(1);
      const winner = winners[0]?.won;
      expect(winner).toMatchObject({ teamName: 'acme', resource: '/v2/mcp', clientId: 'client-1' });
      for (const lost of attempts.filter((a) => a.won === undefined)) expect(lost.seen).toBe(winner?.id);
      expect(await other.listOAuthGrants()).toHaveLength(1);
      expect(await store.findAuthorizationCode(codeHash)).toMatchObject({ usedAt: expect.any(String), grantId: winner?.id, resource: '/v2/mcp' });
      expect(await store.deleteExpiredAuthorizationCodes(new Date(Date.now() + 120_000))).toBe(1);
      expect(await other.findAuthorizationCode(codeHash)).toBeUndefined();
    });

    it('a refresh token keeps its first rotation time whichever handle rotates it', async () => {
      const other = await t.another();
      const grant = await grantOf();
      const tokenHash = hex(32);
      await store.insertRefreshToken({ tokenHash, grantId: grant.id, clientId: 'client-1', scope: 'mcp', createdAt: new Date().toISOString(), expiresAt: inFuture(3600) });
      const first = new Date('2026-03-01T00:00:00.000Z');
      await other.markRefreshTokenRotated(tokenHash, first);
      await store.markRefreshTokenRotated(tokenHash, new Date('2026-03-01T00:00:05.000Z'));
      expect((await store.findRefreshToken(tokenHash))?.rotatedAt).toBe(first.toISOString());
    });

    it('grants: created, listed, touched, revoked once', async () => {
      const grant = await grantOf();
      expect(grant).toMatchObject({ teamName: 'acme', resource: '/v2/mcp', revokedAt: null });
      await store.touchOAuthGrant(grant.id, new Date('2026-01-01T00:00:00.000Z'));
      const revoked = await store.revokeOAuthGrant(grant.id, new Date('2026-01-02T00:00:00.000Z'));
      expect(revoked).toMatchObject({ lastUsedAt: '2026-01-01T00:00:00.000Z', revokedAt: '2026-01-02T00:00:00.000Z' });
      expect((await store.revokeOAuthGrant(grant.id, new Date()))?.revokedAt).toBe('2026-01-02T00:00:00.000Z');
      expect(await store.listOAuthGrants()).toHaveLength(1);
    });

    it('instances starting together agree on one first signing key', async () => {
      const other = await t.another();
      const key = (kid: string): StoredSigningKey => ({
        kid,
        alg: SIGNING_ALG,
        privateJwk: { kty: 'EC', crv: 'P-256', d: kid },
        publicJwk: { kty: 'EC', crv: 'P-256', x: kid },
        createdAt: new Date().toISOString(),
        retiredAt: null,
      });
      const results = await Promise.all(['a', 'b', 'c', 'd'].map((kid, i) => (i % 2 === 0 ? store : other).addSigningKey(key(kid), { onlyIfNone: true })));
      const live = await store.listLiveSigningKeys();
      expect(live).toHaveLength(1);
      for (const r of results) expect(r.map((k) => k.kid)).toEqual([live[0]?.kid]);
      expect(await store.retireSigningKey(live[0]?.kid ?? '', new Date())).toBe(true);
      expect(await other.listLiveSigningKeys()).toEqual([]);
    });

    it('registered clients round-trip', async () => {
      const created = await store.createOAuthClient({ id: 'dcr_1', name: 'Client', redirectUris: ['http://127.0.0.1/cb'], metadata: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }, createdAt: new Date() });
      expect(await (await t.another()).getOAuthClient('dcr_1')).toEqual(created);
      expect(await store.getOAuthClient('dcr_2')).toBeUndefined();
    });
  });

  describe('accounts', () => {
    it('users, memberships, sessions and authorization requests', async () => {
      const user = await store.createUser({ email: 'a@example.com', passwordHash: 'scrypt$x' });
      expect(user?.id).toMatch(/^user_/);
      expect(await store.createUser({ email: 'a@example.com', passwordHash: 'scrypt$y' })).toBeUndefined();
      const team = await store.ensureTeam('acme');
      await store.addTeamMember(user?.id ?? '', team.id);
      await store.addTeamMember(user?.id ?? '', team.id);
      expect((await store.listUsers()).map((u) => [u.email, u.teams.map((x) => x.name)])).toEqual([['a@example.com', ['acme']]]);
      expect((await store.findUserByEmail('a@example.com'))?.passwordHash).toBe('scrypt$x');

      await store.createSession({ idHash: 's1', userId: null, csrfToken: 'c1', expiresAt: new Date(Date.now() + 60_000) });
      const request = await store.createAuthorizationRequest({ sessionHash: 's1', params: '{}', expiresAt: new Date(Date.now() + 60_000) });
      expect(await store.rotateSession('s1', { idHash: 's2', userId: user?.id ?? null, csrfToken: 'c2', expiresAt: new Date(Date.now() + 60_000) })).toBe(true);
      expect(await store.rotateSession('s1', { idHash: 's3', userId: null, csrfToken: 'c3', expiresAt: new Date() })).toBe(false);
      // The pending request followed its session to the new id.
      expect((await store.getAuthorizationRequest(request))?.sessionHash).toBe('s2');
      await store.setAuthorizationRequestTeam(request, team.id);
      const other = await t.another();
      const deleted = await Promise.all([store.deleteAuthorizationRequest(request), other.deleteAuthorizationRequest(request)]);
      expect(deleted.filter(Boolean)).toHaveLength(1);
      await store.deleteExpiredSessions(new Date(Date.now() + 120_000));
      expect(await store.getSession('s2')).toBeUndefined();
    });
  });

  describe('upload refs', () => {
    const ref = (owner: string) => ({
      id: hex(8),
      refHash: hex(32),
      tokenHash: hex(32),
      sealedRef: 'sealed',
      owner,
      filename: 'a.pdf',
      createdAt: new Date().toISOString(),
      expiresAt: inFuture(600),
    });

    it('the per-owner cap holds when both handles create refs at once', async () => {
      const other = await t.another();
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).createUploadRef(ref('team:1'), 3)));
      expect(results.filter((r) => r.created)).toHaveLength(3);
      expect(results.find((r) => !r.created)).toMatchObject({ oldestExpiresAt: expect.any(String) });
      expect((await store.createUploadRef(ref('team:2'), 3)).created).toBe(true);
    });

    it('is uploaded once and taken once, by its owner', async () => {
      const other = await t.another();
      const r = ref('team:1');
      await store.createUploadRef(r, 10);
      const claims = await Promise.all([store.claimUploadRefUpload(r.id, new Date()), other.claimUploadRefUpload(r.id, new Date())]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await other.completeUploadRefUpload(r.id, { size: 1234, contentType: 'application/pdf' })).toBe(true);
      expect(await store.takeUploadRef(r.refHash, 'team:other', new Date())).toBeUndefined();
      const takes = await Promise.all([store.takeUploadRef(r.refHash, 'team:1', new Date()), other.takeUploadRef(r.refHash, 'team:1', new Date())]);
      expect(takes.filter((x) => x !== undefined)).toHaveLength(1);
      expect(takes.find((x) => x !== undefined)).toMatchObject({ size: 1234, contentType: 'application/pdf', status: 'taken' });
      expect(await store.findUploadRefByTokenHash(r.tokenHash)).toMatchObject({ status: 'taken' });
      expect(await store.listExpiredUploadRefs(new Date(Date.now() + 3_600_000), 10)).toHaveLength(1);
      await store.deleteUploadRef(r.id);
      expect(await other.uploadRefExists(r.id)).toBe(false);
    });
  });

  describe('keyless usage', () => {
    it('never counts past the daily limit, whichever handle counts', async () => {
      const other = await t.another();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? store : other).countKeylessCall('client-a', '2026-05-01', 5)));
      expect(results.filter((r) => r.counted)).toHaveLength(5);
      expect(await store.countKeylessCall('client-a', '2026-05-01', 5)).toEqual({ counted: false, calls: 5 });
      expect(await store.countKeylessCall('client-a', '2026-05-02', 5)).toEqual({ counted: true, calls: 1 });
      expect(await store.countKeylessCall('client-b', '2026-05-02', 0)).toEqual({ counted: false, calls: 0 });
      expect(await other.keylessClientSecret()).toBe(await store.keylessClientSecret());
    });
  });

  describe('crawl jobs', () => {
    const urls = (n: number, prefix = 'https://example.com/p') => Array.from({ length: n }, (_, i) => ({ url: `${prefix}${i}`, depth: 1 }));

    it('two handles claiming a job\'s URLs at once never claim the same one', async () => {
      const other = await t.another();
      await store.createCrawlJob({ id: 'job-1', owner: 'team:1', url: 'https://example.com/', options: '{}', expiresAt: new Date(Date.now() + 60_000) }, urls(40));
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? store : other).claimCrawlUrls('job-1', 5)));
      const claimed = claims.flat().map((e) => e.url);
      expect(claimed).toHaveLength(40);
      expect(new Set(claimed).size).toBe(40);
      expect(await store.crawlCounts('job-1')).toEqual({ queued: 0, running: 40, done: 0, failed: 0, blocked: 0 });
      expect(await other.requeueRunningCrawlUrls('job-1')).toBe(40);
      // Oldest first within one claim.
      expect((await store.claimCrawlUrls('job-1', 3)).map((e) => e.url)).toEqual(['https://example.com/p0', 'https://example.com/p1', 'https://example.com/p2']);
    });

    it('the URL cap holds when both handles add URLs at once; aliases and robots-blocked URLs', async () => {
      const other = await t.another();
      await store.createCrawlJob({ id: 'job-2', owner: 'team:1', url: 'https://example.com/', options: '{}', expiresAt: new Date(Date.now() + 60_000) });
      const added = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).addCrawlUrls('job-2', urls(5, `https://example.com/h${i}-`), 10)));
      expect(added.flat()).toHaveLength(10);
      expect(await store.addCrawlUrls('job-2', [{ url: 'https://example.com/x', depth: 2 }], 100, 'blocked')).toEqual([]);
      expect(await store.robotsBlockedUrls('job-2')).toEqual(['https://example.com/x']);
      // A URL whose alias the job already holds is not added again (which ten won the race above varies).
      const known = added.flat()[0]?.url ?? '';
      expect(await store.addCrawlUrls('job-2', [{ url: `${known}/`, depth: 2, aliases: [known] }], 100)).toEqual([]);
    });

    it('pages completing while both handles add links already known to the job neither deadlock nor lose a result', async () => {
      const other = await t.another();
      await store.createCrawlJob({ id: 'job-3', owner: 'team:1', url: 'https://example.com/', options: '{}', expiresAt: new Date(Date.now() + 60_000) }, urls(20));
      await store.claimCrawlUrls('job-3', 20);
      await Promise.all([
        ...urls(20).map((e, i) => (i % 2 === 0 ? store : other).completeCrawlUrl('job-3', e.url, `{"i":${i}}`)),
        ...Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? other : store).addCrawlUrls('job-3', [...urls(20)].reverse(), 100)),
      ]);
      expect(await store.crawlCounts('job-3')).toEqual({ queued: 0, running: 0, done: 20, failed: 0, blocked: 0 });
      expect((await other.crawlResults('job-3', 0, 100, 1_000_000)).items).toHaveLength(20);
    });

    it('one job per idempotency key; results, errors, finishing, appending and expiry', async () => {
      const other = await t.another();
      const job = (id: string) => ({ id, kind: 'batch' as const, owner: 'team:1', url: 'https://example.com/', options: '{}', expiresAt: new Date(Date.now() + 60_000), idempotencyKey: 'k1' });
      const created = await Promise.all([store.createCrawlJob(job('b1'), urls(2)), other.createCrawlJob(job('b2'), urls(2))]);
      expect(created[0]?.id).toBe(created[1]?.id);
      const id = created[0]?.id ?? '';
      await store.claimCrawlUrls(id, 2);
      await Promise.all([store.completeCrawlUrl(id, 'https://example.com/p0', '{"a":1}'), other.completeCrawlUrl(id, 'https://example.com/p0', '{"a":2}')]);
      await store.failCrawlUrl(id, 'https://example.com/p1', 'timeout');
      expect((await store.crawlResults(id, 0, 10, 1_000_000)).items).toHaveLength(1);
      expect(await store.crawlErrors(id)).toEqual([{ id: expect.stringMatching(new RegExp(`^${id}:\\d+$`)), url: 'https://example.com/p1', error: 'timeout', timestamp: expect.any(String) }]);
      expect(await store.finishCrawlJob(id, 'completed', null, new Date(Date.now() - 1000))).toBe(true);
      expect(await other.finishCrawlJob(id, 'failed', 'x', new Date())).toBe(false);
      expect((await store.listCrawlJobs({ owner: 'team:1', kind: 'batch' })).map((j) => j.status)).toEqual(['completed']);
      expect(await store.appendCrawlUrls(id, urls(3), new Date(Date.now() + 60_000))).toEqual([{ url: 'https://example.com/p2', depth: 1 }]);
      expect((await other.getCrawlJob(id))?.status).toBe('scraping');
      expect(await store.finishCrawlJob(id, 'cancelled', null, new Date(Date.now() - 1000))).toBe(true);
      expect(await other.deleteExpiredCrawlJobs(new Date())).toBe(1);
      expect(await store.getCrawlJob(id)).toBeUndefined();
    });
  });

  describe('plans and credits', () => {
    it('parallel charges from both handles are each counted once; a repeated idempotency key is not', async () => {
      const other = await t.another();
      const team = await store.ensureTeam('acme');
      await store.updateTeamPlan(team.id, { credits: 1000 }, new Date());
      const charge = (i: number, idempotencyKey?: string) => ({ teamId: team.id, operation: 'parse', units: 3, requestId: `req-${i}`, keyId: 'key_1', idempotencyKey, at: new Date() });
      const plain = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? store : other).recordCharge(charge(i))));
      expect(plain.every((r) => r.charged)).toBe(true);
      const keyed = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).recordCharge(charge(100 + i, 'idem-1'))));
      expect(keyed.filter((r) => r.charged)).toHaveLength(1);
      expect(await other.hasCharge(team.id, 'idem-1')).toBe(true);
      expect((await store.getTeamPlan(team.id))?.creditsUsed).toBe(93);
      const month = new Date().toISOString().slice(0, 7);
      expect(await store.creditHistory(team.id, false)).toEqual([{ month, units: 93 }]);
      expect(await store.creditHistory(team.id, true)).toEqual([{ month, units: 93, spender: 'key_1' }]);
      expect(await store.spenderOfRequest('req-0')).toEqual({ keyId: 'key_1' });
    });

    it('an internal key charges once, from either handle, and lives apart from the clients\' idempotency keys', async () => {
      const other = await t.another();
      const team = await store.ensureTeam('acme');
      const charge = (i: number, keys: { idempotencyKey?: string; internalKey?: string }) => ({ teamId: team.id, operation: 'agent', units: 5, requestId: `job-${i}`, ...keys, at: new Date() });
      // A client who sends the internal key as its idempotency key first does not pre-empt the service's charge.
      expect(await store.recordCharge(charge(0, { idempotencyKey: 'agent-job:1' }))).toEqual({ charged: true });
      const once = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).recordCharge(charge(1, { internalKey: 'agent-job:1' }))));
      expect(once.filter((r) => r.charged)).toHaveLength(1);
      // The same internal key of another team is that team's.
      const second = await store.ensureTeam('globex');
      expect(await store.recordCharge({ ...charge(2, { internalKey: 'agent-job:1' }), teamId: second.id })).toEqual({ charged: true });
      expect((await store.getTeamPlan(team.id))?.creditsUsed).toBe(10);
    });

    it('team plans: set, add, unlimited refused for --add-credits', async () => {
      const team = await store.ensureTeam('acme');
      const at = new Date('2026-02-01T00:00:00.000Z');
      expect(await store.updateTeamPlan(team.id, { credits: 100, addCredits: { amount: 50, defaultCredits: null }, ratePerMinute: null, maxConcurrent: 4, zdr: true, siem: null }, at)).toEqual({
        teamId: team.id,
        planCredits: 150,
        creditsUsed: 0,
        periodStart: at.toISOString(),
        ratePerMinute: null,
        maxConcurrent: 4,
        zdr: true,
        siem: null,
        updatedAt: at.toISOString(),
      });
      const other = await store.ensureTeam('globex');
      await expect(store.updateTeamPlan(other.id, { addCredits: { amount: 5, defaultCredits: null } }, at)).rejects.toThrow(UnlimitedCreditsError);
      expect((await store.updateTeamPlan(other.id, { addCredits: { amount: 5, defaultCredits: 10 } }, at)).planCredits).toBe(15);
      expect((await store.listTeamPlans()).map((p) => p.teamId).sort()).toEqual([team.id, other.id].sort());
    });

    it('token usage', async () => {
      const team = await store.ensureTeam('acme');
      await store.recordTokenUsage({ teamId: team.id, operation: 'parse', model: 'm', inputTokens: 10, outputTokens: 5, oauthClient: 'c1', at: new Date('2026-01-05T00:00:00.000Z') });
      await store.recordTokenUsage({ teamId: team.id, operation: 'parse', inputTokens: 1, outputTokens: 1, at: new Date('2026-02-05T00:00:00.000Z') });
      expect(await store.tokensUsedSince(team.id, '2026-02-01T00:00:00.000Z')).toBe(2);
      expect(await store.tokensUsedSince(team.id, undefined)).toBe(17);
      expect(await store.tokenHistory(team.id, true)).toEqual([
        { month: '2026-01', units: 15, spender: 'oauth:c1' },
        { month: '2026-02', units: 2, spender: null },
      ]);
    });
  });
});
