/**
 * Helpers of the end-to-end OAuth tests: headless Debian Chromium (playwright-core), a loopback
 * "client" callback server that records where the browser landed, the sign-in / team / consent
 * pages driven like a person would, and the 401 challenge of the protected resource.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { request } from '../http/helpers.ts';
import { MCP_HEADERS } from '../mcp/helpers.ts';
import { PASSWORD } from './authorize-helpers.ts';

export { launchChromium } from '../helpers/chromium.ts';

/** A native client's loopback redirect listener (RFC 8252 §7.3): records every URL it was sent to. */
export interface Callback {
  port: number;
  /** `http://127.0.0.1:{port}/cb` */
  redirectUri: string;
  received: URL[];
  close(): Promise<void>;
}

export async function startCallback(): Promise<Callback> {
  const received: URL[] = [];
  const server = http.createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    redirectUri: `http://127.0.0.1:${port}/cb`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Opens the authorization URL in `context` and goes through the pages: signs in when asked,
 * picks `team` when asked, checks the consent page names the client and team, approves, and
 * returns the full URL the browser landed on (the client's redirect URI with code, state, iss).
 */
export async function approveInBrowser(context: BrowserContext, authorizationUrl: string, who: { email: string; team: string; clientName: string }): Promise<URL> {
  const page = await context.newPage();
  try {
    await page.goto(authorizationUrl);
    if ((await page.title()).startsWith('Sign in')) {
      await page.getByLabel('Email').fill(who.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState();
    }
    if ((await page.title()).startsWith('Choose a team')) {
      await page.getByLabel(who.team).check();
      await page.getByRole('button', { name: 'Continue' }).click();
    }
    await page
      .getByRole('heading', { name: 'Allow access?' })
      .waitFor({ timeout: 5_000 })
      .catch(async (err: unknown) => {
        throw new Error(`no consent page; the browser shows ${page.url()}:\n${(await page.textContent('body')) ?? ''}`, { cause: err });
      });
    const text = (await page.textContent('main')) ?? '';
    if (!text.includes(who.clientName) || !text.includes(who.team)) throw new Error(`the consent page does not name ${who.clientName} and ${who.team}:\n${text}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.pathname === '/cb', { timeout: 5_000 });
    return new URL(page.url());
  } finally {
    await page.close();
  }
}

/** Opens /account in `context` (signed in), clicks Revoke on the connection of `clientName`, and returns the notice shown. */
export async function revokeInAccountPage(context: BrowserContext, base: string, clientName: string, team: string): Promise<string> {
  const page = await context.newPage();
  try {
    await page.goto(`${base}/account`);
    await page.getByRole('heading', { name: 'MCP connections' }).waitFor({ timeout: 5_000 });
    await page.getByRole('button', { name: `Revoke ${clientName} (${team})` }).click();
    await page.getByRole('heading', { name: 'MCP connections' }).waitFor({ timeout: 5_000 });
    return (await page.textContent('main')) ?? '';
  } finally {
    await page.close();
  }
}

/** The RFC 6750 §3 challenge of an unauthenticated request to the protected resource, as parameters. */
export async function challengeOf(resourceUrl: string, accessToken?: string): Promise<{ status: number; scheme: string; params: Record<string, string> }> {
  const res = await request(resourceUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
    body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
  });
  const header = String(res.headers['www-authenticate'] ?? '');
  const scheme = header.split(' ')[0] ?? '';
  const params: Record<string, string> = {};
  for (const m of header.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) params[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, '$1');
  return { status: res.status, scheme, params };
}
