/**
 * folio's access tokens against a real SQLite store and real jose: RFC 9068 shape, the audience
 * and migration rules (DESIGN.md "Auth decisions"), expiry, signatures and keys, revocation, and
 * keys that survive a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { createAccessTokens, type AccessTokens, type AccessTokensOptions } from '../../auth/access-tokens.ts';
import type { McpResourcePath, TokenVerdict } from '../../auth/access-token-types.ts';
import type { OAuthGrant } from '../../auth/grants.ts';
import { createSigningKeys, generateSigningKey, RELOAD_INTERVAL_MS, type SigningKeys } from '../../auth/signing-keys.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite.ts';

const ISSUER = 'https://folio.example.com';
const MCP_URL = 'https://mcp.example.com';
const LEGACY = `${MCP_URL}/v2/mcp`;
const OAUTH = `${MCP_URL}/v2/mcp-oauth`;
const T0 = new Date('2030-01-01T12:00:00Z');

let dataDir: string;
let store: SqliteStore;
let keys: SigningKeys;
let teamId: string;

function tokensAt(now: Date, extra: Partial<AccessTokensOptions> = {}): AccessTokens {
  return createAccessTokens({ keys, grants: store, issuer: ISSUER, mcpUrl: MCP_URL, migrationEnd: undefined, now: () => now, ...extra });
}

async function grantFor(resource: McpResourcePath, clientId = 'client-a'): Promise<OAuthGrant> {
  return store.createOAuthGrant({ clientId, teamId, scope: 'mcp', resource });
}

function refusal(v: TokenVerdict): string {
  if (v.ok) throw new Error(`expected a refusal, got claims for grant ${v.claims.grantId}`);
  expect(v.error).toBe('invalid_token');
  return v.description;
}

/** A token signed with the server's real current key, with the given claims (for malformed ones). */
async function signRaw(claims: JWTPayload, header: { typ?: string } = { typ: 'at+jwt' }, iat = Math.floor(T0.getTime() / 1000)): Promise<string> {
  const signer = await keys.current();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: signer.kid, ...header })
    .setIssuedAt(iat)
    .setExpirationTime(iat + 600)
    .sign(signer.key);
}

async function validClaims(grant: OAuthGrant): Promise<JWTPayload> {
  return { iss: ISSUER, sub: `team:${teamId}`, client_id: grant.clientId, scope: 'mcp', jti: 'j1', grant_id: grant.id, team_id: teamId };
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-tokens-'));
  store = openSqliteStore(dataDir);
  keys = createSigningKeys(store);
  teamId = (await store.ensureTeam('acme')).id;
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('issue', () => {
  it('signs an RFC 9068 JWT access token bound to one resource, one hour', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const res = await tokensAt(T0).issue(grant);
    expect(res).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'mcp' });
    const header = decodeProtectedHeader(res.access_token);
    const [jwk] = (await keys.jwks()).keys;
    expect(header).toEqual({ alg: 'ES256', typ: 'at+jwt', kid: await calculateJwkThumbprint({ kty: jwk?.kty, crv: jwk?.crv, x: jwk?.x, y: jwk?.y }) });
    const payload = decodeJwt(res.access_token);
    const iat = Math.floor(T0.getTime() / 1000);
    expect(payload).toEqual({
      iss: ISSUER,
      sub: `team:${teamId}`,
      aud: OAUTH,
      client_id: 'client-a',
      scope: 'mcp',
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      iat,
      exp: iat + 3600,
      grant_id: grant.id,
      team_id: teamId,
    });
    const again = await tokensAt(T0).issue(grant);
    expect(decodeJwt(again.access_token).jti).not.toBe(payload.jti);
  });

  it('uses the user id as subject when the grant has a user, and refuses lifetimes over an hour and revoked grants', async () => {
    const grant = await store.createOAuthGrant({ clientId: 'c', userId: 'user_1', teamId, scope: 'mcp', resource: '/v2/mcp-oauth' });
    const t = tokensAt(T0);
    expect(decodeJwt((await t.issue(grant)).access_token).sub).toBe('user_1');
    const verdict = await t.verify((await t.issue(grant, { ttlSeconds: 60 })).access_token, '/v2/mcp-oauth');
    expect(verdict.ok && verdict.claims.userId).toBe('user_1');
    await expect(t.issue(grant, { ttlSeconds: 3601 })).rejects.toThrow(/1 to 3600 seconds/);
    await expect(t.issue(grant, { ttlSeconds: 0 })).rejects.toThrow(/1 to 3600 seconds/);
    const revoked = await store.revokeOAuthGrant(grant.id, T0);
    await expect(t.issue(revoked as OAuthGrant)).rejects.toThrow(/revoked/);
  });
});

