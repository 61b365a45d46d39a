/**
 * The redirect URI rules (spec, "OAuth for interactive clients" 5): which URIs may be registered,
 * and redirectUriMatches, which the authorization endpoint uses (loopback port free; scheme,
 * host, path and query exact; anything else compared as the exact string).
 */
import { describe, expect, it } from 'vitest';
import { redirectUriMatches } from '../../auth/clients.ts';
import { checkRedirectUri, partitionRedirectUris } from '../../auth/redirect-uris.ts';

describe('redirectUriMatches', () => {
  it('lets the port of a loopback redirect URI vary, for each loopback host', () => {
    expect(redirectUriMatches('http://127.0.0.1/callback', 'http://127.0.0.1:51234/callback')).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:3000/callback', 'http://127.0.0.1:4000/callback')).toBe(true);
    expect(redirectUriMatches('http://localhost:8080/cb', 'http://localhost/cb')).toBe(true);
    expect(redirectUriMatches('http://[::1]:1/cb?x=1', 'http://[::1]:65000/cb?x=1')).toBe(true);
  });

  it('keeps the loopback host, path, query and scheme exact', () => {
    expect(redirectUriMatches('http://127.0.0.1/callback', 'http://localhost/callback')).toBe(false);
    expect(redirectUriMatches('http://localhost/callback', 'http://[::1]/callback')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback/')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/callback', 'http://127.0.0.1:5000/Callback')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/a/callback', 'http://127.0.0.1:5000/a/b/../callback')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/cb?x=1', 'http://127.0.0.1:5000/cb?x=2')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/cb', 'http://127.0.0.1:5000/cb?x=1')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/cb', 'https://127.0.0.1:5000/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/cb', 'http://127.0.0.1:5000/cb#frag')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/cb', 'http://user@127.0.0.1:5000/cb')).toBe(false);
    expect(redirectUriMatches('http://localhost/cb', 'http://localhost.evil.example:5000/cb')).toBe(false);
  });

  it('compares https redirect URIs as exact strings, port included', () => {
    expect(redirectUriMatches('https://app.example.com/cb', 'https://app.example.com/cb')).toBe(true);
    expect(redirectUriMatches('https://app.example.com/cb', 'https://app.example.com:8443/cb')).toBe(false);
    expect(redirectUriMatches('https://app.example.com/cb', 'https://app.example.com/cb/')).toBe(false);
    expect(redirectUriMatches('https://app.example.com/cb', 'https://APP.example.com/cb')).toBe(false);
    expect(redirectUriMatches('https://app.example.com/cb', 'https://app.example.com/cb?next=x')).toBe(false);
    expect(redirectUriMatches('https://app.example.com:443/cb', 'https://app.example.com/cb')).toBe(false);
    expect(redirectUriMatches('https://localhost/cb', 'https://localhost:9999/cb')).toBe(false);
  });
});

describe('checkRedirectUri / partitionRedirectUris', () => {
  it('allows https and http on loopback hosts only', () => {
    for (const ok of ['https://app.example.com/cb', 'http://localhost:9/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb']) expect(checkRedirectUri(ok), ok).toEqual({ ok: true, uri: ok });
    for (const bad of ['http://example.com/cb', 'http://127.0.0.2/cb', 'http://10.0.0.1/cb', 'vscode://x/cb', 'javascript:alert(1)', 'https://a.example/cb#f', 'https://u:p@a.example/cb', '/relative', '']) {
      const check = checkRedirectUri(bad);
      expect(check.ok, bad).toBe(false);
    }
  });

  it('keeps the allowed ones in order without duplicates and reports the others with a reason', () => {
    expect(partitionRedirectUris(['https://a.example/cb', 'http://a.example/cb', 'https://a.example/cb'])).toEqual({
      allowed: ['https://a.example/cb'],
      refused: [{ redirect_uri: 'http://a.example/cb', reason: expect.stringMatching(/loopback/) as unknown as string }],
    });
  });
});
