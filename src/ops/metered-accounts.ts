/**
 * Team accounts that also count the credits they charge (`folio_credits_charged_total`).
 * Everything else passes through. (LLM tokens are counted where every parse passes, serve's
 * runner, not in `recordTokens`: that would count them twice once it is called.)
 */
import type { TeamAccounts } from '../accounts/index.ts';
import type { FolioMetrics } from './folio-metrics.ts';

export function meteredAccounts(accounts: TeamAccounts, metrics: Pick<FolioMetrics, 'creditsCharged'>): TeamAccounts {
  return {
    ...accounts,
    async charge(payer, request) {
      const result = await accounts.charge(payer, request);
      if (result.charged && result.units > 0) metrics.creditsCharged.inc({ operation: request.operation }, result.units);
      return result;
    },
  };
}
