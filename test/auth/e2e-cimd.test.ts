/**
 * The start of the end-to-end flow with a Client ID Metadata Document client
 * (draft-ietf-oauth-client-id-metadata-document), up to a successful token exchange with
 * oauth4webapi, the pages driven in headless Chromium.
 *
 * The route to a trusted HTTPS client_id, and why: client_id must be an https URL, so the document
 * is served by a local HTTPS server on `localhost` with an openssl self-signed certificate, and
 * `localhost` is allowlisted with FOLIO_FETCH_ALLOW (the SSRF rule stays on). The service's fetcher
 * verifies certificates against Node's CA store and has no per-request switch for client documents
 * (rightly). Instead of a test-only seam in production code, the service runs the way an operator
 * runs it behind a private CA: `folio serve` in its own process with NODE_EXTRA_CA_CERTS naming the
 * certificate (Node reads that variable only at process start, hence the child process). The user
 * and teams are made with the real CLI (`folio users create`, password on stdin).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testStoreEnv } from '../helpers/test-store.ts';
import { PASSWORD } from './authorize-helpers.ts';
import { approveInBrowser, challengeOf, launchChromium, startCallback, type Callback } from './e2e-helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const EMAIL = 'cimd-user@example.com';
const CLIENT_NAME = 'E2E CIMD client';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let dir: string;
let docServer: https.Server;
let clientId: string;
let documentHits = 0;
let child: ChildProcessWithoutNullStreams | undefined;
let childOutput = '';
let base: string;
let browser: Browser;
let context: BrowserContext;
let callback: Callback;

/** DATABASE_URL and REDIS_URL in the postgres+redis project (test/helpers/test-store.ts). */
let storeEnv: Record<string, string> = {};

function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: path.join(dir, 'data'), ...storeEnv, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', FOLIO_MAX_CONCURRENT_PARSES: '1', FOLIO_FETCH_ALLOW: 'localhost', NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') };
}

/** `folio users create` as an operator runs it: the password on stdin, never an argument. */
function createUserWithCli(): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'users', 'create', '--email', EMAIL, '--team', 'cimd-one', '--team', 'cimd-two'], { cwd: root, env: childEnv() });
    let err = '';
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`folio users create exited ${code}: ${err}`))));
    p.stdin.end(`${PASSWORD}\n`);
  });
}

/** `folio serve` in its own process; resolves with its URL from the "listening" log line. */
function startFolio(): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env: childEnv() });
    child = p;
    const timer = setTimeout(() => reject(new Error(`folio serve did not start within 60 s:\n${childOutput}`)), 60_000);
    const onData = (c: Buffer) => {
      childOutput += c.toString();
      const m = /folio listening on (http:\/\/[0-9.:]+)/.exec(childOutput);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    p.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`folio serve exited ${code}:\n${childOutput}`));
    });
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-e2e-cimd-'));
  storeEnv = await testStoreEnv(path.join(dir, 'data'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
  docServer = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
    if (req.url !== '/clients/e2e.json') {
      res.writeHead(404).end('not found');
      return;
    }
    documentHits++;
    const doc = { client_id: clientId, client_name: CLIENT_NAME, redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => docServer.listen(0, '127.0.0.1', resolve));
  clientId = `https://localhost:${(docServer.address() as AddressInfo).port}/clients/e2e.json`;
  await createUserWithCli();
  [base, browser, callback] = await Promise.all([startFolio(), launchChromium(), startCallback()]);
  context = await browser.newContext({ javaScriptEnabled: false });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await callback?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise<void>((resolve) => child?.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }
  await new Promise<void>((resolve) => docServer?.close(() => resolve()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 20_000);

it('a Client ID Metadata Document client: discovery, authorize in the browser, token exchange', async () => {
  const resourceUrl = `${base}/v2/mcp-oauth`;
  const challenge = await challengeOf(resourceUrl);
  expect(challenge.status).toBe(401);
  const rs = await oauth.processResourceDiscoveryResponse(new URL(resourceUrl), await oauth.resourceDiscoveryRequest(new URL(resourceUrl), insecure));
  expect(challenge.params.resource_metadata).toBe(`${base}/.well-known/oauth-protected-resource/v2/mcp-oauth`);
  const issuer = new URL(rs.authorization_servers?.[0] ?? 'http://missing.invalid');
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  expect(as.client_id_metadata_document_supported).toBe(true);

  // No registration: the client_id is the document's URL, fetched by folio when first seen.
  const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? '');
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callback.redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: resourceUrl,
  }).toString();
  expect(documentHits).toBe(0);
  // The consent page names the client by the document's client_name.
  const landed = await approveInBrowser(context, url.href, { email: EMAIL, team: 'cimd-two', clientName: CLIENT_NAME });
  expect(documentHits).toBeGreaterThanOrEqual(1);

  const params = oauth.validateAuthResponse(as, client, landed, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callback.redirectUri, verifier, { additionalParameters: { resource: resourceUrl }, ...insecure });
  const result = await oauth.processAuthorizationCodeResponse(as, client, response);
  expect(result.token_type).toBe('bearer');
  expect(result.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const claims = JSON.parse(Buffer.from(result.access_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  expect(claims).toMatchObject({ aud: resourceUrl, iss: base, client_id: clientId });
  // The token is accepted by the protected resource (no challenge).
  expect((await challengeOf(resourceUrl, result.access_token)).status).toBe(200);
}, 30_000);
