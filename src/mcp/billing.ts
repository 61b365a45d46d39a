/**
 * The tool server's accounting (docs/billing.md): calls with an API key or an OAuth token are
 * billed to their team like the HTTP operations they run — `zeroDataRetention` refused (403
 * ZDR_NOT_ENABLED) for a team without ZDR, 402 PAYMENT_REQUIRED before work when the team cannot
 * afford the least the call costs, a charge after a successful call. Keyless calls have their own
 * quota (src/limits/keyless.ts) and local (stdio) calls are the user's own: neither is billed.
 */
import { oauthClientOf, type AnyToolDefinition, type Caller } from '../../tools/types.ts';
import { startedJobId, toolBilling, toolPrice, wantsZdr, type Payer, type TeamAccounts } from '../accounts/index.ts';
import type { Logger } from '../log.ts';

function payerOf(caller: Caller): Payer | undefined {
  if (caller.teamId === undefined || (caller.kind !== 'api-key' && caller.kind !== 'oauth')) return undefined;
  const oauthClient = oauthClientOf(caller);
  return {
    teamId: caller.teamId,
    teamName: caller.teamName,
    ...(caller.keyId !== undefined ? { keyId: caller.keyId } : {}),
    ...(oauthClient !== undefined ? { oauthClient } : {}),
  };
}

export interface ToolMetering {
  /**
   * Refuses what the team cannot afford (402) and, with `hold`, keeps the call's least price held
   * for the team until the signal aborts (the HTTP exchange carrying the call closes), so parallel
   * calls cannot spend the same credits — as the HTTP door does (src/http/billing.ts).
   */
  admit(tool: AnyToolDefinition, caller: Caller, input: unknown, hold?: AbortSignal): Promise<void>;
  settle(tool: AnyToolDefinition, caller: Caller, input: unknown, structured: Record<string, unknown>): Promise<void>;
}

export function toolMetering(accounts: TeamAccounts, logger: Logger): ToolMetering {
  return {
    async admit(tool, caller, input, hold) {
      const payer = payerOf(caller);
      if (!payer) return;
      await accounts.checkZdr(payer, wantsZdr(input));
      const billing = toolBilling(tool.name, input);
      if (billing) await accounts.admit(payer, billing.operation, billing.factors, undefined, hold);
    },
    async settle(tool, caller, input, structured) {
      const payer = payerOf(caller);
      const billing = payer ? toolBilling(tool.name, input) : undefined;
      if (!payer || !billing) return;
      const units = toolPrice(accounts.prices, billing, structured);
      const job = billing.startsJob ? startedJobId(structured) : undefined;
      await accounts.charge(payer, { operation: billing.operation, units, requestId: job }).catch((err: unknown) => {
        logger.error({ err, teamId: payer.teamId, tool: tool.name }, 'could not record a charge');
      });
    },
  };
}
