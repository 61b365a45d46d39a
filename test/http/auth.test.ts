/**
 * API keys on /v2/*: Bearer only (RFC 6750), 401 with the challenge for a missing or bad key,
 * keys in the URL refused even when valid, the team in the request log, `last_used_at`
 * recorded at most once a minute, and no key ever in a log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../auth/api-keys.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { multipartBody, request, startTestService, upload, type TestService } from './helpers.ts';

const blog = readCorpus('html', 'markitdown', 'test_blog.html');
let service: TestService;
const usedKeys: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  usedKeys.push(service.key);
});
afterAll(async () => {
  await service.stop();
});

function parseWith(authorization: string | undefined, query = '') {
  return request(`${service.url}/v2/parse${query}`, {
    method: 'POST',
    headers: {
      ...(authorization !== undefined ? { authorization } : {}),
      'content-type': 'multipart/form-data; boundary=folio-test-boundary-7MA4YWxkTrZu0gW',
    },
    body: multipartBody(upload('blog.html', blog)),
  });
}

describe('missing credentials', () => {
  it('no Authorization header: 401 UNAUTHORIZED with a bare Bearer challenge', async () => {
    const res = await parseWith(undefined);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="folio"');
    expect(res.json).toEqual({ success: false, code: 'UNAUTHORIZED', error: expect.stringContaining('Authorization: Bearer') });
  });

  it('another scheme is treated as no credential', async () => {
    const res = await parseWith(`Basic ${Buffer.from(`user:${service.key}`).toString('base64')}`);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="folio"');
  });
});

describe('invalid credentials', () => {
  it.each([
    ['an unknown well-formed key', () => generateApiKey()],
    ['a malformed key', () => 'not-a-folio-key'],
    ['an empty token', () => ''],
  ])('%s: 401 with error="invalid_token"', async (_label, makeKey) => {
    const key = makeKey();
    usedKeys.push(key);
    const res = await parseWith(`Bearer ${key}`);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="folio", error="invalid_token"/);
    expect(res.json).toEqual({ success: false, code: 'UNAUTHORIZED', error: expect.stringContaining('Invalid API key') });
  });

  it('a revoked key stops working at once', async () => {
    const { key, id } = await service.createKey('revoking-team');
    usedKeys.push(key);
    expect((await parseWith(`Bearer ${key}`)).status).toBe(200);
    await service.store.revokeApiKey(id);
    const res = await parseWith(`Bearer ${key}`);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(res.json.code).toBe('UNAUTHORIZED');
  });

  it('an unauthenticated upload is refused without reading its body', async () => {
    const res = await request(`${service.url}/v2/parse`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=folio-test-boundary-7MA4YWxkTrZu0gW' },
      body: multipartBody(upload('big.html', Buffer.alloc(20 * 1024 * 1024, 0x20))),
    });
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
  });
});

describe('valid credentials', () => {
  it('the scheme is case-insensitive', async () => {
    const res = await parseWith(`bearer ${service.key}`);
    expect(res.status).toBe(200);
    expect((res.json.data as { markdown: string }).markdown).toContain('GPT-4 is currently the state of the art LLM in the world');
  });

  it('the team goes into the request log line, without query string', async () => {
    const { key } = await service.createKey('logging-team');
    usedKeys.push(key);
    const team = await service.store.findTeamByName('logging-team');
    expect((await parseWith(`Bearer ${key}`)).status).toBe(200);
    const line = service.logLines().filter((l) => l.msg === 'request').at(-1);
    expect(line).toMatchObject({ method: 'POST', path: '/v2/parse', status: 200, teamId: team?.id });
    expect(typeof line?.ms).toBe('number');
  });

  it('last_used_at is recorded, and not rewritten within a minute', async () => {
    const { key, id } = await service.createKey('usage-team');
    usedKeys.push(key);
    expect((await service.store.getApiKey(id))?.lastUsedAt).toBeNull();
    expect((await parseWith(`Bearer ${key}`)).status).toBe(200);
    const first = (await service.store.getApiKey(id))?.lastUsedAt;
    expect(first).toEqual(expect.any(String));
    expect(Date.now() - Date.parse(first ?? '')).toBeLessThan(10_000);
    expect((await parseWith(`Bearer ${key}`)).status).toBe(200);
    expect((await service.store.getApiKey(id))?.lastUsedAt).toBe(first);
  });
});

describe('keys in the URL', () => {
  it.each(['api_key', 'apiKey', 'key', 'token', 'access_token'])('?%s=<valid key> is refused with 400, even with a valid header', async (param) => {
    for (const header of [undefined, `Bearer ${service.key}`]) {
      const res = await parseWith(header, `?${param}=${encodeURIComponent(service.key)}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('Authorization header') });
      expect(String(res.json.error)).toContain(`'${param}'`);
      expect(res.text).not.toContain(service.key);
    }
  });
});

describe('logs', () => {
  it('no key used in any request appears in the captured log output', async () => {
    // Also through a 404 and a 500-free error path with the key in the query string.
    await request(`${service.url}/nope?token=${service.key}`, { headers: { authorization: `Bearer ${service.key}`, cookie: `session=${service.key}` } });
    // The legacy key-in-path form (`/{API_KEY}/v2/mcp`) is logged with the key masked.
    const legacy = await request(`${service.url}/${service.key}/v2/mcp`, { method: 'POST' });
    expect(legacy.text).not.toContain(service.key);
    expect(service.logLines().filter((l) => l.msg === 'request').at(-1)).toMatchObject({ path: '/[redacted]/v2/mcp' });
    const text = service.logText();
    expect(text.length).toBeGreaterThan(0);
    expect(service.logLines().filter((l) => l.msg === 'request').length).toBeGreaterThan(10);
    for (const key of usedKeys.filter((k) => k.length > 0)) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(6, 30));
    }
    expect(text).not.toContain('token=');
  });
});