describe('verify: audience rules', () => {
  it('accepts a token on the resource it was issued for, with its claims', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const t = tokensAt(T0);
    const verdict = await t.verify((await t.issue(grant)).access_token, '/v2/mcp-oauth');
    expect(verdict).toEqual({
      ok: true,
      claims: { grantId: grant.id, clientId: 'client-a', teamId, teamName: 'acme', scope: 'mcp', audience: OAUTH, expiresAt: new Date(T0.getTime() + 3600_000) },
    });
    const legacyGrant = await grantFor('/v2/mcp');
    const legacy = await t.verify((await t.issue(legacyGrant)).access_token, '/v2/mcp');
    expect(legacy.ok && legacy.claims.audience).toBe(LEGACY);
  });

  it('never accepts a /v2/mcp-oauth token on /v2/mcp, even while the migration window is open', async () => {
    const t = tokensAt(T0, { migrationEnd: new Date(T0.getTime() + 86_400_000) });
    const token = (await t.issue(await grantFor('/v2/mcp-oauth'))).access_token;
    const description = refusal(await t.verify(token, '/v2/mcp'));
    expect(description).toContain(`is for ${OAUTH}`);
    expect(description).toContain(`not accepted at ${LEGACY}`);
  });

  it('accepts a /v2/mcp token on /v2/mcp-oauth only while the migration window is open', async () => {
    const grant = await grantFor('/v2/mcp');
    const token = (await tokensAt(T0).issue(grant)).access_token;
    const end = new Date(T0.getTime() + 60_000);

    const closedByDefault = refusal(await tokensAt(T0).verify(token, '/v2/mcp-oauth'));
    expect(closedByDefault).toContain('is not open on this server');
    expect(closedByDefault).toContain(`reconnect the client to ${OAUTH}`);

    const open = await tokensAt(T0, { migrationEnd: end }).verify(token, '/v2/mcp-oauth');
    expect(open.ok && open.claims.audience).toBe(LEGACY);

    const justClosed = refusal(await tokensAt(end, { migrationEnd: end }).verify(token, '/v2/mcp-oauth'));
    expect(justClosed).toContain(`closed at ${end.toISOString()}`);
    // …and it keeps working where it was issued for.
    expect((await tokensAt(end, { migrationEnd: end }).verify(token, '/v2/mcp')).ok).toBe(true);
  });

  it('refuses a token with no audience, or with two, and accepts a one-element array', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const t = tokensAt(T0, { migrationEnd: new Date(T0.getTime() + 86_400_000) });
    const base = await validClaims(grant);
    expect(refusal(await t.verify(await signRaw(base), '/v2/mcp-oauth'))).toContain('has no audience');
    for (const aud of [[OAUTH, LEGACY], [OAUTH, OAUTH], []]) {
      expect(refusal(await t.verify(await signRaw({ ...base, aud }), '/v2/mcp-oauth'))).toContain(`names ${aud.length} audiences`);
    }
    expect((await t.verify(await signRaw({ ...base, aud: [OAUTH] }), '/v2/mcp-oauth')).ok).toBe(true);
  });

  it('refuses a token for another server, naming the resource it is for', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const token = await signRaw({ ...(await validClaims(grant)), aud: 'https://elsewhere.example/v2/mcp-oauth' });
    expect(refusal(await tokensAt(T0).verify(token, '/v2/mcp-oauth'))).toContain('is for https://elsewhere.example/v2/mcp-oauth, not for');
  });

  it('refuses a token whose audience differs from its grant', async () => {
    const grant = await grantFor('/v2/mcp');
    const token = await signRaw({ ...(await validClaims(grant)), aud: OAUTH });
    expect(refusal(await tokensAt(T0).verify(token, '/v2/mcp-oauth'))).toContain('does not match the connection');
  });
});

