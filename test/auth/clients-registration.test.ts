/**
 * RFC 7591 registration over HTTP against a started service (POST /oauth/register): the happy
 * path (201, the RFC 7591 §3.2.1 fields, no secret, no nulls, resolvable afterwards), disallowed
 * redirect URIs dropped and reported, all-invalid and confidential clients refused in the
 * §3.2.2 shape, size limits, the per-IP rate limit, and registration by oauth4webapi.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthClientError } from '../../auth/clients.ts';
import { request, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';

const noParsing = { runner: () => Promise.reject(new Error('the registration tests do not parse')) };

let service: TestService;

beforeAll(async () => {
  // The rate limit has its own test below, with its own service.
  service = await startTestService(noParsing, { FOLIO_OAUTH_REGISTRATIONS_PER_MINUTE: '1000' });
});

afterAll(async () => {
  await service?.stop();
});

function register(body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return request(`${service.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });
}

function expectRfc7591Error(res: RawResponse, status: number, error: string): string {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json).sort()).toEqual(['error', 'error_description']);
  expect(res.json.error).toBe(error);
  expect(typeof res.json.error_description).toBe('string');
  return String(res.json.error_description);
}

describe('POST /oauth/register', () => {
  it('registers a public client: 201, the registered metadata, a random client_id, no secret, no nulls', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await register({
      client_name: 'My MCP client',
      redirect_uris: ['http://127.0.0.1:33418/callback', 'https://app.example.com/oauth/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { client_id, client_id_issued_at, ...rest } = res.json;
    expect(rest).toEqual({
      client_name: 'My MCP client',
      redirect_uris: ['http://127.0.0.1:33418/callback', 'https://app.example.com/oauth/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    expect(client_id).toMatch(/^dcr_[A-Za-z0-9_-]{43}$/);
    expect(client_id_issued_at).toBeGreaterThanOrEqual(before);
    expect(client_id_issued_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(res.text).not.toContain('client_secret');
    expect(res.text).not.toContain('null');

    const client = await service.clients.resolve(String(client_id));
    expect(client).toMatchObject({ clientId: client_id, kind: 'dcr', clientName: 'My MCP client', tokenEndpointAuthMethod: 'none' });
    expect(client.redirectUris).toEqual(rest.redirect_uris);

    const again = await register({ redirect_uris: ['https://app.example.com/oauth/cb'] });
    expect(again.json.client_id).not.toBe(client_id);
    // No client_name given: the field is left out, not null.
    expect('client_name' in again.json).toBe(false);
  });

  it('registers the allowed redirect URIs and says which were dropped and why', async () => {
    const res = await register({
      client_name: 'Mixed',
      redirect_uris: ['http://localhost/cb', 'http://example.com/cb', 'cursor://anysphere/cb', 'https://ok.example/cb#frag', 'http://[::1]:9000/x', 'not a url'],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.redirect_uris).toEqual(['http://localhost/cb', 'http://[::1]:9000/x']);
    const refused = res.json.folio_refused_redirect_uris as { redirect_uri: string; reason: string }[];
    expect(refused.map((r) => r.redirect_uri)).toEqual(['http://example.com/cb', 'cursor://anysphere/cb', 'https://ok.example/cb#frag', 'not a url']);
    expect(refused[0]?.reason).toMatch(/loopback/);
    expect(refused[1]?.reason).toMatch(/'cursor' scheme is not allowed/);
    expect(refused[2]?.reason).toMatch(/fragment/);
    expect(refused[3]?.reason).toMatch(/not an absolute URL/);
    const client = await service.clients.resolve(String(res.json.client_id));
    expect(client.redirectUris).toEqual(['http://localhost/cb', 'http://[::1]:9000/x']);
  });

  it('refuses a registration whose redirect URIs are all disallowed, or missing: 400 invalid_redirect_uri', async () => {
    const all = expectRfc7591Error(await register({ redirect_uris: ['http://example.com/cb', 'myapp:/cb'] }), 400, 'invalid_redirect_uri');
    expect(all).toContain('http://example.com/cb');
    expect(all).toMatch(/https/);
    expectRfc7591Error(await register({ client_name: 'x' }), 400, 'invalid_redirect_uri');
    expectRfc7591Error(await register({ redirect_uris: [] }), 400, 'invalid_redirect_uri');
  });

  it('refuses confidential clients: 400 invalid_client_metadata for any auth method but none, or a secret', async () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'private_key_jwt']) {
      const text = expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: method }), 400, 'invalid_client_metadata');
      expect(text).toContain(method);
      expect(text).toMatch(/public clients only/);
    }
    expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], client_secret: 's3cret' }), 400, 'invalid_client_metadata');
  });

  it('refuses unsupported grant and response types and malformed fields', async () => {
    expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }), 400, 'invalid_client_metadata');
    expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], response_types: ['token'] }), 400, 'invalid_client_metadata');
    expectRfc7591Error(await register({ redirect_uris: 'https://a.example/cb' }), 400, 'invalid_client_metadata');
    expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], client_name: 42 }), 400, 'invalid_client_metadata');
    expectRfc7591Error(await register([1, 2]), 400, 'invalid_client_metadata');
    expectRfc7591Error(await register('{"redirect_uris": ['), 400, 'invalid_client_metadata');
    expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'] }, { 'content-type': 'text/plain' }), 400, 'invalid_client_metadata');
  });

  it('refuses oversized requests: a body over 16 KB (413), too many redirect URIs, a name too long', async () => {
    expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(20_000) }), 413, 'invalid_client_metadata');
    const many = Array.from({ length: 21 }, (_, i) => `https://a.example/cb${i}`);
    expect(expectRfc7591Error(await register({ redirect_uris: many }), 400, 'invalid_client_metadata')).toMatch(/at most 20/);
    expect(expectRfc7591Error(await register({ redirect_uris: ['https://a.example/cb'], client_name: 'n'.repeat(201) }), 400, 'invalid_client_metadata')).toMatch(/at most 200/);
  });

  it('an unknown or malformed client_id does not resolve', async () => {
    await expect(service.clients.resolve('dcr_nope')).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(service.clients.resolve('http://example.com/client.json')).rejects.toBeInstanceOf(OAuthClientError);
    await expect(service.clients.resolve('https://example.com')).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('works with oauth4webapi dynamic registration', async () => {
    const issuer = new URL(service.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }));
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: ['http://127.0.0.1:8765/cb'], token_endpoint_auth_method: 'none', client_name: 'oauth4webapi' },
      { [oauth.allowInsecureRequests]: true },
    );
    const client = await oauth.processDynamicClientRegistrationResponse(response);
    expect(client.client_id).toMatch(/^dcr_/);
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.client_secret).toBeUndefined();
  });
});

describe('POST /oauth/register rate limit', () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService(noParsing, { FOLIO_OAUTH_REGISTRATIONS_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('allows FOLIO_OAUTH_REGISTRATIONS_PER_MINUTE registrations per client IP, then 429 with Retry-After', async () => {
    const body = Buffer.from(JSON.stringify({ redirect_uris: ['https://a.example/cb'] }));
    const post = () => request(`${limited.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (let i = 0; i < 3; i++) expect((await post()).status).toBe(201);
    const res = await post();
    expectRfc7591Error(res, 429, 'too_many_requests');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  });
});
