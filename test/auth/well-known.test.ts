/**
 * The discovery documents over HTTP from a started service: RFC 9728 protected-resource metadata
 * for `{mcp_url}/v2/mcp-oauth` and the JWKS, without a credential, with URLs from configuration
 * (never from the Host header), CORS for browser clients and caching headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { protectedResourceMetadataUrl } from '../../.well-known/urls.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';

const PUBLIC_URL = 'https://folio.example.com';
const MCP_URL = 'https://mcp.example.com/tools';
const RESOURCE = `${MCP_URL}/v2/mcp-oauth`;
const PRM_PATH = '/.well-known/oauth-protected-resource/v2/mcp-oauth';

/** These tests never parse: no worker pool (it takes seconds to load every reader). */
const noParsing = { runner: () => Promise.reject(new Error('the well-known tests do not parse')) };

let service: TestService;
let plain: TestService;

beforeAll(async () => {
  [service, plain] = await Promise.all([
    startTestService(noParsing, { FOLIO_PUBLIC_URL: PUBLIC_URL, FOLIO_MCP_URL: MCP_URL, FOLIO_RESOURCE_DOCUMENTATION_URL: 'https://docs.example.com/mcp' }),
    startTestService(noParsing),
  ]);
});

afterAll(async () => {
  await Promise.all([service?.stop(), plain?.stop()]);
});

describe('GET /.well-known/oauth-protected-resource/v2/mcp-oauth', () => {
  it('serves the RFC 9728 document from configuration, whatever the Host header says', async () => {
    const res = await request(`${service.url}${PRM_PATH}`, { headers: { host: 'attacker.example:666', 'x-forwarded-host': 'attacker.example' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    expect(res.json).toEqual({
      resource: RESOURCE,
      authorization_servers: [PUBLIC_URL],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp'],
      resource_name: 'folio MCP tool server',
      resource_documentation: 'https://docs.example.com/mcp',
    });
    expect(res.text).not.toContain('attacker');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('is also served at the path RFC 9728 §3.1 derives from the resource, which 401 challenges point at', async () => {
    const metadataUrl = new URL(protectedResourceMetadataUrl(RESOURCE));
    expect(metadataUrl.pathname).toBe('/.well-known/oauth-protected-resource/tools/v2/mcp-oauth');
    const res = await request(`${service.url}${metadataUrl.pathname}`);
    expect(res.status).toBe(200);
    expect(res.json.resource).toBe(RESOURCE);
  });

  it('needs no credential, and an invalid one does not matter', async () => {
    const res = await request(`${service.url}${PRM_PATH}`, { headers: { authorization: 'Bearer folio_not-a-real-key' } });
    expect(res.status).toBe(200);
    expect(res.json.resource).toBe(RESOURCE);
  });

  it('answers CORS preflights for browser-based clients', async () => {
    const res = await request(`${service.url}${PRM_PATH}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('GET');
    expect(res.headers['access-control-allow-headers']).toBe('*');
  });

  it('without configured URLs, uses the listening address and omits resource_documentation', async () => {
    const res = await request(`${plain.url}${PRM_PATH}`, { headers: { host: 'attacker.example' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      resource: `${plain.url}/v2/mcp-oauth`,
      authorization_servers: [plain.url],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp'],
      resource_name: 'folio MCP tool server',
    });
  });

  it('other methods and other well-known paths are not found, in the spec error shape', async () => {
    const post = await request(`${service.url}${PRM_PATH}`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(post.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const other = await request(`${service.url}/.well-known/oauth-protected-resource/v2/mcp`);
    expect(other.status).toBe(404);
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes the public keys that verify the service’s access tokens', async () => {
    const team = await service.store.ensureTeam('jwks-team');
    const grant = await service.store.createOAuthGrant({ clientId: 'c', teamId: team.id, scope: 'mcp', resource: '/v2/mcp-oauth' });
    const { access_token } = await service.tokens.issue(grant);

    const res = await request(`${service.url}/.well-known/jwks.json`, { headers: { host: 'attacker.example' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/jwk-set\+json\b/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const set = res.json as unknown as JSONWebKeySet;
    expect(set.keys).toHaveLength(1);
    expect(set.keys[0]).not.toHaveProperty('d');

    const { payload, protectedHeader } = await jwtVerify(access_token, createLocalJWKSet(set), { issuer: PUBLIC_URL, audience: RESOURCE, typ: 'at+jwt' });
    expect(protectedHeader.kid).toBe(set.keys[0]?.kid);
    expect(payload.grant_id).toBe(grant.id);
    expect(await service.tokens.verify(access_token, '/v2/mcp-oauth')).toMatchObject({ ok: true, claims: { teamName: 'jwks-team', audience: RESOURCE } });
  });
});
