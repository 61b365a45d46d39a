/**
 * The tool server over Streamable HTTP, against the started service: auth paths, the keyless
 * surface, the legacy path (its key never logged), the /v2/mcp-oauth challenge, transport
 * hygiene (Origin, Host, sessions, methods, body size).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { corpusPath } from '../helpers/corpus.ts';
import { sh } from '../uploads/helpers.ts';
import { startFakeSearxng, type FakeServer } from '../web/fake-searxng.ts';
import { postParse, request, startTestService, upload, type TestService } from '../http/helpers.ts';
import { connectMcp, INITIALIZE, MCP_HEADERS, structuredOf, textOf } from './helpers.ts';

let service: TestService;
let searxng: FakeServer;

beforeAll(async () => {
  // A search backend is configured (a local stand-in speaking SearXNG's JSON), as in a deployment
  // that offers search: the `search` tool is listed only then.
  searxng = await startFakeSearxng();
  service = await startTestService({}, { FOLIO_ALLOWED_ORIGINS: 'https://app.example.test', SEARXNG_ENDPOINT: searxng.url });
});
afterAll(async () => {
  await service.stop();
  await searxng.close();
});

/** The spec: without a credential, only Search, Scrape and Parse. */
const KEYLESS_TOOLS = ['parse', 'scrape', 'search'];
const ALL_TOOLS = ['parse', 'scrape', 'map', 'interact', 'interact_stop', 'browser_create', 'browser_execute', 'browser_list', 'browser_delete', 'search', 'crawl', 'crawl_status', 'batch_scrape', 'batch_scrape_status'];

