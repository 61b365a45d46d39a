/**
 * Client ID Metadata Documents, resolved by the ClientRegistry through the real SSRF-protected
 * Fetcher from a local HTTPS server (a self-signed certificate made with `openssl` here).
 *
 * Why this level and not a started service: no HTTP route resolves a client yet (the
 * authorization endpoint comes later), and the client_id must be an https URL while the Fetcher
 * refuses loopback unless FOLIO_FETCH_ALLOW names it. So the registry gets the real Fetcher with
 * `localhost` allowlisted, wrapped to set `skipTlsVerification` (the only test-made change: the
 * certificate is self-signed), and a real SQLite store. A second registry, whose Fetcher has no
 * allowlist, shows the SSRF rule applies to client_id URLs. A clock is injected to test caching.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientRegistry, OAuthClientError, type ClientRegistry } from '../../auth/clients.ts';
import { cacheLifetimeSeconds, isClientIdMetadataDocumentUrl } from '../../auth/client-metadata-document.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { Store } from '../../src/store/types.ts';
import { createFetcher, type ClosableFetcher } from '../../src/web/fetch/fetcher.ts';

interface Served {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

const routes = new Map<string, Served>();
const hits = new Map<string, number>();
let server: https.Server;
let origin: string;
let dir: string;
let store: Store;
let fetcher: ClosableFetcher;
let strictFetcher: ClosableFetcher;
let clock = Date.parse('2030-01-01T00:00:00Z');
let registry: ClientRegistry;

function serve(pathname: string, doc: Served): string {
  routes.set(pathname, doc);
  return `${origin}${pathname}`;
}

function document(clientId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ client_id: clientId, client_name: 'CIMD app', redirect_uris: ['http://127.0.0.1/callback', 'https://app.example/cb'], token_endpoint_auth_method: 'none', ...extra });
}

/** Serves a document whose client_id is its own URL. */
function serveDocument(pathname: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): string {
  const url = `${origin}${pathname}`;
  return serve(pathname, { body: document(url, extra), headers });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-cimd-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
  server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
    const pathname = req.url ?? '/';
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const doc = routes.get(pathname);
    if (!doc) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(doc.status ?? 200, { 'content-type': 'application/json', ...doc.headers }).end(doc.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  store = openSqliteStore(path.join(dir, 'data'));
  fetcher = createFetcher({ allow: ['localhost'] });
  strictFetcher = createFetcher({ allow: [] });
  registry = createClientRegistry({
    store,
    fetcher: { fetch: (req) => fetcher.fetch({ ...req, skipTlsVerification: true }) },
    now: () => new Date(clock),
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await fetcher?.close();
  await strictFetcher?.close();
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function refusal(clientId: string, using: ClientRegistry = registry): Promise<string> {
  const err: unknown = await using.resolve(clientId).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OAuthClientError);
  expect((err as OAuthClientError).error).toBe('invalid_client');
  return (err as OAuthClientError).message;
}

describe('Client ID Metadata Documents', () => {
  it('resolves a document that allows none as a public client, with the allowed redirect URIs', async () => {
    const id = serveDocument('/clients/good.json', { redirect_uris: ['http://127.0.0.1/callback', 'https://app.example/cb', 'http://evil.example/cb'], client_uri: 'https://app.example' });
    const client = await registry.resolve(id);
    expect(client).toEqual({
      clientId: id,
      kind: 'cimd',
      clientName: 'CIMD app',
      clientUri: 'https://app.example',
      redirectUris: ['http://127.0.0.1/callback', 'https://app.example/cb'],
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'none',
    });
  });

  it('caches per Cache-Control max-age: no request within it, a new one after', async () => {
    const id = serveDocument('/clients/cached.json', {}, { 'cache-control': 'public, max-age=600' });
    await registry.resolve(id);
    expect(hits.get('/clients/cached.json')).toBe(1);
    clock += 599_000;
    expect((await registry.resolve(id)).clientName).toBe('CIMD app');
    expect(hits.get('/clients/cached.json')).toBe(1);
    serveDocument('/clients/cached.json', { client_name: 'Renamed' }, { 'cache-control': 'max-age=600' });
    clock += 2_000;
    expect((await registry.resolve(id)).clientName).toBe('Renamed');
    expect(hits.get('/clients/cached.json')).toBe(2);
  });

  it('bounds the cache lifetime: max-age=0 and no-store still keep it a minute, a year at most a day', async () => {
    const id = serveDocument('/clients/short.json', {}, { 'cache-control': 'no-store' });
    await registry.resolve(id);
    clock += 59_000;
    await registry.resolve(id);
    expect(hits.get('/clients/short.json')).toBe(1);
    clock += 2_000;
    await registry.resolve(id);
    expect(hits.get('/clients/short.json')).toBe(2);
    expect(cacheLifetimeSeconds('max-age=0')).toBe(60);
    expect(cacheLifetimeSeconds('max-age=31536000')).toBe(86_400);
    expect(cacheLifetimeSeconds(undefined)).toBe(300);
    expect(cacheLifetimeSeconds('public, MAX-AGE=900')).toBe(900);
  });

  it('shares one fetch between parallel resolves of the same client', async () => {
    const id = serveDocument('/clients/parallel.json');
    const clients = await Promise.all([registry.resolve(id), registry.resolve(id), registry.resolve(id)]);
    expect(new Set(clients.map((c) => c.clientId))).toEqual(new Set([id]));
    expect(hits.get('/clients/parallel.json')).toBe(1);
  });

  it('refuses a document whose client_id is not exactly its URL', async () => {
    const id = `${origin}/clients/mismatch.json`;
    serve('/clients/mismatch.json', { body: document(`${origin}/clients/other.json`) });
    expect(await refusal(id)).toMatch(/names '.*other\.json' as its client_id; it must equal the document's URL exactly/);
    serve('/clients/mismatch.json', { body: document(`${id}?`) });
    expect(await refusal(id)).toMatch(/must equal/);
    serve('/clients/mismatch.json', { body: JSON.stringify({ redirect_uris: ['https://a.example/cb'] }) });
    expect(await refusal(id)).toMatch(/names no client_id/);
  });

  it('refuses a document that allows only private_key_jwt, with a clear error', async () => {
    const id = serveDocument('/clients/jwt.json', { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://app.example/jwks' });
    const message = await refusal(id);
    expect(message).toMatch(/private_key_jwt/);
    expect(message).toMatch(/public clients only/);
    expect(message).toContain(id);
  });

  it('refuses secrets, client_secret auth and documents without an allowed redirect URI', async () => {
    expect(await refusal(serveDocument('/clients/secret.json', { client_secret: 'x' }))).toMatch(/client_secret/);
    expect(await refusal(serveDocument('/clients/basic.json', { token_endpoint_auth_method: 'client_secret_basic' }))).toMatch(/client_secret_basic/);
    expect(await refusal(serveDocument('/clients/no-uris.json', { redirect_uris: ['http://evil.example/cb'] }))).toMatch(/None of the redirect_uris is allowed/);
  });

  it('refuses what cannot be fetched: 404, redirects, over 64 KB, not JSON', async () => {
    expect(await refusal(`${origin}/clients/missing.json`)).toMatch(/HTTP 404/);
    const redirecting = serve('/clients/redirect.json', { status: 302, headers: { location: '/clients/good.json' }, body: '' });
    expect(await refusal(redirecting)).toMatch(/redirects elsewhere/);
    expect(hits.get('/clients/good.json')).toBe(1);
    const big = `${origin}/clients/big.json`;
    serve('/clients/big.json', { body: document(big, { client_name: 'x'.repeat(70 * 1024) }) });
    expect(await refusal(big)).toMatch(/larger than 64 KB/);
    const html = serve('/clients/html.json', { body: '<html>hi</html>' });
    expect(await refusal(html)).toMatch(/not valid JSON/);
  });

  it('does not cache a refusal: a fixed document is used on the next resolve', async () => {
    const id = `${origin}/clients/fixed.json`;
    serve('/clients/fixed.json', { body: document(`${origin}/clients/wrong.json`) });
    await refusal(id);
    serveDocument('/clients/fixed.json');
    expect((await registry.resolve(id)).clientId).toBe(id);
  });

  it('fetches through the SSRF rules: a loopback client_id not in FOLIO_FETCH_ALLOW is refused unfetched', async () => {
    const id = serveDocument('/clients/ssrf.json');
    const strict = createClientRegistry({ store, fetcher: strictFetcher });
    expect(await refusal(id, strict)).toMatch(/FOLIO_FETCH_ALLOW/);
    expect(hits.get('/clients/ssrf.json')).toBeUndefined();
  });

  it('only takes https URLs with a path as metadata document client_ids', async () => {
    expect(isClientIdMetadataDocumentUrl('https://app.example/client.json')).toBe(true);
    expect(isClientIdMetadataDocumentUrl('https://app.example:8443/oauth/client?v=1')).toBe(true);
    for (const bad of ['https://app.example', 'https://app.example/', 'http://app.example/client.json', 'https://app.example/a/../client.json', 'https://app.example/./c', 'https://app.example/%2e%2e/c', 'https://u:p@app.example/c', 'https://app.example/c#x', 'dcr_abc']) {
      expect(isClientIdMetadataDocumentUrl(bad), bad).toBe(false);
    }
    expect(await refusal('https://app.example/a/../client.json')).toMatch(/https URL with a path/);
  });
});
