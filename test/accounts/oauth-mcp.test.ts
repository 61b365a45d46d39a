/**
 * MCP calls with an OAuth access token (here a CLI-issued one, `folio tokens issue`) are billed to
 * the token's team and recorded under its OAuth client (docs/billing.md), and refused with 402 and
 * ZDR_NOT_ENABLED like calls with a key.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf } from '../mcp/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

const ENV = { FOLIO_PUBLIC_URL: 'https://folio.example.com', FOLIO_MCP_URL: 'https://mcp.example.com' };

let service: TestService;
let site: TestSite;

async function folio(args: string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({ DATA_DIR: service.dataDir, ...service.storeEnv, ...ENV }));
  if (code !== 0) throw new Error(`folio ${args.join(' ')}: ${stderr}`);
  return stdout.trim();
}

beforeAll(async () => {
  site = await startSite({ pages: 3 });
  service = await startTestService({}, { ...ENV, FOLIO_FETCH_ALLOW: site.hostPort });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

describe('MCP with an OAuth access token', () => {
  it('is charged to the token’s team, under its client; refused with 402 and ZDR_NOT_ENABLED', async () => {
    await folio(['teams', 'set', 'oauth-team', '--credits', '2']);
    const token = await folio(['tokens', 'issue', '--team', 'oauth-team', '--resource', 'mcp', '--client', 'ci-bot']);
    const { key } = await service.createKey('oauth-team');
    const mcp = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${token}` });
    try {
      const zdr = await mcp.callTool({ name: 'map', arguments: { url: `${site.url}/`, zeroDataRetention: true } });
      expect(structuredOf(zdr).code).toBe('ZDR_NOT_ENABLED');
      for (let i = 0; i < 2; i++) {
        const map = await mcp.callTool({ name: 'map', arguments: { url: `${site.url}/` } });
        expect(map.isError).toBeFalsy();
      }
      const broke = await mcp.callTool({ name: 'map', arguments: { url: `${site.url}/` } });
      expect(structuredOf(broke).code).toBe('PAYMENT_REQUIRED');
    } finally {
      await mcp.close();
    }
    const client = new Firecrawl({ apiKey: key, apiUrl: service.url });
    expect((await client.getCreditUsage()).remainingCredits).toBe(0);
    const split = await client.getCreditUsageHistorical(true);
    expect(split.periods).toEqual([expect.objectContaining({ apiKey: 'oauth:ci-bot', creditsUsed: 2 })]);
  });
});