describe('/v2/mcp', () => {
  it('keyless: lists exactly the keyless tools (parse among them)', async () => {
    const client = await connectMcp(`${service.url}/v2/mcp`);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(KEYLESS_TOOLS);
      expect(names).toContain('parse');
      expect(client.getServerVersion()?.name).toBe('folio');
    } finally {
      await client.close();
    }
  });

  it('with an API key: every tool, and the parse schema shows formats and parsers', async () => {
    const client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS);
      const parse = tools.find((t) => t.name === 'parse');
      const props = parse?.inputSchema.properties as Record<string, Record<string, unknown>>;
      expect(Object.keys(props)).toEqual(expect.arrayContaining(['formats', 'parsers', 'redactPII', 'zeroDataRetention', 'filePath', 'uploadRef', 'resultId', 'maxChars', 'offset']));
      expect(JSON.stringify(props.formats)).toContain('"rawHtml"');
      expect(JSON.stringify(props.parsers)).toContain('"ocr"');
      expect(parse?.description).toMatch(/scrape/);
    } finally {
      await client.close();
    }
  });

  it('remote filePath: the upload command, really run, then parse{uploadRef} gives the same markdown as /v2/parse', async () => {
    const file = corpusPath('office', 'docx', 'docling-word_tables.docx');
    const client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
    try {
      const first = await client.callTool({ name: 'parse', arguments: { filePath: file, onlyMainContent: false } });
      expect(first.isError).toBeFalsy();
      const upload1 = structuredOf(first).upload as { command: string; uploadRef: string; uploadUrl: string; expiresAt: string; maxBytes: number };
      const next = structuredOf(first).nextCall as { name: string; arguments: Record<string, unknown> };
      // The command carries no credential of the caller, only the one-time URL.
      expect(upload1.command).not.toContain(service.key);
      expect(upload1.command).toContain(upload1.uploadUrl);
      expect(textOf(first)).toContain(upload1.command);
      expect(next).toEqual({ name: 'parse', arguments: { uploadRef: upload1.uploadRef, onlyMainContent: false } });
      await sh(upload1.command);

      const parsed = await client.callTool(next);
      expect(parsed.isError).toBeFalsy();
      const direct = await postParse(service, upload('docling-word_tables.docx', fs.readFileSync(file), { onlyMainContent: false }));
      expect(direct.status).toBe(200);
      const markdown = String((direct.json.data as Record<string, unknown>).markdown);
      expect(markdown.length).toBeGreaterThan(50);
      expect(textOf(parsed)).toBe(markdown);

      // Single use: the same ref again is refused with a message that says so.
      const again = await client.callTool(next);
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(/already|used/i);
    } finally {
      await client.close();
    }
  });

  it('another team cannot parse an uploadRef it did not ask for', async () => {
    const file = corpusPath('office', 'docx', 'docling-word_tables.docx');
    const other = await service.createKey('other-team');
    const mine = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
    const theirs = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${other.key}` });
    try {
      const first = await mine.callTool({ name: 'parse', arguments: { filePath: file } });
      const ref = (structuredOf(first).upload as { command: string; uploadRef: string });
      await sh(ref.command);
      const stolen = await theirs.callTool({ name: 'parse', arguments: { uploadRef: ref.uploadRef } });
      expect(stolen.isError).toBe(true);
      // The owner still can.
      const own = await mine.callTool({ name: 'parse', arguments: { uploadRef: ref.uploadRef } });
      expect(own.isError).toBeFalsy();
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('keyless: a keyed-only tool is refused with a message that says a key is needed', async () => {
    const client = await connectMcp(`${service.url}/v2/mcp`);
    try {
      const result = await client.callTool({ name: 'crawl', arguments: { url: 'https://example.com/' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/API key/);
      expect(textOf(result)).toMatch(/Authorization: Bearer/);
    } finally {
      await client.close();
    }
  });

  it('a call with an API key records the key\'s use (last_used_at), as /v2 routes do', async () => {
    const fresh = await service.createKey('usage-team');
    expect((await service.store.getApiKey(fresh.id))?.lastUsedAt).toBeNull();
    const client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${fresh.key}` });
    try {
      await client.listTools();
    } finally {
      await client.close();
    }
    const until = Date.now() + 2000;
    while ((await service.store.getApiKey(fresh.id))?.lastUsedAt == null && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect((await service.store.getApiKey(fresh.id))?.lastUsedAt).toEqual(expect.any(String));
  });

  it('an invalid key is a 401 that says so, never a fall back to keyless', async () => {
    for (const authorization of ['Bearer folio_' + 'x'.repeat(43), 'Bearer not-a-key', 'Basic abc', 'Bearer aaa.bbb.ccc']) {
      const res = await request(`${service.url}/v2/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization }, body: Buffer.from(INITIALIZE) });
      expect(res.status, authorization).toBe(401);
      expect(res.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      expect(String(res.json.error)).toMatch(/invalid/i);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    }
    const client = connectMcp(`${service.url}/v2/mcp`, { authorization: 'Bearer folio_wrong' });
    await expect(client).rejects.toThrow(/Invalid API key/);
  });

  it('legacy /{API_KEY}/v2/mcp works and the key never reaches the log', async () => {
    const client = await connectMcp(`${service.url}/${service.key}/v2/mcp`);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    } finally {
      await client.close();
    }
    const bad = await request(`${service.url}/folio_${'y'.repeat(43)}/v2/mcp`, { method: 'POST', headers: MCP_HEADERS, body: Buffer.from(INITIALIZE) });
    expect(bad.status).toBe(401);
    const log = service.logText();
    expect(log).toContain('/[redacted]/v2/mcp');
    expect(log).not.toContain(service.key);
    expect(log).not.toContain(service.key.slice(6));
    expect(log).not.toContain('y'.repeat(43));
  });

  it('a credential in the query string is refused', async () => {
    const res = await request(`${service.url}/v2/mcp?api_key=${service.key}`, { method: 'POST', headers: MCP_HEADERS, body: Buffer.from(INITIALIZE) });
    expect(res.status).toBe(400);
    expect(String(res.json.error)).toMatch(/not accepted in the URL/);
    expect(service.logText()).not.toContain(service.key);
  });
});

describe('/v2/mcp-oauth', () => {
  const metadataUrl = () => `${service.urls.mcp}/.well-known/oauth-protected-resource/v2/mcp-oauth`;

  it('no credential → 401 with an absolute resource_metadata (RFC 9728 §5.1)', async () => {
    const res = await request(`${service.url}/v2/mcp-oauth`, { method: 'POST', headers: MCP_HEADERS, body: Buffer.from(INITIALIZE) });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    expect(metadataUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/v2\/mcp-oauth$/);
    expect(res.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('an invalid or unverifiable token → 401 invalid_token with resource_metadata; an API key is accepted', async () => {
    const res = await request(`${service.url}/v2/mcp-oauth`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' }, body: Buffer.from(INITIALIZE) });
    expect(res.status).toBe(401);
    const challenge = String(res.headers['www-authenticate']);
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/);
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    const client = await connectMcp(`${service.url}/v2/mcp-oauth`, { authorization: `Bearer ${service.key}` });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    } finally {
      await client.close();
    }
  });
});

describe('OAuth access tokens', () => {
  it('a token for /v2/mcp-oauth works there, not on /v2/mcp; a revoked one gets invalid_token', async () => {
    const team = await service.store.ensureTeam('oauth-team');
    const grant = await service.store.createOAuthGrant({ clientId: 'c', teamId: team.id, scope: 'mcp', resource: '/v2/mcp-oauth' });
    const { access_token } = await service.tokens.issue(grant);
    const client = await connectMcp(`${service.url}/v2/mcp-oauth`, { authorization: `Bearer ${access_token}` });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    } finally {
      await client.close();
    }
    const wrong = await request(`${service.url}/v2/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${access_token}` }, body: Buffer.from(INITIALIZE) });
    expect(wrong.status).toBe(401);
    expect(String(wrong.json.error)).toMatch(/^Invalid access token: /);
    expect(wrong.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    await service.store.revokeOAuthGrant(grant.id, new Date());
    const revoked = await request(`${service.url}/v2/mcp-oauth`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${access_token}` }, body: Buffer.from(INITIALIZE) });
    expect(revoked.status).toBe(401);
    expect(revoked.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", .*resource_metadata="http/);
  });
});

