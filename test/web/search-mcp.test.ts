/**
 * The `search` tool over the real tool server (/v2/mcp, no credential: search is keyless) of a
 * started folio whose SEARXNG_ENDPOINT is the fake SearXNG, with the real MCP SDK client.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { searxngWebUrl, startFakeSearxng, type FakeServer } from './fake-searxng.ts';

let searxng: FakeServer;
let service: TestService;
let client: Client;

beforeAll(async () => {
  searxng = await startFakeSearxng();
  service = await startTestService({ runner: inProcessRunner() }, { SEARXNG_ENDPOINT: searxng.url });
  client = await connectMcp(`${service.url}/v2/mcp`);
});
afterAll(async () => {
  await client.close();
  await service.stop();
  await searxng.close();
});

describe('search tool over /v2/mcp', () => {
  it('is listed to keyless callers and answers a numbered list', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search');
    const result = await client.callTool({ name: 'search', arguments: { query: 'mcp search', limit: 2 } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain(`1. Result 1 about mcp search\n   ${searxngWebUrl('mcp search', 1)}`);
    expect((structuredOf(result).web as unknown[]).length).toBe(2);
  });

  it("takes firecrawl-mcp's search fields (toolDetail, alexandria, domainTools) and says what it skipped", async () => {
    const result = await client.callTool({
      name: 'search',
      arguments: { query: 'mcp tolerant', limit: 1, sources: ['web', 'alexandria'], domainTools: true, toolDetail: 'compact', categories: ['developer'] },
    });
    expect(result.isError).toBeFalsy();
    expect((structuredOf(result).web as unknown[]).length).toBe(1);
    expect(String(structuredOf(result).warning)).toContain('No Alexandria tools were searched');
    expect(String(structuredOf(result).warning)).toContain("Skipped category 'developer'");
    expect(textOf(result)).toContain('Note: No Alexandria tools were searched');
  });

  it('bad input is a tool error naming the field', async () => {
    const result = await client.callTool({ name: 'search', arguments: { query: 'x', tbs: 'yesterday' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('tbs');
  });
});
