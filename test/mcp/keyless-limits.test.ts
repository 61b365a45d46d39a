/**
 * Keyless /v2/mcp limits against the started service: the per-minute rate and the daily quota
 * answer tool errors with retry_after_seconds; the quota survives a restart on the same DATA_DIR;
 * only tool calls count; API-key callers are not limited.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { startService, type Service } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { createLogger } from '../../src/log.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { connectMcp, structuredOf, textOf } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function start(dataDir: string, env: Record<string, string>): Promise<Service> {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...(await testStoreEnv(dataDir)), ...env });
  return startService(config, { runner: inProcessRunner(), logger: createLogger({ level: 'silent' }) });
}

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-keyless-'));
  dirs.push(d);
  return d;
}

/** A cheap tool call: valid arguments (it counts), refused by the tool itself (no file given). */
const cheapCall = { name: 'parse', arguments: {} };

describe('keyless limits', () => {
  it('per-minute rate: the call over the rate is a tool error with retry_after_seconds', async () => {
    const service = await start(tempDir(), { FOLIO_KEYLESS_RATE_PER_MINUTE: '3', FOLIO_KEYLESS_DAILY_QUOTA: '100' });
    const client = await connectMcp(`${service.url}/v2/mcp`);
    try {
      // Listing tools is not a tool call: it does not count.
      for (let i = 0; i < 5; i++) await client.listTools();
      for (let i = 0; i < 3; i++) {
        const ok = await client.callTool(cheapCall);
        expect(structuredOf(ok).code, textOf(ok)).toBe('BAD_REQUEST');
      }
      const limited = await client.callTool(cheapCall);
      expect(limited.isError).toBe(true);
      expect(textOf(limited)).toMatch(/^Keyless rate limit reached: 3 tool calls per minute per client\. Retry in \d+ seconds\./);
      const s = structuredOf(limited);
      expect(s.code).toBe('RATE_LIMITED');
      expect(s.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(s.retry_after_seconds).toBeLessThanOrEqual(60);
    } finally {
      await client.close();
      await service.shutdown();
    }
  });

  it('daily quota: refused once used up, still refused after a restart on the same DATA_DIR; keys are not limited', async () => {
    const dataDir = tempDir();
    const env = { FOLIO_KEYLESS_RATE_PER_MINUTE: '100', FOLIO_KEYLESS_DAILY_QUOTA: '2' };
    let service = await start(dataDir, env);
    let client = await connectMcp(`${service.url}/v2/mcp`);
    for (let i = 0; i < 2; i++) expect(structuredOf(await client.callTool(cheapCall)).code).toBe('BAD_REQUEST');
    const over = await client.callTool(cheapCall);
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(/^Keyless daily quota reached: 2 tool calls per day per client; it resets at 00:00 UTC\. Retry in /);
    const retry = structuredOf(over).retry_after_seconds as number;
    const untilMidnight = Math.ceil((Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 - Date.now()) / 1000);
    expect(Math.abs(retry - untilMidnight)).toBeLessThanOrEqual(5);
    await client.close();
    await service.shutdown();

    service = await start(dataDir, env);
    client = await connectMcp(`${service.url}/v2/mcp`);
    try {
      const again = await client.callTool(cheapCall);
      expect(structuredOf(again)).toMatchObject({ code: 'RATE_LIMITED' });
      expect(textOf(again)).toMatch(/daily quota/);
      // The client is stored by a hash: the raw address is nowhere in the database.
      for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith('folio.db'))) {
        expect(fs.readFileSync(path.join(dataDir, file)).includes(Buffer.from('127.0.0.1')), file).toBe(false);
      }
      const key = generateApiKey();
      const team = await service.store.ensureTeam('limits');
      await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
      const keyed = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${key}` });
      for (let i = 0; i < 3; i++) expect(structuredOf(await keyed.callTool(cheapCall)).code).toBe('BAD_REQUEST');
      await keyed.close();
    } finally {
      await client.close();
      await service.shutdown();
    }
  });
});
