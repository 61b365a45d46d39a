/**
 * LLM token usage per team (docs/billing.md): the seam the LLM layer's `RunOptions.onLlmUsage`
 * is connected to (`recordTokens(caller, usage)`), read back through the started server with the
 * SDK's getTokenUsage / getTokenUsageHistorical; a no-op without a team; never throws.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamAccounts, type TeamAccounts } from '../../src/accounts/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestService, type TestService } from '../http/helpers.ts';

let service: TestService;
let accounts: TeamAccounts;
const errors: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  const config = loadConfig({ DATA_DIR: service.dataDir, ...service.storeEnv });
  accounts = createTeamAccounts({ store: service.store, defaults: config.defaultPlan, prices: config.prices, onError: (_err, message) => errors.push(message) });
});
afterAll(async () => {
  await service.stop();
});

describe('recordTokens', () => {
  it('adds a team’s tokens, reported by getTokenUsage (tokensUsed) and by month and key', async () => {
    const other = await service.createKey('test-team');
    const firstKeyId = (await service.store.listApiKeys()).find((k) => k.teamId === service.teamId && k.id !== other.id)?.id;
    await accounts.recordTokens({ teamId: service.teamId, keyId: firstKeyId }, { inputTokens: 1200, outputTokens: 300, model: 'local-model', operation: 'json' });
    await accounts.recordTokens({ teamId: service.teamId, keyId: other.id }, { inputTokens: 50, outputTokens: 25 });
    await accounts.recordTokens({ teamId: service.teamId, oauthClient: 'https://client.example/cimd' }, { inputTokens: 10, outputTokens: 0 });

    const client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
    expect(await client.getTokenUsage()).toEqual({ remainingTokens: 99_999_999, planTokens: 99_999_999, billingPeriodStart: null, billingPeriodEnd: null });
    expect((await accounts.tokenUsage(service.teamId)).tokensUsed).toBe(1585);

    const month = new Date().toISOString().slice(0, 7);
    expect((await client.getTokenUsageHistorical()).periods).toEqual([{ startDate: `${month}-01T00:00:00.000Z`, endDate: expect.any(String), tokensUsed: 1585 }]);
    const split = (await client.getTokenUsageHistorical(true)).periods;
    expect(split).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ apiKey: firstKeyId, tokensUsed: 1500 }),
        expect.objectContaining({ apiKey: other.id, tokensUsed: 75 }),
        expect.objectContaining({ apiKey: 'oauth:https://client.example/cimd', tokensUsed: 10 }),
      ]),
    );
    expect(split).toHaveLength(3);
  });

  it('is a no-op without a team (keyless, local callers) and never throws', async () => {
    await expect(accounts.recordTokens(undefined, { inputTokens: 5, outputTokens: 5 })).resolves.toBeUndefined();
    await expect(accounts.recordTokens({ teamId: undefined }, { inputTokens: 5, outputTokens: 5 })).resolves.toBeUndefined();
    expect(errors).toEqual([]);
    // A team that does not exist: the store refuses the row; the failure is reported, not thrown.
    await expect(accounts.recordTokens({ teamId: 'team_missing' }, { inputTokens: 5, outputTokens: 5 })).resolves.toBeUndefined();
    expect(errors).toEqual(['could not record LLM token usage']);
  });
});
