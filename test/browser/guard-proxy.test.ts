/**
 * The browser's guarded forward proxy on its own, spoken to the way Chromium speaks to it (no
 * browser here): plain absolute-form GET, CONNECT tunnels and an absolute-form WebSocket upgrade.
 * Allowed targets are forwarded; loopback, private, metadata addresses, and names whose answer
 * holds one (checked in the lookup the socket itself uses), are refused with 403 and counted.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_HEADER, startGuardProxy, type GuardProxy } from '../../src/browser/index.ts';
import type { LookupFunction } from '../../src/web/fetch/guarded-connect.ts';
import { startBrowserSite, startForbidden, type BrowserSite, type Forbidden } from './site.ts';

let site: BrowserSite;
let forbidden: Forbidden;
let proxy: GuardProxy;
let proxyPort = 0;

/** site.test → the site (allowed by name); mixed.test → a public and a loopback address. */
const lookup: LookupFunction = (hostname, options, callback) => {
  const answers: Record<string, string[]> = { 'site.test': ['127.0.0.1'], 'mixed.test': ['93.184.216.34', '127.0.0.1'], 'loop.test': ['127.0.0.1'] };
  const list = (answers[hostname] ?? []).map((address) => ({ address, family: 4 }));
  if (list.length === 0) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
  else if (options.all) callback(null, list);
  else callback(null, list[0]?.address ?? '', 4);
};

beforeAll(async () => {
  site = await startBrowserSite();
  forbidden = await startForbidden();
  proxy = await startGuardProxy({ allow: [site.hostPort, 'site.test'], lookup });
  proxyPort = Number(new URL(proxy.url).port);
});
afterAll(async () => {
  await proxy?.close();
  await forbidden?.close();
  await site?.close();
});

/** A plain-http request in absolute-form through the proxy. */
function viaProxy(target: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, path: target, method: 'GET', headers: { host: new URL(target).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw bytes to the proxy and returns its first answer line and headers. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxyPort, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      got += c;
      if (got.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
  });
}

describe('the guarded proxy', () => {
  it('forwards plain http and CONNECT tunnels to allowed targets', async () => {
    const page = await viaProxy(`${site.url}/click.html`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Behind a click');
    const byName = await viaProxy(`http://site.test:${new URL(site.url).port}/form.html`);
    expect(byName.body).toContain('A form');
    const tunnel = await raw(`CONNECT ${site.hostPort} HTTP/1.1\r\nHost: ${site.hostPort}\r\n\r\n`);
    expect(tunnel.startsWith('HTTP/1.1 200')).toBe(true);
  });

  it('refuses loopback, private and metadata targets, literal or by name, over every way in, and counts them', async () => {
    const before = proxy.stats.refused;
    const p = forbidden.port;
    const plain = await viaProxy(`http://127.0.0.1:${p}/secret`);
    expect(plain.status).toBe(403);
    expect(String(plain.headers[BLOCKED_HEADER])).toContain('loopback');
    expect((await viaProxy('http://169.254.169.254/latest/meta-data/')).headers[BLOCKED_HEADER]).toContain('link-local');
    expect((await viaProxy('http://10.0.0.1/')).status).toBe(403);
    expect((await viaProxy(`http://[::ffff:127.0.0.1]:${p}/`)).status).toBe(403);
    expect((await viaProxy(`http://loop.test:${p}/`)).status).toBe(403);
    // A name whose answer holds a refused address beside a public one is refused whole.
    expect((await viaProxy(`http://mixed.test:${p}/`)).headers[BLOCKED_HEADER]).toContain('mixed.test resolves to 127.0.0.1');

    expect(await raw(`CONNECT 127.0.0.1:${p} HTTP/1.1\r\nHost: 127.0.0.1:${p}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await raw('CONNECT 169.254.169.254:443 HTTP/1.1\r\nHost: 169.254.169.254:443\r\n\r\n')).toMatch(/^HTTP\/1\.1 403/);
    expect(await raw(`CONNECT loop.test:${p} HTTP/1.1\r\nHost: loop.test:${p}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    const upgrade = await raw(
      `GET ws://127.0.0.1:${p}/socket HTTP/1.1\r\nHost: 127.0.0.1:${p}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 403/);

    expect(proxy.stats.refused - before).toBe(10);
    expect(forbidden.hits).toEqual([]);
  });
});
