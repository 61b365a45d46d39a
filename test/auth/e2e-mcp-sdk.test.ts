/**
 * The MCP SDK client's own OAuth support end to end against /v2/mcp-oauth: an OAuthClientProvider
 * kept in memory (client information, tokens, PKCE verifier), whose redirectToAuthorization drives
 * headless Chromium through sign-in / team / consent and captures the code from the loopback
 * redirect. The SDK does discovery (RFC 9728 from the 401, RFC 8414), registration (RFC 7591),
 * PKCE and the resource parameter itself; connect throws UnauthorizedError, finishAuth(code)
 * exchanges the code, and a reconnect lists the tools and runs `parse` through the upload flow.
 */
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.ts';
import { postParse, startTestService, upload, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { sh } from '../uploads/helpers.ts';
import { createUser } from './authorize-helpers.ts';
import { approveInBrowser, launchChromium, startCallback, type Callback } from './e2e-helpers.ts';

const EMAIL = 'mcp-sdk@example.com';
const CLIENT_NAME = 'E2E MCP SDK client';
const TEAM = 'sdk-green';

let service: TestService;
let browser: Browser;
let context: BrowserContext;
let callback: Callback;

beforeAll(async () => {
  [service, browser, callback] = await Promise.all([startTestService(), launchChromium(), startCallback()]);
  await createUser(service, EMAIL, ['sdk-amber', TEAM]);
  context = await browser.newContext({ javaScriptEnabled: false });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await callback?.close();
  await service?.stop();
});

/** An in-memory OAuthClientProvider whose "user agent" is the headless browser. */
class BrowserOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  readonly authorizationUrls: URL[] = [];
  /** The code the browser brought back to the redirect URI. */
  code: string | undefined;
  private readonly expectedState = `sdk-${Date.now()}`;

  constructor(private readonly redirect: string) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: CLIENT_NAME, redirect_uris: [this.redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.info;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    const landed = await approveInBrowser(context, authorizationUrl.href, { email: EMAIL, team: TEAM, clientName: CLIENT_NAME });
    if (landed.searchParams.get('state') !== this.expectedState) throw new Error(`state mismatch on ${landed.pathname}`);
    if (landed.searchParams.get('iss') !== service.urls.base) throw new Error('iss missing or wrong on the redirect');
    this.code = landed.searchParams.get('code') ?? undefined;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

it('connects with the SDK OAuth provider: UnauthorizedError → browser consent → finishAuth → tools/list and parse', async () => {
  const mcpUrl = new URL(`${service.urls.mcp}/v2/mcp-oauth`);
  const provider = new BrowserOAuthProvider(callback.redirectUri);

  // First connect: no token → 401 → the SDK discovers, registers, and sends the user to authorize.
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: 'folio-e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.info?.client_id).toMatch(/^dcr_/);
  expect(provider.authorizationUrls).toHaveLength(1);
  const asked = provider.authorizationUrls[0]?.searchParams;
  expect(asked?.get('code_challenge_method')).toBe('S256');
  expect(asked?.get('resource')).toBe(mcpUrl.href);
  expect(provider.code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(provider.saved).toBeUndefined();

  // The code comes back: the SDK exchanges it (PKCE verifier, resource) and keeps the tokens.
  await first.finishAuth(provider.code ?? '');
  expect(provider.saved?.token_type.toLowerCase()).toBe('bearer');
  expect(provider.saved?.refresh_token).toBeTruthy();
  const claims = JSON.parse(Buffer.from(provider.saved?.access_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  expect(claims.aud).toBe(mcpUrl.href);
  expect(claims.team_id).toBe((await service.store.findTeamByName(TEAM))?.id);

  // Reconnect with the same provider: the whole keyed tool set, as an API key sees it.
  const client = new Client({ name: 'folio-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const keyedClient = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
  try {
    const keyed = (await keyedClient.listTools()).tools.map((t) => t.name);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(keyed).toEqual(expect.arrayContaining(['parse', 'scrape', 'map', 'crawl', 'crawl_status']));
    expect(names).toEqual(keyed);

    // parse through the remote upload flow: filePath → one-time upload command → parse{uploadRef}.
    const file = corpusPath('office', 'docx', 'docling-word_tables.docx');
    const asked1 = await client.callTool({ name: 'parse', arguments: { filePath: file } });
    expect(asked1.isError, textOf(asked1)).toBeFalsy();
    const uploadInfo = structuredOf(asked1).upload as { command: string };
    const next = structuredOf(asked1).nextCall as { name: string; arguments: Record<string, unknown> };
    expect(uploadInfo.command).not.toContain(provider.saved?.access_token ?? '<none>');
    await sh(uploadInfo.command);
    const parsed = await client.callTool(next);
    expect(parsed.isError, textOf(parsed)).toBeFalsy();
    const direct = await postParse(service, upload('docling-word_tables.docx', fs.readFileSync(file)));
    expect(direct.status).toBe(200);
    const markdown = String((direct.json.data as Record<string, unknown>).markdown);
    expect(markdown.length).toBeGreaterThan(50);
    expect(textOf(parsed)).toBe(markdown);
  } finally {
    await client.close();
    await keyedClient.close();
  }
  // One sign-in round trip for the whole session: the reconnect used the saved token.
  expect(provider.authorizationUrls).toHaveLength(1);
}, 30_000);
