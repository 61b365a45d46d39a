/**
 * API keys never reach a log line, whatever form the URL carries them in: a property test feeds
 * seeded random encodings of real keys (plain, percent-encoded per character in either hex case,
 * encoded twice, with undecodable escapes beside them, in capitals) through `pathOnly`, then
 * through the started service in every place a client may put one (the legacy MCP path, other
 * paths, the query string, a Referer), and looks for any piece of the key in what was logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOnly } from '../../src/log.ts';
import { mulberry32 } from '../helpers/prng.ts';
import { INITIALIZE, MCP_HEADERS } from '../mcp/helpers.ts';
import { request, startTestService, type TestService } from './helpers.ts';

type Rng = () => number;

const hex = (code: number, rng: Rng): string => {
  const h = code.toString(16).padStart(2, '0');
  return rng() < 0.5 ? h.toUpperCase() : h;
};

/** One character of a key, as some client or URL builder might write it. */
function encodeChar(ch: string, rng: Rng, depth: 0 | 1 | 2): string {
  const code = ch.charCodeAt(0);
  if (depth === 0) return ch;
  if (depth === 1) return `%${hex(code, rng)}`;
  return `%25${hex(code, rng)}`;
}

/** A key encoded at random, character by character, up to the given depth. */
function encodeKey(key: string, rng: Rng, maxDepth: 1 | 2): string {
  let out = '';
  for (const ch of key) {
    const r = rng();
    const depth = r < 0.5 ? 0 : r < 0.85 || maxDepth === 1 ? 1 : 2;
    out += encodeChar(ch, rng, depth);
    if (rng() < 0.01) out += '%zz';
  }
  return out;
}

/** Every 12-character piece of the key's random part: none may stand in a log. */
function pieces(key: string): string[] {
  const body = key.slice('folio_'.length);
  const out: string[] = [];
  for (let i = 0; i + 12 <= body.length; i += 4) out.push(body.slice(i, i + 12));
  return out;
}

function leaked(text: string, key: string): string | undefined {
  return pieces(key).find((p) => text.includes(p));
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const randomKey = (rng: Rng): string => 'folio_' + Array.from({ length: 43 }, () => KEY_ALPHABET[Math.floor(rng() * 64)]).join('');

describe('pathOnly masks keys in every encoding', () => {
  it('2,000 seeded encodings of keys in paths: no 12-character piece of a key survives', () => {
    const rng = mulberry32(0x5eed_13);
    for (let i = 0; i < 2000; i++) {
      const key = randomKey(rng);
      const written = rng() < 0.1 ? key.toUpperCase() : key;
      const encoded = encodeKey(written, rng, rng() < 0.5 ? 1 : 2);
      const paths = [
        `/${encoded}/v2/mcp`,
        `/${encoded}/v2/mcp/`,
        `/v2/parse/${encoded}`,
        `/v2/uploads/${encoded}`,
        `/x/${encoded}/y?api_key=${encoded}`,
        `/${encoded}`,
      ];
      for (const p of paths) {
        const logged = pathOnly(p);
        expect(leaked(logged, key) ?? leaked(logged.toLowerCase(), key.toLowerCase()), `${p} → ${logged}`).toBeUndefined();
      }
    }
  });

  it('keeps ordinary paths readable', () => {
    expect(pathOnly('/v2/parse')).toBe('/v2/parse');
    expect(pathOnly('/v2/crawl/0b6f0c1e-3f5a-4c1b-9d3e-2a1b3c4d5e6f?x=1')).toBe('/v2/crawl/0b6f0c1e-3f5a-4c1b-9d3e-2a1b3c4d5e6f');
    expect(pathOnly('/v2/mcp')).toBe('/v2/mcp');
    expect(pathOnly('/v2/mcp-oauth')).toBe('/v2/mcp-oauth');
    expect(pathOnly('/caf%C3%A9')).toBe('/café');
    expect(pathOnly('/anything/v2/mcp')).toBe('/[redacted]/v2/mcp');
    expect(pathOnly('/v2/uploads/abc')).toBe('/v2/uploads/[redacted]');
    expect(pathOnly('/v2/captures/mk2q3x-0123456789abcdefghijABCDEFGHIJ_-.png')).toBe('/v2/captures/[redacted]');
  });
});

describe('keys in URLs, through the started service and its log', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  it('a key percent-encoded in the legacy path authenticates as before, and no form of it is logged', async () => {
    const rng = mulberry32(0x13_0001);
    const keys = [service.key, (await service.createKey('other-team')).key];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const key = keys[i % keys.length] ?? '';
      const encoded = encodeKey(key, rng, i % 4 === 3 ? 2 : 1);
      const res = await request(`${service.url}/${encoded}/v2/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, referer: `https://client.example/${encoded}/v2/mcp` },
        body: Buffer.from(INITIALIZE),
      });
      statuses.push(res.status);
      expect(res.text).not.toContain(key.slice(6));
      // Elsewhere in the URL, and in the query string.
      await request(`${service.url}/v2/parse/${encoded}?key=${encoded}`, { method: 'POST', headers: { referer: `${service.url}/?k=${key}` } });
      await request(`${service.url}/v2/uploads/${encoded}`, { method: 'PUT', body: Buffer.from('x') });
    }
    // The key written plainly, and encoded once, keeps working on the legacy path.
    const plain = await request(`${service.url}/${service.key}/v2/mcp`, { method: 'POST', headers: MCP_HEADERS, body: Buffer.from(INITIALIZE) });
    expect(plain.status).toBe(200);
    expect(statuses.some((s) => s === 200)).toBe(true);
    expect(statuses.every((s) => s < 500)).toBe(true);

    const log = service.logText();
    expect(service.logLines().filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(121);
    for (const key of keys) {
      expect(log).not.toContain(key);
      expect(leaked(log, key)).toBeUndefined();
      expect(leaked(decodeURIComponentLoose(log), key)).toBeUndefined();
    }
    expect(log).toContain('"path":"/[redacted]/v2/mcp"');
  });
});

/** The log text with any escapes decoded, so an encoded key cannot hide from the check. */
function decodeURIComponentLoose(text: string): string {
  let current = text;
  for (let i = 0; i < 3; i++) current = current.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return current;
}
