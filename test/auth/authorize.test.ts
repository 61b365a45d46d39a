/**
 * GET /oauth/authorize and its pages against the started service and its real store: every rule
 * of RFC 6749 §4.1 + RFC 7636 + RFC 8707 + RFC 9207 as folio applies them (DESIGN.md "Auth
 * decisions"), sign-in, team choice, consent, CSRF and the account settings' revoke.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../http/helpers.ts';
import { Browser, createUser, hidden, PASSWORD, pkce, registerClient, startAuthorizeService } from './authorize-helpers.ts';

type Started = Awaited<ReturnType<typeof startAuthorizeService>>;
let s: Started;
let clientId: string;
const REDIRECT = 'http://127.0.0.1:45678/callback';
let resource: string;

function authorizeQuery(over: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    resource,
    scope: 'mcp',
    state: 'st-123',
    ...over,
  };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

function redirectParams(location: string | undefined): URLSearchParams {
  expect(location).toBeDefined();
  const url = new URL(location ?? '');
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
  return url.searchParams;
}

beforeAll(async () => {
  s = await startAuthorizeService();
  resource = `${s.service.urls.mcp}/v2/mcp-oauth`;
  clientId = await registerClient(s.service, ['http://127.0.0.1/callback']);
  await createUser(s.service, 'one@example.com', ['solo-team']);
  await createUser(s.service, 'two@example.com', ['alpha', 'beta']);
});
afterAll(async () => {
  await s.service.stop();
});

describe('errors before the redirect URI is trusted: a page, never a redirect', () => {
  it('redirect_uri not registered (other path, other host) → 400 page, no Location', async () => {
    for (const uri of ['http://127.0.0.1:45678/other', 'https://evil.example/callback', 'http://localhost:45678/callback']) {
      const res = await request(`${s.service.url}${authorizeQuery({ redirect_uri: uri })}`);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('not one it registered');
    }
  });
  it('unknown client_id, missing client_id, missing redirect_uri → page', async () => {
    for (const q of [authorizeQuery({ client_id: 'dcr_nope' }), authorizeQuery({ client_id: undefined }), authorizeQuery({ redirect_uri: undefined })]) {
      const res = await request(`${s.service.url}${q}`);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
    const unknown = await request(`${s.service.url}${authorizeQuery({ client_id: 'dcr_nope' })}`);
    expect(unknown.text).toContain('could not be identified');
  });
});

describe('errors once the redirect URI is trusted: back to it, with state and iss', () => {
  const cases: [string, Record<string, string | undefined>, string][] = [
    ['PKCE missing', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['PKCE method missing', { code_challenge_method: undefined }, 'invalid_request'],
    ['PKCE plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['wrong resource', { resource: 'https://elsewhere.example/v2/mcp-oauth' }, 'invalid_target'],
    ['legacy resource', { resource: 'LEGACY' }, 'invalid_target'],
    ['missing resource', { resource: undefined }, 'invalid_target'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['unknown scope', { scope: 'mcp admin' }, 'invalid_scope'],
  ];
  for (const [name, over, error] of cases) {
    it(`${name} → ${error}`, async () => {
      const o = { ...over };
      if (o.resource === 'LEGACY') o.resource = `${s.service.urls.mcp}/v2/mcp`;
      const res = await request(`${s.service.url}${authorizeQuery(o)}`);
      expect(res.status).toBe(302);
      const p = redirectParams(res.headers.location);
      expect(p.get('error')).toBe(error);
      expect(p.get('error_description')).toBeTruthy();
      expect(p.get('state')).toBe('st-123');
      expect(p.get('iss')).toBe(s.service.urls.base);
      expect(p.get('code')).toBeNull();
    });
  }
});

describe('a valid request', () => {
  it('shows the sign-in page with the security headers and keeps nothing in the page but ids', async () => {
    const b = new Browser(s.service.url);
    const res = await b.get(authorizeQuery());
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'; default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']?.[0]).toMatch(/^folio_session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(res.text).toContain('<form method="post" action="/oauth/sign-in">');
    expect(res.text).toContain('<label for="password">');
    expect(res.text).not.toContain('<script');
    expect(res.text).not.toContain('code_challenge');
    expect(res.text).not.toContain(REDIRECT);
  });

  it('sign-in failure is generic (unknown email = wrong password), CSRF missing → 403', async () => {
    const b = new Browser(s.service.url);
    const page = (await b.get(authorizeQuery())).text;
    const csrf = hidden(page, 'csrf_token');
    const req = hidden(page, 'request');
    const noCsrf = await b.post('/oauth/sign-in', { request: req, email: 'one@example.com', password: PASSWORD });
    expect(noCsrf.status).toBe(403);
    const wrongCsrf = await b.post('/oauth/sign-in', { csrf_token: 'x'.repeat(32), request: req, email: 'one@example.com', password: PASSWORD });
    expect(wrongCsrf.status).toBe(403);
    const wrongPw = await b.post('/oauth/sign-in', { csrf_token: csrf, request: req, email: 'one@example.com', password: 'not the password' });
    const noUser = await b.post('/oauth/sign-in', { csrf_token: csrf, request: req, email: 'nobody@example.com', password: 'not the password' });
    expect(wrongPw.status).toBe(401);
    expect(noUser.status).toBe(401);
    const message = (t: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(t)?.[1];
    expect(message(wrongPw.text)).toBe('The email or password is not correct.');
    expect(message(noUser.text)).toBe(message(wrongPw.text));
  });

  it('one team: sign in → consent (no team page) → approve → code, state, iss; the approval binds client, user, team, PKCE, resource', async () => {
    const b = new Browser(s.service.url);
    const { challenge } = pkce();
    const page = (await b.get(authorizeQuery({ code_challenge: challenge, state: 'state with spaces & symbols' }))).text;
    const before = b.cookies.get('folio_session');
    const signedIn = await b.post('/oauth/sign-in', { csrf_token: hidden(page, 'csrf_token'), request: hidden(page, 'request'), email: 'ONE@example.com', password: PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(b.cookies.get('folio_session')).not.toBe(before); // session id replaced at sign-in
    const consent = await b.get(signedIn.headers.location ?? '');
    expect(consent.status).toBe(200);
    expect(consent.text).not.toContain('Choose a team');
    expect(consent.text).toContain('Test Client');
    expect(consent.text).toContain('127.0.0.1:45678');
    expect(consent.text).toContain('solo-team');
    expect(consent.text).toContain('<code>mcp</code>');
    // The CSRF token seen before sign-in is no longer valid.
    const stale = await b.post('/oauth/consent', { csrf_token: hidden(page, 'csrf_token'), request: hidden(page, 'request'), decision: 'approve' });
    expect(stale.status).toBe(403);
    const form = { csrf_token: hidden(consent.text, 'csrf_token'), request: hidden(consent.text, 'request'), decision: 'approve' };
    const approved = await b.post('/oauth/consent', form);
    expect(approved.status).toBe(302);
    const p = redirectParams(approved.headers.location);
    expect(p.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(p.get('state')).toBe('state with spaces & symbols');
    expect(p.get('iss')).toBe(s.service.urls.base);
    const approval = s.codes.approvals.at(-1);
    const user = await s.service.store.findUserByEmail('one@example.com');
    expect(approval).toEqual({
      clientId,
      userId: user?.id,
      teamId: (await s.service.store.findTeamByName('solo-team'))?.id,
      scope: 'mcp',
      resource: '/v2/mcp-oauth',
      redirectUri: REDIRECT,
      codeChallenge: challenge,
    });
    // The request is answered once: the same form again finds nothing.
    const replay = await b.post('/oauth/consent', form);
    expect(replay.status).toBe(400);
    expect(replay.headers.location).toBeUndefined();
  });

  it('several teams: the team page is shown, the chosen team is billed; deny → access_denied', async () => {
    const b = new Browser(s.service.url);
    const page = (await b.get(authorizeQuery())).text;
    const signedIn = await b.post('/oauth/sign-in', { csrf_token: hidden(page, 'csrf_token'), request: hidden(page, 'request'), email: 'two@example.com', password: PASSWORD });
    const teamPage = await b.get(signedIn.headers.location ?? '');
    expect(teamPage.text).toContain('Choose a team');
    expect(teamPage.text).toContain('alpha');
    expect(teamPage.text).toContain('beta');
    const beta = (await s.service.store.findTeamByName('beta'))?.id ?? '';
    const alpha = await s.service.store.findTeamByName('alpha');
    const foreign = await b.post('/oauth/team', { csrf_token: hidden(teamPage.text, 'csrf_token'), request: hidden(teamPage.text, 'request'), team_id: s.service.teamId });
    expect(foreign.status).toBe(400);
    const chosen = await b.post('/oauth/team', { csrf_token: hidden(teamPage.text, 'csrf_token'), request: hidden(teamPage.text, 'request'), team_id: beta });
    const consent = await b.get(chosen.headers.location ?? '');
    expect(consent.text).toContain('team <strong>beta</strong>');
    expect(alpha).toBeDefined();
    const denied = await b.post('/oauth/consent', { csrf_token: hidden(consent.text, 'csrf_token'), request: hidden(consent.text, 'request'), decision: 'deny' });
    expect(denied.status).toBe(302);
    const p = redirectParams(denied.headers.location);
    expect(p.get('error')).toBe('access_denied');
    expect(p.get('state')).toBe('st-123');
    expect(p.get('iss')).toBe(s.service.urls.base);
    expect(p.get('code')).toBeNull();
  });

  it('a kept request cannot be continued from another browser', async () => {
    const a = new Browser(s.service.url);
    const page = (await a.get(authorizeQuery())).text;
    const other = new Browser(s.service.url);
    const res = await other.get(`/oauth/authorize/continue?request=${hidden(page, 'request')}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('no longer valid');
  });
});

describe('account settings', () => {
  it('lists the user\'s connections and revokes one (POST + CSRF); another user\'s grant is refused', async () => {
    const user = await s.service.store.findUserByEmail('one@example.com');
    const team = await s.service.store.findTeamByName('solo-team');
    const grant = await s.service.store.createOAuthGrant({ clientId, userId: user?.id ?? null, teamId: team?.id ?? '', scope: 'mcp', resource: '/v2/mcp-oauth' });
    const token = (await s.service.tokens.issue(grant)).access_token;
    expect((await s.service.tokens.verify(token, '/v2/mcp-oauth')).ok).toBe(true);
    const strangers = await s.service.store.createOAuthGrant({ clientId, teamId: team?.id ?? '', scope: 'mcp', resource: '/v2/mcp-oauth' });

    const b = new Browser(s.service.url);
    expect((await b.get('/account')).headers.location).toBe('/oauth/sign-in');
    const signInPage = await b.get('/oauth/sign-in');
    const signedIn = await b.post('/oauth/sign-in', { csrf_token: hidden(signInPage.text, 'csrf_token'), email: 'one@example.com', password: PASSWORD });
    expect(signedIn.headers.location).toBe('/account');
    const account = await b.get('/account');
    expect(account.status).toBe(200);
    expect(account.headers['x-frame-options']).toBe('DENY');
    expect(account.text).toContain('MCP connections');
    expect(account.text).toContain('Test Client');
    expect(account.text).toContain('solo-team');
    expect(account.text).toContain(grant.id);
    expect(account.text).not.toContain(strangers.id);
    const csrf = hidden(account.text, 'csrf_token');
    expect((await b.post('/account/connections/revoke', { grant_id: grant.id })).status).toBe(403);
    expect((await b.post('/account/connections/revoke', { csrf_token: csrf, grant_id: strangers.id })).status).toBe(404);
    const revoked = await b.post('/account/connections/revoke', { csrf_token: csrf, grant_id: grant.id });
    expect(revoked.status).toBe(303);
    const verdict = await s.service.tokens.verify(token, '/v2/mcp-oauth');
    expect(verdict.ok).toBe(false);
    expect((await s.service.store.getOAuthGrant(strangers.id))?.revokedAt).toBeNull();
    expect((await b.get('/account')).text).not.toContain(grant.id);
  });
});

describe('FOLIO_OAUTH_DEFAULT_RESOURCE=on', () => {
  it('a request without resource is taken as {mcp_url}/v2/mcp-oauth; a wrong one is still refused', async () => {
    const other = await startAuthorizeService({ FOLIO_OAUTH_DEFAULT_RESOURCE: 'on' });
    try {
      const id = await registerClient(other.service, ['http://127.0.0.1/callback']);
      const q = (r: string | undefined) => authorizeQuery({ client_id: id, resource: r });
      const ok = await request(`${other.service.url}${q(undefined)}`);
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('Sign in');
      const wrong = await request(`${other.service.url}${q('https://elsewhere.example/x')}`);
      expect(redirectParams(wrong.headers.location).get('error')).toBe('invalid_target');
    } finally {
      await other.service.stop();
    }
  });
});
