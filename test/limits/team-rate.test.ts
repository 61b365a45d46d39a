/**
 * The rate limit per team (issue 15 item 2, docs/limits.md) through a started server: a sliding
 * minute keyed by team, one window for every door — HTTP /v2 with a key, MCP tool calls with a
 * key or an OAuth access token (what `folio` CLI sign-ins get too). Over it: HTTP 429
 * RATE_LIMITED with Retry-After and the message saying when; MCP a tool error with the same code
 * and retry_after_seconds. Another team is not affected.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({}, { FOLIO_DEFAULT_RATE_PER_MINUTE: '4' });
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

function get(key: string, path = '/v2/concurrency-check'): Promise<RawResponse> {
  return request(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

/** A cheap tool call: valid arguments (it counts), refused by the tool itself (no file given). */
const cheapCall = { name: 'parse', arguments: {} };

function expectRateLimited(res: RawResponse): void {
  expect(res.status, res.text).toBe(429);
  expect(res.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
  expect(String(res.json.error)).toMatch(/^Rate limit reached: this team's plan allows 4 requests per minute \(all doors together\)\. Retry in \d+ s \(after \d{4}-\d\d-\d\dT[\d:.]+Z\)/);
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

describe('rate limit per team', () => {
  it('HTTP: the fifth request in a minute is 429 RATE_LIMITED with Retry-After; another team is not limited', async () => {
    const r = await service.createKey('rate-http');
    const other = await service.createKey('rate-other');
    for (let i = 0; i < 4; i++) expect((await get(r.key)).status).toBe(200);
    expectRateLimited(await get(r.key));
    // Every /v2 operation of the team, a parse as well.
    expectRateLimited(
      await request(`${service.url}/v2/parse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.key}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ uploadRef: 'upl_x' })),
      }),
    );
    // Keyed by team: a second key of the same team shares the window, another team has its own.
    const sameTeam = await service.createKey('rate-http');
    expectRateLimited(await get(sameTeam.key));
    expect((await get(other.key)).status).toBe(200);
  });

  it('MCP with a key or an OAuth token shares the team’s window with HTTP; the call over it is a RATE_LIMITED tool error', async () => {
    const k = await service.createKey('rate-mcp');
    const team = await service.store.findTeamByName('rate-mcp');
    const grant = await service.store.createOAuthGrant({ clientId: 'cli', teamId: team?.id ?? '', scope: 'mcp', resource: '/v2/mcp-oauth' });
    const { access_token } = await service.tokens.issue(grant);
    const clients: Client[] = [];
    try {
      const byKey = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${k.key}` });
      clients.push(byKey);
      const byToken = await connectMcp(`${service.url}/v2/mcp-oauth`, { authorization: `Bearer ${access_token}` });
      clients.push(byToken);
      // Listing tools is not a tool call: it does not count.
      for (let i = 0; i < 5; i++) await byKey.listTools();
      expect((await get(k.key)).status).toBe(200);
      expect(structuredOf(await byKey.callTool(cheapCall)).code).toBe('BAD_REQUEST');
      expect(structuredOf(await byToken.callTool(cheapCall)).code).toBe('BAD_REQUEST');
      expect((await get(k.key)).status).toBe(200);

      const limited = await byToken.callTool(cheapCall);
      expect(limited.isError).toBe(true);
      expect(textOf(limited)).toMatch(/^Rate limit reached: this team's plan allows 4 requests per minute/);
      const s = structuredOf(limited);
      expect(s.code).toBe('RATE_LIMITED');
      expect(s.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(s.retry_after_seconds).toBeLessThanOrEqual(60);
      expect(structuredOf(await byKey.callTool(cheapCall)).code).toBe('RATE_LIMITED');
      expectRateLimited(await get(k.key));
    } finally {
      for (const c of clients) await c.close();
    }
  });
});
