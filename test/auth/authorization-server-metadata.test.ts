/**
 * RFC 8414 authorization-server metadata from a started service: every field, absolute URLs from
 * configuration (a foreign Host header is ignored), the RFC 8414 §3.1 path for an issuer with a
 * path, FOLIO_AUTH_METADATA_URL, and agreement with the RFC 9728 document. Read by oauth4webapi,
 * a real OAuth client, too.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type TestService } from '../http/helpers.ts';

const PUBLIC_URL = 'https://folio.example.com';
const ASM_PATH = '/.well-known/oauth-authorization-server';

const noParsing = { runner: () => Promise.reject(new Error('the metadata tests do not parse')) };

let service: TestService;
let prefixed: TestService;
let plain: TestService;

beforeAll(async () => {
  [service, prefixed, plain] = await Promise.all([
    startTestService(noParsing, { FOLIO_PUBLIC_URL: PUBLIC_URL, FOLIO_MCP_URL: 'https://mcp.example.com' }),
    startTestService(noParsing, { FOLIO_PUBLIC_URL: 'https://h.example.com/folio', FOLIO_AUTH_METADATA_URL: 'https://h.example.com/auth/meta.json' }),
    startTestService(noParsing),
  ]);
});

afterAll(async () => {
  await Promise.all([service?.stop(), prefixed?.stop(), plain?.stop()]);
});

function expectedMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: ['mcp'],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

describe('GET /.well-known/oauth-authorization-server', () => {
  it('serves exactly the RFC 8414 fields, absolute, from configuration whatever the Host header says', async () => {
    const res = await request(`${service.url}${ASM_PATH}`, { headers: { host: 'attacker.example:666', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'http' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    expect(res.json).toEqual(expectedMetadata(PUBLIC_URL));
    expect(res.text).not.toContain('attacker');
    for (const [field, value] of Object.entries(res.json)) {
      if (field.endsWith('_endpoint') || field === 'jwks_uri' || field === 'issuer') expect(new URL(String(value)).origin).toBe(PUBLIC_URL);
    }
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('names the issuer the RFC 9728 document lists in authorization_servers', async () => {
    const [asm, prm] = await Promise.all([
      request(`${service.url}${ASM_PATH}`),
      request(`${service.url}/.well-known/oauth-protected-resource/v2/mcp-oauth`),
    ]);
    expect(prm.json.authorization_servers).toEqual([asm.json.issuer]);
    const [asmPlain, prmPlain] = await Promise.all([request(`${plain.url}${ASM_PATH}`), request(`${plain.url}/.well-known/oauth-protected-resource/v2/mcp-oauth`)]);
    expect(prmPlain.json.authorization_servers).toEqual([asmPlain.json.issuer]);
  });

  it('without configured URLs, uses the listening address, not the Host header', async () => {
    const res = await request(`${plain.url}${ASM_PATH}`, { headers: { host: 'attacker.example' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expectedMetadata(plain.url));
  });

  it('for an issuer with a path, is served at the RFC 8414 §3.1 path and at FOLIO_AUTH_METADATA_URL too', async () => {
    const issuer = 'https://h.example.com/folio';
    for (const path of [`${ASM_PATH}/folio`, ASM_PATH, '/auth/meta.json']) {
      const res = await request(`${prefixed.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.json, path).toEqual(expectedMetadata(issuer));
    }
    const miss = await request(`${prefixed.url}${ASM_PATH}/other`);
    expect(miss.status).toBe(404);
  });

  it('answers CORS preflights', async () => {
    const res = await request(`${service.url}${ASM_PATH}`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('is accepted by oauth4webapi discovery (issuer check included)', async () => {
    const issuer = new URL(plain.url);
    const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true });
    const as = await oauth.processDiscoveryResponse(issuer, response);
    expect(as.issuer).toBe(plain.url);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.registration_endpoint).toBe(`${plain.url}/oauth/register`);
  });
});
