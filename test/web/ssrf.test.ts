/**
 * SSRF rules of the Fetcher (issue 6 part 2): with FOLIO_FETCH_ALLOW naming only the test
 * site's host:port, every other loopback, private, link-local, CGNAT, metadata and reserved
 * address form is refused with URL_BLOCKED, before and at connect time and after redirects.
 */
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedReason, parseAllowList } from '../../src/web/fetch/address-policy.ts';
import { createFetcher, type ClosableFetcher } from '../../src/web/fetch/fetcher.ts';
import type { LookupFunction } from '../../src/web/fetch/guarded-connect.ts';
import { startSite, type TestSite } from './site.ts';
import { failure } from '../helpers/service-error.ts';

let site: TestSite;
/** A second loopback server on another port: not allowlisted, must never be reached. */
let other: http.Server;
let otherPort: number;
let otherHits = 0;
let fetcher: ClosableFetcher;

beforeAll(async () => {
  site = await startSite();
  other = http.createServer((_req, res) => {
    otherHits++;
    res.end('internal admin panel');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
  fetcher = createFetcher({ allow: [site.hostPort] });
});
afterAll(async () => {
  await fetcher.close();
  await site.close();
  other.closeAllConnections();
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

const get = (url: string, f: ClosableFetcher = fetcher) => f.fetch({ url, timeoutMs: 5000 });

describe('the allowlisted test site', () => {
  it('is reachable (the control for every refusal below)', async () => {
    const res = await get(`${site.url}/article.html`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('Tidal Energy in Small Harbours');
  });
});

describe('blocked address forms', () => {
  const forms = () => [
    `http://127.0.0.1:${otherPort}/`,
    `http://localhost:${otherPort}/`,
    `http://[::1]:${otherPort}/`,
    `http://0.0.0.0:${otherPort}/`,
    'http://10.0.0.5/',
    'http://172.16.4.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    `http://[::ffff:127.0.0.1]:${otherPort}/`,
    'http://[::ffff:a9fe:a9fe]/',
    `http://2130706433:${otherPort}/`,
    `http://0177.0.0.1:${otherPort}/`,
    `http://0x7f000001:${otherPort}/`,
    `http://127.1:${otherPort}/`,
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[ff02::1]/',
    'http://[::]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:a9fe:a9fe::1]/',
    `http://127.0.0.1.:${otherPort}/`,
  ];

  it('refuses every one with URL_BLOCKED, naming the URL, and never reaches the other port', async () => {
    for (const url of forms()) {
      const err = await failure(get(url));
      expect(err.code, url).toBe('URL_BLOCKED');
      expect(err.status).toBe(403);
      expect(err.message).toContain('Refused to fetch http://');
    }
    expect(otherHits).toBe(0);
  });

  it('never repeats credentials, query strings or fragments of the refused URL in the message', async () => {
    const err = await failure(get('http://user:hunter2@169.254.169.254/latest/meta-data/?token=s3cr3t-value#frag'));
    expect(err.code).toBe('URL_BLOCKED');
    expect(err.message).toContain('http://169.254.169.254/latest/meta-data/?…');
    expect(err.message).not.toMatch(/hunter2|s3cr3t-value|frag/);
  });

  it('refuses file: and ftp: (and other schemes) as URL_BLOCKED', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/file.txt', 'gopher://example.com/', 'data:text/html,<p>x</p>']) {
      const err = await failure(get(url));
      expect(err.code, url).toBe('URL_BLOCKED');
      expect(err.message).toMatch(/scheme is not allowed/);
    }
  });

  it('allows the site only on its own port: the same host on another port stays blocked', async () => {
    expect((await get(`${site.url}/about.html`)).status).toBe(200);
    const err = await failure(get(`http://127.0.0.1:${otherPort}/`));
    expect(err.message).toContain('loopback');
  });
});

describe('redirects', () => {
  it('refuses a redirect to another 127.0.0.1 port, after following the allowed hop', async () => {
    const err = await failure(get(`${site.url}/redirect-to?url=${encodeURIComponent(`http://127.0.0.1:${otherPort}/admin`)}`));
    expect(err.code).toBe('URL_BLOCKED');
    expect(err.message).toContain(`127.0.0.1:${otherPort}/admin`);
    expect(otherHits).toBe(0);
  });

  it('refuses redirects to the metadata address, a private address and file:', async () => {
    for (const target of ['http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/', 'http://[::ffff:10.1.2.3]/', 'file:///etc/passwd']) {
      const err = await failure(get(`${site.url}/redirect-to?url=${encodeURIComponent(target)}&status=307`));
      expect(err.code, target).toBe('URL_BLOCKED');
    }
  });
});

describe('DNS answers', () => {
  it('a name that answers public first and 127.0.0.1 next (DNS rebinding) is refused at connect', async () => {
    const answers: string[] = [];
    let calls = 0;
    const rebinding: LookupFunction = (_hostname, options, callback) => {
      calls++;
      const address = calls === 1 ? '93.184.215.14' : '127.0.0.1';
      answers.push(address);
      if (options.all) callback(null, [{ address, family: 4 }] as dns.LookupAddress[]);
      else callback(null, address, 4);
    };
    const f = createFetcher({ allow: [], lookup: rebinding });
    const before = site.requests.length;
    try {
      const err = await failure(get(`http://rebind.test:${site.port}/article.html`, f));
      expect(err.code).toBe('URL_BLOCKED');
      expect(err.message).toContain('rebind.test resolves to 127.0.0.1');
      // The resolve-first check saw the public answer; the connect-time lookup saw 127.0.0.1.
      expect(answers).toEqual(['93.184.215.14', '127.0.0.1']);
      expect(site.requests.length).toBe(before);
    } finally {
      await f.close();
    }
  });

  it('an answer that mixes a public and a private address is refused', async () => {
    const mixed: LookupFunction = (_hostname, _options, callback) => {
      callback(null, [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]);
    };
    const f = createFetcher({ allow: [], lookup: mixed });
    try {
      const err = await failure(get('http://mixed.test/', f));
      expect(err.code).toBe('URL_BLOCKED');
      expect(err.message).toContain('10.0.0.7');
    } finally {
      await f.close();
    }
  });

  it('a host name on the allowlist is fetched whatever it resolves to; others resolving there are not', async () => {
    const toLoopback: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    };
    const f = createFetcher({ allow: [`intranet.test:${site.port}`], lookup: toLoopback });
    try {
      expect((await get(`http://intranet.test:${site.port}/about.html`, f)).status).toBe(200);
      expect((await failure(get(`http://elsewhere.test:${site.port}/about.html`, f))).code).toBe('URL_BLOCKED');
    } finally {
      await f.close();
    }
  });

  it('a CIDR entry allows addresses in its range on any port', async () => {
    const f = createFetcher({ allow: ['127.0.0.0/8'] });
    try {
      expect((await get(`${site.url}/about.html`, f)).status).toBe(200);
      expect((await get(`http://127.0.0.1:${otherPort}/`, f)).body.toString()).toBe('internal admin panel');
      otherHits = 0;
      expect((await failure(get('http://10.0.0.1/', f))).code).toBe('URL_BLOCKED');
    } finally {
      await f.close();
    }
  });
});

describe('address rule', () => {
  it('passes global unicast addresses, v4 and v6', () => {
    for (const ip of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '2a00:1450:4001:80b::200e']) expect(blockedReason(ip), ip).toBeUndefined();
  });

  it('judges IPv4 embedded in IPv6 by the IPv4 address', () => {
    expect(blockedReason('::ffff:8.8.8.8')).toBeUndefined();
    expect(blockedReason('::ffff:192.168.0.1')).toMatch(/private.*embedded/);
    expect(blockedReason('64:ff9b::a00:1')).toMatch(/private/);
    expect(blockedReason('2002:c0a8:0001::1')).toMatch(/private/);
  });

  it('rejects malformed allowlist entries with a message naming them', () => {
    expect(() => parseAllowList(['10.0.0.0/99'])).toThrow(/'10.0.0.0\/99' is not a valid CIDR/);
    expect(() => parseAllowList(['host:99999'])).toThrow(/invalid port/);
    expect(() => parseAllowList(['bad host!'])).toThrow(/not a host/);
  });
});
