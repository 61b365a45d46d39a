/**
 * POST /oauth/token and POST /oauth/revoke, black-box over HTTP against the started service, with
 * oauth4webapi as the client where it fits. Codes come from the service's own `issueCode` (the
 * sign-in and consent pages are tested elsewhere); the clock of codes and tokens is the test's.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovedAuthorization } from '../../auth/authorization-code-types.ts';
import { request, startTestService, storeAtRest, type RawResponse, type TestService } from '../http/helpers.ts';

let service: TestService;
let clock = new Date('2031-03-01T09:00:00Z');
let userSeq = 0;

const CLIENT = 'https://client.example.com/oauth/client.json';
const OTHER_CLIENT = 'https://other.example.com/client.json';
const REDIRECT = 'http://127.0.0.1:43123/callback';

function advance(seconds: number): void {
  clock = new Date(clock.getTime() + seconds * 1000);
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function resource(): string {
  return `${service.urls.mcp}/v2/mcp-oauth`;
}

async function code(overrides: Partial<ApprovedAuthorization> = {}): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const c = await service.authorizationCodes.issueCode({
    clientId: CLIENT,
    userId: `user_${++userSeq}`,
    teamId: service.teamId,
    scope: 'mcp',
    resource: '/v2/mcp-oauth',
    redirectUri: REDIRECT,
    codeChallenge: challenge,
    ...overrides,
  });
  return { code: c, verifier };
}

function form(path: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<RawResponse> {
  return request(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: Buffer.from(new URLSearchParams(params).toString()),
  });
}

function exchange(c: { code: string; verifier: string }, extra: Record<string, string> = {}): Promise<RawResponse> {
  return form('/oauth/token', { grant_type: 'authorization_code', code: c.code, client_id: CLIENT, redirect_uri: REDIRECT, code_verifier: c.verifier, resource: resource(), ...extra });
}

function refresh(refreshToken: string, extra: Record<string, string> = {}): Promise<RawResponse> {
  return form('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT, ...extra });
}

async function tokens(): Promise<{ access: string; refresh: string }> {
  const res = await exchange(await code());
  expect(res.status, res.text).toBe(200);
  return { access: String(res.json.access_token), refresh: String(res.json.refresh_token) };
}

function toolsList(accessToken: string): Promise<RawResponse> {
  return request(`${service.url}/v2/mcp-oauth`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
  });
}

function expectError(res: RawResponse, status: number, error: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json.error).toBe(error);
  expect(typeof res.json.error_description).toBe('string');
  expect(res.headers['cache-control']).toBe('no-store');
}

beforeAll(async () => {
  service = await startTestService({ oauthNow: () => clock, runner: async () => Promise.reject(new Error('no parse in these tests')) });
});

afterAll(async () => {
  await service.stop();
});

describe('authorization_code grant', () => {
  it('exchanges a code with oauth4webapi (endpoints from discovery): Bearer access token for the resource, refresh token, no-store, no nulls', async () => {
    const c = await code();
    const issuer = new URL(service.urls.base);
    const discovery = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true });
    const as = await oauth.processDiscoveryResponse(issuer, discovery);
    expect(as.token_endpoint).toBe(`${service.url}/oauth/token`);
    expect(as.revocation_endpoint).toBe(`${service.url}/oauth/revoke`);
    const client: oauth.Client = { client_id: CLIENT };
    const callback = oauth.validateAuthResponse(as, client, new URLSearchParams({ code: c.code, iss: service.urls.base }), oauth.expectNoState);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, REDIRECT, c.verifier, {
      additionalParameters: { resource: resource() },
      [oauth.allowInsecureRequests]: true,
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const raw = (await response.clone().json()) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(Object.values(raw)).not.toContain(null);
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(result.token_type).toBe('bearer');
    expect(result.expires_in).toBe(3600);
    expect(result.scope).toBe('mcp');
    expect(result.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const payload = JSON.parse(Buffer.from(result.access_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(payload.aud).toBe(resource());
    expect(payload.client_id).toBe(CLIENT);
    expect(payload.sub).toBe(`user_${userSeq}`);
    expect(payload.team_id).toBe(service.teamId);
    const list = await toolsList(result.access_token);
    expect(list.status, list.text).toBe(200);
    expect(list.text).toContain('"tools"');
  });

  it('works without the optional resource parameter', async () => {
    const c = await code();
    const res = await form('/oauth/token', { grant_type: 'authorization_code', code: c.code, client_id: CLIENT, redirect_uri: REDIRECT, code_verifier: c.verifier });
    expect(res.status, res.text).toBe(200);
  });

  it('refuses a wrong PKCE verifier (invalid_grant) without spending the code', async () => {
    const c = await code();
    expectError(await exchange(c, { code_verifier: pkce().verifier }), 400, 'invalid_grant');
    expect((await exchange(c)).status).toBe(200);
  });

  it('refuses a malformed or missing verifier as invalid_request', async () => {
    const c = await code();
    expectError(await exchange(c, { code_verifier: 'short' }), 400, 'invalid_request');
    expectError(await exchange(c, { code_verifier: `${'a'.repeat(50)}+` }), 400, 'invalid_request');
    expectError(await form('/oauth/token', { grant_type: 'authorization_code', code: c.code, client_id: CLIENT, redirect_uri: REDIRECT }), 400, 'invalid_request');
  });

  it('refuses a redirect_uri that is not the exact string of the authorization request', async () => {
    const c = await code();
    expectError(await exchange(c, { redirect_uri: 'http://127.0.0.1:43123/callback/' }), 400, 'invalid_grant');
    expectError(await exchange(c, { redirect_uri: 'http://localhost:43123/callback' }), 400, 'invalid_grant');
  });

  it('refuses another client, another resource, an unknown and an expired code', async () => {
    const c = await code();
    expectError(await exchange(c, { client_id: OTHER_CLIENT }), 400, 'invalid_grant');
    expectError(await exchange(c, { resource: `${service.urls.mcp}/v2/mcp` }), 400, 'invalid_target');
    expectError(await exchange({ code: randomBytes(32).toString('base64url'), verifier: c.verifier }), 400, 'invalid_grant');
    const late = await code();
    advance(61);
    const res = await exchange(late);
    expectError(res, 400, 'invalid_grant');
    expect(res.json.error_description).toContain('expired');
  });

  it('refuses a replayed code and revokes the grant the first exchange created', async () => {
    const c = await code();
    const first = await exchange(c);
    expect(first.status).toBe(200);
    const access = String(first.json.access_token);
    expect((await toolsList(access)).status).toBe(200);
    const replay = await exchange(c);
    expectError(replay, 400, 'invalid_grant');
    expect(replay.json.error_description).toContain('already used');
    const after = await toolsList(access);
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toContain('invalid_token');
    expectError(await refresh(String(first.json.refresh_token)), 400, 'invalid_grant');
  });
});

describe('at rest', () => {
  it('keeps neither the code nor the refresh tokens in clear in the store (SQLite files or PostgreSQL rows), and logs none of them', async () => {
    const c = await code();
    const res = await exchange(c);
    const r = await refresh(String(res.json.refresh_token));
    const secrets = [c.code, String(res.json.refresh_token), String(r.json.refresh_token)];
    const bytes = await storeAtRest(service);
    const hashed = createHash('sha256').update(c.code).digest('hex');
    expect(bytes.includes(Buffer.from(hashed))).toBe(true);
    for (const secret of secrets) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    const log = service.logText();
    for (const secret of [...secrets, String(res.json.access_token)]) expect(log).not.toContain(secret);
  });
});

describe('parallel redemption', () => {
  it('two exchanges of one code at once: one wins, the other is a replay that revokes what the first got', async () => {
    const c = await code();
    const answers = await Promise.all([exchange(c), exchange(c)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const won = answers.find((a) => a.status === 200);
    const lost = answers.find((a) => a.status === 400);
    expect(lost?.json.error).toBe('invalid_grant');
    expect((await toolsList(String(won?.json.access_token))).status).toBe(401);
  });
});

describe('client authentication and request shape', () => {
  it('refuses a client_secret or Basic auth as invalid_client (401): clients are public', async () => {
    const c = await code();
    expectError(await exchange(c, { client_secret: 's3cret' }), 401, 'invalid_client');
    // The refused request did not spend the code.
    expect((await exchange(c)).status).toBe(200);
    const c2 = await code();
    const res = await form('/oauth/token', { grant_type: 'authorization_code', code: c2.code, client_id: CLIENT, redirect_uri: REDIRECT, code_verifier: c2.verifier }, {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(CLIENT)}:x`).toString('base64')}`,
    });
    expectError(res, 401, 'invalid_client');
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('refuses unknown grant types, repeated parameters, missing client_id and non-form bodies', async () => {
    expectError(await form('/oauth/token', { grant_type: 'password', client_id: CLIENT }), 400, 'unsupported_grant_type');
    expectError(await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x' }), 400, 'invalid_request');
    const dup = await request(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(`grant_type=refresh_token&client_id=a&client_id=b&refresh_token=x`),
    });
    expectError(dup, 400, 'invalid_request');
    const twoResources = await request(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(`grant_type=refresh_token&client_id=a&refresh_token=x&resource=${encodeURIComponent(resource())}&resource=${encodeURIComponent(resource())}`),
    });
    expectError(twoResources, 400, 'invalid_target');
    const json = await request(`${service.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"grant_type":"refresh_token"}') });
    expectError(json, 400, 'invalid_request');
    const big = await form('/oauth/token', { grant_type: 'refresh_token', client_id: CLIENT, refresh_token: 'x'.repeat(20_000) });
    expectError(big, 400, 'invalid_request');
  });

  it('answers CORS preflights and cross-origin posts without an API key', async () => {
    for (const path of ['/oauth/token', '/oauth/revoke']) {
      const pre = await request(`${service.url}${path}`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
    }
    const res = await form('/oauth/token', { grant_type: 'password', client_id: CLIENT }, { origin: 'https://app.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('refresh_token grant', () => {
  it('rotates: the new token works, the old one works within the grace window, after it the whole grant is revoked', async () => {
    const t = await tokens();
    const r1 = await refresh(t.refresh);
    expect(r1.status, r1.text).toBe(200);
    expect(r1.headers['cache-control']).toBe('no-store');
    expect(Object.values(r1.json)).not.toContain(null);
    const next = String(r1.json.refresh_token);
    expect(next).not.toBe(t.refresh);
    expect((await toolsList(String(r1.json.access_token))).status).toBe(200);

    advance(10);
    const parallel = await refresh(t.refresh);
    expect(parallel.status, parallel.text).toBe(200);
    const sibling = String(parallel.json.refresh_token);
    expect(sibling).not.toBe(next);

    const r2 = await refresh(next);
    expect(r2.status, r2.text).toBe(200);
    const newest = String(r2.json.refresh_token);
    const access = String(r2.json.access_token);

    advance(25);
    const reuse = await refresh(t.refresh);
    expectError(reuse, 400, 'invalid_grant');
    expect(reuse.json.error_description).toContain('revokes the connection');
    expect((await toolsList(access)).status).toBe(401);
    expectError(await refresh(newest), 400, 'invalid_grant');
    expectError(await refresh(sibling), 400, 'invalid_grant');
  });

  it('lets the scope narrow or stay, never widen', async () => {
    const t = await tokens();
    expectError(await refresh(t.refresh, { scope: 'mcp admin' }), 400, 'invalid_scope');
    const same = await refresh(t.refresh, { scope: 'mcp' });
    expect(same.status, same.text).toBe(200);
    expect(same.json.scope).toBe('mcp');
  });

  it('is bound to its client and its resource', async () => {
    const t = await tokens();
    expectError(await refresh(t.refresh, { client_id: OTHER_CLIENT }), 400, 'invalid_grant');
    expectError(await refresh(t.refresh, { resource: `${service.urls.mcp}/v2/mcp` }), 400, 'invalid_target');
    expectError(await refresh(randomBytes(32).toString('base64url')), 400, 'invalid_grant');
  });

  it('an expired access token is 401 invalid_token; the refresh token gets a new one', async () => {
    const t = await tokens();
    advance(3600 + 31);
    const res = await toolsList(t.access);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('invalid_token');
    expect(res.headers['www-authenticate']).toContain('expired');
    const r = await refresh(t.refresh);
    expect(r.status, r.text).toBe(200);
    expect((await toolsList(String(r.json.access_token))).status).toBe(200);
  });
});

describe('revocation (RFC 7009)', () => {
  function revoke(token: string, clientId = CLIENT, hint?: string): Promise<RawResponse> {
    return form('/oauth/revoke', { token, client_id: clientId, ...(hint ? { token_type_hint: hint } : {}) });
  }

  it('revoking the refresh token revokes the grant: its access token is refused at once', async () => {
    const t = await tokens();
    const as: oauth.AuthorizationServer = { issuer: service.urls.base, revocation_endpoint: `${service.url}/oauth/revoke` };
    const res = await oauth.revocationRequest(as, { client_id: CLIENT }, oauth.None(), t.refresh, {
      additionalParameters: { token_type_hint: 'refresh_token' },
      [oauth.allowInsecureRequests]: true,
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    await oauth.processRevocationResponse(res);
    expect((await toolsList(t.access)).status).toBe(401);
    expectError(await refresh(t.refresh), 400, 'invalid_grant');
  });

  it('revoking the access token revokes the grant, whatever the hint says', async () => {
    const t = await tokens();
    expect((await revoke(t.access, CLIENT, 'refresh_token')).status).toBe(200);
    expect((await toolsList(t.access)).status).toBe(401);
    expectError(await refresh(t.refresh), 400, 'invalid_grant');
  });

  it("refuses to revoke another client's tokens, answering 200 all the same", async () => {
    const t = await tokens();
    expect((await revoke(t.refresh, OTHER_CLIENT)).status).toBe(200);
    expect((await revoke(t.access, OTHER_CLIENT)).status).toBe(200);
    expect((await toolsList(t.access)).status).toBe(200);
    expect((await refresh(t.refresh)).status).toBe(200);
  });

  it('answers 200 for unknown tokens; refuses a request without token or client_id', async () => {
    expect((await revoke(randomBytes(32).toString('base64url'))).status).toBe(200);
    expect((await revoke('a.b.c')).status).toBe(200);
    expectError(await form('/oauth/revoke', { client_id: CLIENT }), 400, 'invalid_request');
    expectError(await form('/oauth/revoke', { token: 'x' }), 400, 'invalid_request');
    expectError(await form('/oauth/revoke', { token: 'x', client_id: CLIENT, client_secret: 'y' }), 401, 'invalid_client');
  });
});
