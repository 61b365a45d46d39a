/**
 * The whole OAuth flow with a real OAuth client (oauth4webapi) against the started service, the
 * sign-in / team / consent / account pages driven in headless Chromium (JavaScript off, as the
 * pages need none): discovery from the 401 of /v2/mcp-oauth (RFC 6750 §3 resource_metadata →
 * RFC 9728 → authorization_servers → RFC 8414) → RFC 7591 registration → authorization request
 * (PKCE S256, state, RFC 8707 resource) → code on a loopback redirect URI (RFC 8252 §7.3) with iss
 * (RFC 9207) → token exchange → MCP tools/list with the MCP SDK client → refresh rotation and its
 * grace window → revocation from /account → 401 invalid_token.
 *
 * The OAuth clock is the test's (startService's `oauthNow`), so "31 seconds later" is instant.
 * The Client ID Metadata Document variant of this flow is in e2e-cimd.test.ts (it needs the
 * service in its own process, see there).
 */
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp } from '../mcp/helpers.ts';
import { createUser } from './authorize-helpers.ts';
import { approveInBrowser, challengeOf, launchChromium, revokeInAccountPage, startCallback, type Callback } from './e2e-helpers.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const EMAIL = 'erin@example.com';
const CLIENT_NAME = 'E2E oauth4webapi client';

let service: TestService;
let browser: Browser;
let context: BrowserContext;
let callback: Callback;
let clock = Date.now();

function advance(seconds: number): void {
  clock += seconds * 1000;
}

beforeAll(async () => {
  [service, browser, callback] = await Promise.all([
    startTestService({ oauthNow: () => new Date(clock), runner: async () => Promise.reject(new Error('no parse in this test')) }),
    launchChromium(),
    startCallback(),
  ]);
  await createUser(service, EMAIL, ['e2e-red', 'e2e-blue']);
  context = await browser.newContext({ javaScriptEnabled: false });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await callback?.close();
  await service?.stop();
});

/** tools/list with the MCP SDK client and `Authorization: Bearer <token>`. */
async function toolNames(url: string, bearer: string): Promise<string[]> {
  const client = await connectMcp(url, { authorization: `Bearer ${bearer}` });
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

/** What a protected-resource request with `token` gets back: the oauth4webapi view of a 401. */
async function refusal(resourceUrl: string, token: string): Promise<{ status: number; error: string | undefined }> {
  const challenge = await challengeOf(resourceUrl, token);
  return { status: challenge.status, error: challenge.params.error };
}

describe('oauth4webapi through the whole flow, pages in Chromium', () => {
  it('discovers, registers, authorizes, exchanges, calls MCP, rotates refresh tokens, and is revoked from /account', async () => {
    const resourceUrl = `${service.urls.mcp}/v2/mcp-oauth`;

    // 1. Discovery, starting from nothing but the MCP URL: its 401 names the RFC 9728 document.
    const first = await challengeOf(resourceUrl);
    expect(first.status).toBe(401);
    expect(first.scheme).toBe('Bearer');
    const resourceMetadataUrl = first.params.resource_metadata ?? '';
    expect(resourceMetadataUrl).toBe(`${service.urls.mcp}/.well-known/oauth-protected-resource/v2/mcp-oauth`);
    const prDiscovery = await oauth.resourceDiscoveryRequest(new URL(resourceUrl), insecure);
    expect(prDiscovery.url).toBe(resourceMetadataUrl);
    const rs = await oauth.processResourceDiscoveryResponse(new URL(resourceUrl), prDiscovery);
    expect(rs.resource).toBe(resourceUrl);
    const issuer = new URL(rs.authorization_servers?.[0] ?? 'http://missing.invalid');
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);

    // 2. RFC 7591 registration of a public client with a loopback redirect URI (any port at use).
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: CLIENT_NAME, redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, insecure),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
    expect(registered.client_id).toMatch(/^dcr_/);

    // 3. Authorization request; sign in, pick a team and approve in the browser.
    async function authorize(team: string): Promise<{ access: string; refresh: string }> {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint ?? '');
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: callback.redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        resource: resourceUrl,
        scope: 'mcp',
      }).toString();
      const landed = await approveInBrowser(context, url.href, { email: EMAIL, team, clientName: CLIENT_NAME });
      expect(callback.received.filter((u) => u.pathname === '/cb').at(-1)?.href).toBe(new URL(`${landed.pathname}${landed.search}`, 'http://127.0.0.1').href);
      // 4. The code, checked for state and iss, exchanged with the verifier and the resource.
      const params = oauth.validateAuthResponse(as, client, landed, state);
      const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callback.redirectUri, verifier, { additionalParameters: { resource: resourceUrl }, ...insecure });
      const result = await oauth.processAuthorizationCodeResponse(as, client, response);
      expect(result.token_type).toBe('bearer');
      expect(result.scope).toBe('mcp');
      return { access: result.access_token, refresh: result.refresh_token ?? '' };
    }
    const t1 = await authorize('e2e-blue');
    const claims = JSON.parse(Buffer.from(t1.access.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ aud: resourceUrl, iss: service.urls.base, client_id: client.client_id, team_id: (await service.store.findTeamByName('e2e-blue'))?.id });

    // 5. An MCP call with the MCP SDK client: the whole keyed tool set, as with an API key.
    const keyed = await toolNames(`${service.url}/v2/mcp`, service.key);
    expect(keyed).toEqual(expect.arrayContaining(['parse', 'scrape', 'map', 'crawl', 'crawl_status']));
    expect(await toolNames(resourceUrl, t1.access)).toEqual(keyed);

    // 6. Refresh: rotated; the new pair works.
    const refresh = async (token: string) => oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, insecure));
    const t2 = await refresh(t1.refresh);
    expect(t2.refresh_token).toBeDefined();
    expect(t2.refresh_token).not.toBe(t1.refresh);
    expect(await toolNames(resourceUrl, t2.access_token)).toEqual(keyed);
    // Within the 30 s grace window the old refresh token still works (another new token).
    advance(20);
    const t3 = await refresh(t1.refresh);
    expect(new Set([t1.refresh, t2.refresh_token, t3.refresh_token]).size).toBe(3);
    expect(await toolNames(resourceUrl, t3.access_token)).toEqual(keyed);
    // After it: reuse is theft; invalid_grant, and the whole connection is revoked.
    advance(11);
    await expect(refresh(t1.refresh)).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });
    expect(await refusal(resourceUrl, t2.access_token)).toEqual({ status: 401, error: 'invalid_token' });
    expect(await refusal(resourceUrl, t3.access_token)).toEqual({ status: 401, error: 'invalid_token' });
    await expect(refresh(t3.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });

    // 7. Connect again (the browser session is still signed in), then revoke from /account.
    const t4 = await authorize('e2e-red');
    expect(await toolNames(resourceUrl, t4.access)).toEqual(keyed);
    const accountText = await revokeInAccountPage(context, service.url, CLIENT_NAME, 'e2e-red');
    expect(accountText).toContain('No application is connected to your account.');
    expect(await refusal(resourceUrl, t4.access)).toEqual({ status: 401, error: 'invalid_token' });
    await expect(refresh(t4.refresh)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The 401 is what oauth4webapi reports as a WWW-Authenticate challenge too.
    const challenged = await oauth
      .protectedResourceRequest(t4.access, 'POST', new URL(resourceUrl), new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), insecure)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(challenged).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((challenged as oauth.WWWAuthenticateChallengeError).cause[0]?.parameters.error).toBe('invalid_token');
  }, 30_000);
});
