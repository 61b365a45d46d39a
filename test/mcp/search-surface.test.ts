/**
 * The MCP surface of search: the `search` tool is listed whenever a backend is configured — on
 * /v2/mcp keyless and keyed, and on `folio mcp` over stdio with a local backend or with
 * FOLIO_API_URL (search then runs on that server); without one, the server's instructions
 * (MCP initialize result) say why search is not offered and which variables turn it on.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { SEARCH_NOT_OFFERED } from '../../src/mcp/server.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { searxngWebUrl, startFakeSearxng, type FakeServer } from '../web/fake-searxng.ts';
import { connectMcp, structuredOf } from './helpers.ts';
import { connectStdio, type SpawnedServer } from './stdio-helpers.ts';

let searxng: FakeServer;
let withSearch: TestService;
let without: TestService;
const clients: Client[] = [];
let stdioRemote: SpawnedServer;
let stdioLocal: SpawnedServer;
let stdioNone: SpawnedServer;

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

beforeAll(async () => {
  searxng = await startFakeSearxng();
  [withSearch, without] = await Promise.all([
    startTestService({ runner: inProcessRunner() }, { SEARXNG_ENDPOINT: searxng.url }),
    startTestService({ runner: inProcessRunner() }),
  ]);
  const env = { LOG_LEVEL: 'info' };
  [stdioRemote, stdioLocal, stdioNone] = await Promise.all([
    connectStdio({ ...env, FOLIO_API_URL: withSearch.url, FOLIO_API_KEY: withSearch.key }),
    connectStdio({ ...env, SEARXNG_ENDPOINT: searxng.url }),
    connectStdio(env),
  ]);
});
afterAll(async () => {
  await Promise.all([...clients.map((c) => c.close()), stdioRemote?.close(), stdioLocal?.close(), stdioNone?.close()]);
  await Promise.all([withSearch?.stop(), without?.stop()]);
  await searxng?.close();
});

async function http(service: TestService, keyed: boolean): Promise<Client> {
  const client = await connectMcp(`${service.url}/v2/mcp`, keyed ? { authorization: `Bearer ${service.key}` } : {});
  clients.push(client);
  return client;
}

describe('search on the MCP surface', () => {
  it('/v2/mcp with a backend lists search, keyless and keyed, and the instructions point to it', async () => {
    for (const keyed of [false, true]) {
      const client = await http(withSearch, keyed);
      expect(await names(client)).toContain('search');
      expect(client.getInstructions()).toContain('Use `search` to find pages');
      expect(client.getInstructions()).not.toContain('not offered');
    }
  });

  it('/v2/mcp without a backend: no search tool, and the instructions say why and what to set (keyless and keyed)', async () => {
    for (const keyed of [false, true]) {
      const client = await http(without, keyed);
      expect(await names(client)).not.toContain('search');
      expect(client.getInstructions()).toContain(SEARCH_NOT_OFFERED);
      expect(client.getInstructions()).toContain('SEARXNG_ENDPOINT');
      expect(client.getInstructions()).toContain('BRAVE_API_KEY');
    }
  });

  it('stdio with FOLIO_API_URL lists search and runs it on that server', async () => {
    expect(await names(stdioRemote.client)).toContain('search');
    const result = await stdioRemote.client.callTool({ name: 'search', arguments: { query: 'via remote', limit: 1, sources: ['web', 'alexandria'], toolDetail: 'compact' } });
    expect(result.isError).toBeFalsy();
    expect((structuredOf(result).web as { url: string }[])[0]?.url).toBe(searxngWebUrl('via remote', 1));
    expect(String(structuredOf(result).warning)).toContain('No Alexandria tools were searched');
    expect(withSearch.logLines().some((l) => l.path === '/v2/search' && l.status === 200)).toBe(true);
    expect(stdioRemote.stderr()).not.toContain(withSearch.key);
  });

  it('stdio with a local backend lists search; with none, the instructions say why', async () => {
    expect(await names(stdioLocal.client)).toContain('search');
    expect(await names(stdioNone.client)).not.toContain('search');
    expect(stdioNone.client.getInstructions()).toContain(SEARCH_NOT_OFFERED);
    expect(stdioNone.stderr()).toContain('search tool not offered');
  });
});
