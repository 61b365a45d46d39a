/**
 * The Fetcher's limits and HTTP behaviour against the local test site: redirects followed by
 * hand (chain, loop, cap), the 50 MB cap (streamed and declared), the deadline (slow headers,
 * stalled body), content decoding, headers sent upstream, upstream errors as responses.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type ClosableFetcher } from '../../src/web/fetch/fetcher.ts';
import { startSite, type TestSite } from './site.ts';
import { failure } from '../helpers/service-error.ts';

let site: TestSite;
let other: TestSite;
let fetcher: ClosableFetcher;

beforeAll(async () => {
  site = await startSite();
  other = await startSite();
  fetcher = createFetcher({ allow: [site.hostPort, other.hostPort] });
});
afterAll(async () => {
  await fetcher.close();
  await site.close();
  await other.close();
});

describe('Fetcher', () => {
  it('follows a redirect chain and reports the final URL and the hops', async () => {
    const res = await fetcher.fetch({ url: `${site.url}/redirect-chain/3`, timeoutMs: 5000 });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${site.url}/article.html`);
    expect(res.redirects).toEqual([`${site.url}/redirect-chain/3`, `${site.url}/redirect-chain/2`, `${site.url}/redirect-chain/1`]);
    expect(res.contentType).toBe('text/html; charset=utf-8');
  });

  it('stops a redirect loop after maxRedirects with FETCH_FAILED', async () => {
    const err = await failure(fetcher.fetch({ url: `${site.url}/redirect-loop`, timeoutMs: 5000 }));
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toContain('more than 10 redirects');
    const capped = await failure(fetcher.fetch({ url: `${site.url}/redirect-chain/3`, timeoutMs: 5000, maxRedirects: 2 }));
    expect(capped.message).toContain('more than 2 redirects');
  });

  it('answers an upstream 404 and 500 as responses, not errors', async () => {
    expect((await fetcher.fetch({ url: `${site.url}/missing`, timeoutMs: 5000 })).status).toBe(404);
    const res = await fetcher.fetch({ url: `${site.url}/error`, timeoutMs: 5000 });
    expect(res.status).toBe(500);
    expect(res.body.toString()).toContain('Something broke');
  });

  it('refuses a streamed body past the cap with FILE_TOO_LARGE', async () => {
    const err = await failure(fetcher.fetch({ url: `${site.url}/huge`, timeoutMs: 20_000 }));
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toContain(`${site.url}/huge`);
    expect(err.message).toContain('50 MB');
  });

  it('refuses a declared Content-Length past the cap before reading, and honours a smaller cap', async () => {
    const started = Date.now();
    expect((await failure(fetcher.fetch({ url: `${site.url}/huge-declared`, timeoutMs: 20_000 }))).code).toBe('FILE_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(2000);
    const small = await failure(fetcher.fetch({ url: `${site.url}/article.html`, timeoutMs: 5000, maxBytes: 100 }));
    expect(small.code).toBe('FILE_TOO_LARGE');
  });

  it('stops slow headers and a stalled body at the deadline with SCRAPE_TIMEOUT', async () => {
    for (const path of ['/slow?ms=5000', '/slow-body?ms=5000']) {
      const started = Date.now();
      const err = await failure(fetcher.fetch({ url: `${site.url}${path}`, timeoutMs: 300 }));
      expect(err.code, path).toBe('SCRAPE_TIMEOUT');
      expect(err.status).toBe(408);
      expect(err.message).toContain('300 ms');
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('passes the caller’s abort through as is', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 100);
    const err = await fetcher.fetch({ url: `${site.url}/slow?ms=3000`, timeoutMs: 5000, signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBe(reason);
  });

  it('decodes a gzip body and drops the encoding headers', async () => {
    const res = await fetcher.fetch({ url: `${site.url}/gzip.html`, timeoutMs: 5000 });
    expect(res.body.toString()).toContain('This page travelled gzip-encoded.');
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('sends the caller’s headers, and drops credentials on a cross-origin redirect', async () => {
    const headers = { authorization: 'Bearer upstream-secret', 'x-custom': 'kept', 'user-agent': 'my-agent/1.0' };
    await fetcher.fetch({ url: `${site.url}/echo-headers`, timeoutMs: 5000, headers });
    const sent = site.requestHeaders.at(-1);
    expect(sent?.authorization).toBe('Bearer upstream-secret');
    expect(sent?.['x-custom']).toBe('kept');
    expect(sent?.['user-agent']).toBe('my-agent/1.0');

    const res = await fetcher.fetch({ url: `${site.url}/redirect-to?url=${encodeURIComponent(`${other.url}/echo-headers`)}`, timeoutMs: 5000, headers });
    expect(res.url).toBe(`${other.url}/echo-headers`);
    const forwarded = other.requestHeaders.at(-1);
    expect(forwarded?.authorization).toBeUndefined();
    expect(forwarded?.['x-custom']).toBe('kept');
  });

  it('turns URL credentials into Basic auth and keeps them out of messages', async () => {
    const url = `${site.url}/echo-headers`.replace('http://', 'http://alice:s3cret@');
    const res = await fetcher.fetch({ url, timeoutMs: 5000 });
    expect(site.requestHeaders.at(-1)?.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    expect(res.url).not.toContain('s3cret');
    const err = await failure(fetcher.fetch({ url: url.replace('/echo-headers', '/slow?ms=2000'), timeoutMs: 100 }));
    expect(err.message).not.toContain('s3cret');
  });

  it('answers HEAD without a body', async () => {
    const res = await fetcher.fetch({ url: `${site.url}/docs/paper.pdf`, method: 'HEAD', timeoutMs: 5000 });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/pdf');
    expect(res.body.length).toBe(0);
  });

  it('says which host could not be resolved or reached', async () => {
    const err = await failure(createFetcher({ allow: ['no-such-host.invalid'] }).fetch({ url: 'http://no-such-host.invalid/', timeoutMs: 5000 }));
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toContain("'no-such-host.invalid' could not be resolved");
    const closed = await site.close().then(() => failure(fetcher.fetch({ url: `${site.url}/`, timeoutMs: 5000 })));
    expect(closed.code).toBe('FETCH_FAILED');
    site = await startSite();
  });
});

describe('outbound proxy (FOLIO_FETCH_PROXY)', () => {
  it('sends `proxy: basic|auto` requests through the configured proxy, after the address check', async () => {
    const tunnels: string[] = [];
    const authorizations: (string | undefined)[] = [];
    const proxy = http.createServer((_req, res) => res.writeHead(405).end());
    // RFC 9110 §9.3.6 CONNECT: a tunnel to the target.
    proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      authorizations.push(req.headers['proxy-authorization']);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyPort = (proxy.address() as net.AddressInfo).port;
    const viaProxy = createFetcher({ allow: [site.hostPort], proxyUrl: `http://folio:proxy-pass@127.0.0.1:${proxyPort}` });
    try {
      const res = await viaProxy.fetch({ url: `${site.url}/about.html`, timeoutMs: 5000, proxy: 'basic' });
      expect(res.status).toBe(200);
      expect(tunnels).toEqual([site.hostPort]);
      expect(authorizations[0]).toBe(`Basic ${Buffer.from('folio:proxy-pass').toString('base64')}`);
      // Without `proxy`, the request goes direct.
      await viaProxy.fetch({ url: `${site.url}/about.html`, timeoutMs: 5000 });
      expect(tunnels).toHaveLength(1);
      // A blocked target is refused before the proxy is asked.
      const err = await failure(viaProxy.fetch({ url: 'http://10.0.0.1/', timeoutMs: 5000, proxy: 'auto' }));
      expect(err.code).toBe('URL_BLOCKED');
      expect(tunnels).toHaveLength(1);
    } finally {
      await viaProxy.close();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