describe('transport hygiene', () => {
  const post = (path: string, headers: Record<string, string>) =>
    request(`${service.url}${path}`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: Buffer.from(INITIALIZE) });

  it('a foreign Origin → 403; an allowed one gets CORS headers; preflight', async () => {
    const foreign = await post('/v2/mcp', { origin: 'https://evil.example.test' });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();

    const allowed = await post('/v2/mcp', { origin: 'https://app.example.test' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect(allowed.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);
    expect(allowed.headers['access-control-expose-headers']).toMatch(/Mcp-Session-Id/);

    const own = await post('/v2/mcp', { origin: new URL(service.urls.base).origin });
    expect(own.status).toBe(200);

    const preflight = await request(`${service.url}/v2/mcp-oauth`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization.*MCP-Protocol-Version.*Last-Event-ID/);
    const badPreflight = await request(`${service.url}/v2/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example.test' } });
    expect(badPreflight.status).toBe(403);
  });

  it('DNS rebinding: on a loopback bind, a foreign Host → 403; localhost names pass', async () => {
    const rebound = await post('/v2/mcp', { host: 'attacker.example.test' });
    expect(rebound.status).toBe(403);
    expect(String(rebound.json.error)).toMatch(/Host/);
    const local = await post('/v2/mcp', { host: 'localhost:1234' });
    expect(local.status).toBe(200);
  });

  it('Mcp-Session-Id → 404 (no sessions); GET and DELETE → 405 Allow: POST', async () => {
    const session = await post('/v2/mcp', { 'mcp-session-id': 'abc' });
    expect(session.status).toBe(404);
    expect(session.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    expect(String((session.json.error as { message: string }).message)).toMatch(/[Ss]ession not found.*[Rr]e-initialize/);
    for (const method of ['GET', 'DELETE']) {
      const res = await request(`${service.url}/v2/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toMatch(/POST/);
    }
  });

  it('a body over 4 MB → 413 in the error shape; bad JSON → a JSON-RPC parse error', async () => {
    const big = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4 * 1024 * 1024 + 10) } }));
    const res = await request(`${service.url}/v2/mcp`, { method: 'POST', headers: MCP_HEADERS, body: big });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    const bad = await request(`${service.url}/v2/mcp`, { method: 'POST', headers: MCP_HEADERS, body: Buffer.from('{"jsonrpc":') });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });
});