describe('verify: time, signature, keys', () => {
  it('refuses an expired token (after a small clock tolerance) and says how to get a new one', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const token = (await tokensAt(T0).issue(grant, { ttlSeconds: 60 })).access_token;
    expect((await tokensAt(new Date(T0.getTime() + 70_000)).verify(token, '/v2/mcp-oauth')).ok).toBe(true);
    const description = refusal(await tokensAt(new Date(T0.getTime() + 91_000)).verify(token, '/v2/mcp-oauth'));
    expect(description).toContain(`expired at ${new Date(T0.getTime() + 60_000).toISOString()}`);
    expect(description).toMatch(/refresh token|reconnect/);
  });

  it('refuses a tampered signature and a tampered payload', async () => {
    const t = tokensAt(T0);
    const token = (await t.issue(await grantFor('/v2/mcp-oauth'))).access_token;
    const [h, p, s] = token.split('.') as [string, string, string];
    const flipped = `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    expect(refusal(await t.verify(flipped, '/v2/mcp-oauth'))).toContain('signature does not verify');
    const other = (await t.issue(await grantFor('/v2/mcp-oauth', 'client-b'))).access_token;
    const swapped = `${h}.${other.split('.')[1] ?? ''}.${s}`;
    expect(refusal(await t.verify(swapped, '/v2/mcp-oauth'))).toContain('signature does not verify');
  });

  it('refuses alg none, another algorithm, another type and another issuer', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const t = tokensAt(T0);
    const claims = { ...(await validClaims(grant)), aud: OAUTH };
    const iat = Math.floor(T0.getTime() / 1000);
    const unsecured = new UnsecuredJWT(claims).setIssuedAt(iat).setExpirationTime(iat + 600).encode();
    expect(refusal(await t.verify(unsecured, '/v2/mcp-oauth'))).toContain('not a folio access token');
    const withNoneSig = `${unsecured}AAAA`;
    expect(refusal(await t.verify(withNoneSig, '/v2/mcp-oauth'))).toMatch(/not signed with ES256|malformed/);
    const signer = await keys.current();
    const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: signer.kid }).setIssuedAt(iat).setExpirationTime(iat + 600).sign(new TextEncoder().encode('x'.repeat(32)));
    expect(refusal(await t.verify(hs, '/v2/mcp-oauth'))).toContain('not signed with ES256');
    expect(refusal(await t.verify(await signRaw(claims, { typ: 'JWT' }), '/v2/mcp-oauth'))).toContain("'typ: at+jwt'");
    expect(refusal(await t.verify(await signRaw(claims, {}), '/v2/mcp-oauth'))).toContain("'typ: at+jwt'");
    expect(refusal(await t.verify(await signRaw({ ...claims, iss: 'https://evil.example' }), '/v2/mcp-oauth'))).toContain('another authorization server');
    expect(refusal(await t.verify(await signRaw({ ...claims, client_id: undefined }), '/v2/mcp-oauth'))).toContain("'client_id'");
    expect(refusal(await t.verify('folio_notajwt', '/v2/mcp-oauth'))).toContain('not a folio access token');
    expect(refusal(await t.verify('a.b.c', '/v2/mcp-oauth'))).toContain('malformed');
  });

  it('refuses a token signed by a key it does not know, or by a retired key', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const t = tokensAt(T0);
    const stranger = await generateSigningKey();
    const { importJWK } = await import('jose');
    const iat = Math.floor(T0.getTime() / 1000);
    const foreign = await new SignJWT({ ...(await validClaims(grant)), aud: OAUTH })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: stranger.kid })
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(await importJWK(stranger.privateJwk, 'ES256'));
    expect(refusal(await t.verify(foreign, '/v2/mcp-oauth'))).toContain('key this server does not know');

    const token = (await t.issue(grant)).access_token;
    const { kid } = decodeProtectedHeader(token);
    const newKid = await keys.rotate();
    expect(newKid).not.toBe(kid);
    expect((await t.verify(token, '/v2/mcp-oauth')).ok).toBe(true);
    expect(decodeProtectedHeader((await t.issue(grant)).access_token).kid).toBe(newKid);
    expect((await keys.jwks()).keys.map((k) => k.kid)).toEqual([newKid, kid]);
    expect(await keys.retire(kid ?? '')).toBe(true);
    expect(refusal(await t.verify(token, '/v2/mcp-oauth'))).toContain('key this server does not know');
    expect((await keys.jwks()).keys.map((k) => k.kid)).toEqual([newKid]);
  });

  it('publishes only public key material', async () => {
    const { keys: set } = await keys.jwks();
    expect(set).toHaveLength(1);
    expect(Object.keys(set[0] ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(set[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  });
});

describe('verify: grants', () => {
  it('refuses a token at once when its grant is revoked, and only that grant’s tokens', async () => {
    const t = tokensAt(T0);
    const grant = await grantFor('/v2/mcp-oauth');
    const other = await grantFor('/v2/mcp-oauth', 'client-b');
    const token = (await t.issue(grant)).access_token;
    const otherToken = (await t.issue(other)).access_token;
    expect((await t.verify(token, '/v2/mcp-oauth')).ok).toBe(true);
    await store.revokeOAuthGrant(grant.id, T0);
    expect(refusal(await t.verify(token, '/v2/mcp-oauth'))).toContain(`was revoked at ${T0.toISOString()}`);
    expect((await t.verify(otherToken, '/v2/mcp-oauth')).ok).toBe(true);
  });

  it('refuses a token naming a grant that does not exist', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const token = await signRaw({ ...(await validClaims(grant)), aud: OAUTH, grant_id: 'grant_missing' });
    expect(refusal(await tokensAt(T0).verify(token, '/v2/mcp-oauth'))).toContain('no longer exists');
  });

  it('records when a grant was last used, at most once a minute', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const token = (await tokensAt(T0).issue(grant)).access_token;
    const settle = () => new Promise((r) => setImmediate(r));
    await tokensAt(T0).verify(token, '/v2/mcp-oauth');
    await settle();
    expect((await store.getOAuthGrant(grant.id))?.lastUsedAt).toBe(T0.toISOString());
    await tokensAt(new Date(T0.getTime() + 30_000)).verify(token, '/v2/mcp-oauth');
    await settle();
    expect((await store.getOAuthGrant(grant.id))?.lastUsedAt).toBe(T0.toISOString());
    const later = new Date(T0.getTime() + 61_000);
    await tokensAt(later).verify(token, '/v2/mcp-oauth');
    await settle();
    expect((await store.getOAuthGrant(grant.id))?.lastUsedAt).toBe(later.toISOString());
  });
});

describe('signing keys in the store', () => {
  it('a token issued before a restart verifies after it (the key is persisted and reused)', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const token = (await tokensAt(T0).issue(grant)).access_token;
    const kid = (await keys.jwks()).keys[0]?.kid;
    await store.close();
    store = openSqliteStore(dataDir);
    keys = createSigningKeys(store);
    expect((await tokensAt(T0).verify(token, '/v2/mcp-oauth')).ok).toBe(true);
    expect((await keys.jwks()).keys.map((k) => k.kid)).toEqual([kid]);
    expect(decodeProtectedHeader((await tokensAt(T0).issue(grant)).access_token).kid).toBe(kid);
  });

  it('two processes starting on an empty store sign with one key', async () => {
    const second = openSqliteStore(dataDir);
    try {
      const [a, b] = await Promise.all([keys.current(), createSigningKeys(second).current()]);
      expect(a.kid).toBe(b.kid);
      expect(await second.listLiveSigningKeys()).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('a key rotated in by another process verifies here once the keys are reloaded', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const start = new Date();
    let clock = start;
    const here = createSigningKeys(store, { now: () => clock });
    const verifier = createAccessTokens({ keys: here, grants: store, issuer: ISSUER, mcpUrl: MCP_URL, migrationEnd: undefined, now: () => T0 });
    await here.jwks();
    const other = openSqliteStore(dataDir);
    try {
      const otherKeys = createSigningKeys(other);
      const rotated = await otherKeys.rotate();
      const token = (await createAccessTokens({ keys: otherKeys, grants: other, issuer: ISSUER, mcpUrl: MCP_URL, migrationEnd: undefined, now: () => T0 }).issue(grant)).access_token;
      expect(decodeProtectedHeader(token).kid).toBe(rotated);
      // Unknown kids reload the keys at most every RELOAD_INTERVAL_MS.
      expect(refusal(await verifier.verify(token, '/v2/mcp-oauth'))).toContain('key this server does not know');
      clock = new Date(start.getTime() + RELOAD_INTERVAL_MS);
      expect((await verifier.verify(token, '/v2/mcp-oauth')).ok).toBe(true);
      expect((await here.jwks()).keys).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it('a key retired by another process stops verifying here once the keys are reloaded', async () => {
    const grant = await grantFor('/v2/mcp-oauth');
    const start = new Date();
    let clock = start;
    const here = createSigningKeys(store, { now: () => clock });
    const t = createAccessTokens({ keys: here, grants: store, issuer: ISSUER, mcpUrl: MCP_URL, migrationEnd: undefined, now: () => T0 });
    const token = (await t.issue(grant)).access_token;
    const other = openSqliteStore(dataDir);
    try {
      expect(await createSigningKeys(other).retire(decodeProtectedHeader(token).kid ?? '')).toBe(true);
    } finally {
      await other.close();
    }
    expect((await t.verify(token, '/v2/mcp-oauth')).ok).toBe(true);
    clock = new Date(start.getTime() + RELOAD_INTERVAL_MS);
    expect(refusal(await t.verify(token, '/v2/mcp-oauth'))).toContain('key this server does not know');
  });
});
