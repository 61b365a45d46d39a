/**
 * Team accounts that also count what they charge and the LLM tokens they are told of
 * (`folio_credits_charged_total`, `folio_llm_tokens_total`). Everything else passes through.
 */
import type { TeamAccounts } from '../accounts/index.ts';
import type { FolioMetrics } from './folio-metrics.ts';

export function meteredAccounts(accounts: TeamAccounts, metrics: Pick<FolioMetrics, 'creditsCharged' | 'llmTokens'>): TeamAccounts {
  return {
    ...accounts,
    async charge(payer, request) {
      const result = await accounts.charge(payer, request);
      if (result.charged && result.units > 0) metrics.creditsCharged.inc({ operation: request.operation }, result.units);
      return result;
    },
    async recordTokens(caller, usage) {
      // Counted for every caller, keyless ones too (their tokens are spent all the same).
      metrics.llmTokens.inc({ direction: 'input' }, Math.max(0, Math.round(usage.inputTokens)));
      metrics.llmTokens.inc({ direction: 'output' }, Math.max(0, Math.round(usage.outputTokens)));
      await accounts.recordTokens(caller, usage);
    },
  };
}
