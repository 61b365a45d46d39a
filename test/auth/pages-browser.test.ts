/**
 * The sign-in, team and consent pages in a real browser (headless Debian Chromium through
 * playwright-core): sign in by label, pick a team with the keyboard, approve, and land on the
 * client's loopback redirect URI with a code, the state and iss. No JavaScript on the pages.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, PASSWORD, pkce, registerClient, startAuthorizeService } from './authorize-helpers.ts';

let s: Awaited<ReturnType<typeof startAuthorizeService>>;
let browser: Browser;
let callback: http.Server;
const received: URL[] = [];

beforeAll(async () => {
  s = await startAuthorizeService();
  callback = http.createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => callback?.close(() => resolve()));
  await s?.service.stop();
});

it('signs in, picks a team, approves, and lands on the redirect URI with a code', async () => {
  const port = (callback.address() as AddressInfo).port;
  const clientId = await registerClient(s.service, ['http://127.0.0.1/cb'], 'Browser Client');
  await createUser(s.service, 'dana@example.com', ['red-team', 'blue-team']);
  const { challenge } = pkce();
  const redirectUri = `http://127.0.0.1:${port}/cb`;
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${s.service.urls.mcp}/v2/mcp-oauth`,
    state: 'browser-state',
  });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(`${s.service.url}/oauth/authorize?${q.toString()}`);
    expect(await page.title()).toBe('Sign in to folio · folio');
    await page.getByLabel('Email').fill('dana@example.com');
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('The email or password is not correct.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');

    await page.getByRole('heading', { name: 'Choose a team' }).waitFor();
    await page.getByLabel('red-team').check();
    await page.getByRole('button', { name: 'Continue' }).focus();
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain('Browser Client');
    expect(text).toContain('red-team');
    expect(text).toContain(`127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.pathname === '/cb');
    expect(await page.title()).toBe('Connected');
  } finally {
    await context.close();
  }
  const landed = received.filter((u) => u.pathname === '/cb').at(-1);
  expect(landed?.pathname).toBe('/cb');
  expect(landed?.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(landed?.searchParams.get('state')).toBe('browser-state');
  expect(landed?.searchParams.get('iss')).toBe(s.service.urls.base);
  const approval = s.codes.approvals.at(-1);
  expect(approval?.teamId).toBe((await s.service.store.findTeamByName('red-team'))?.id);
  expect(approval?.redirectUri).toBe(redirectUri);
}, 60_000);
