/**
 * The accounting every door calls (docs/billing.md, docs/accounts.md): the plan of a team, the
 * refusals before work (402 PAYMENT_REQUIRED, 403 ZDR_NOT_ENABLED), the charge after a successful
 * request, LLM token usage, and the usage the team endpoints report.
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../errors.ts';
import type { CreditLedgerStore, UsagePeriod } from '../store/credit-ledger.ts';
import type { TeamPlanStore } from '../store/team-plans.ts';
import type { PlanSource, TeamPlan } from './plan.ts';
import { minimumPrice, type Operation, type PageFactors, type Prices } from './prices.ts';
import { storePlans, type TeamPlanView } from './store-plans.ts';

/**
 * How unlimited credits (and tokens: folio sets no token allowance) are reported to the SDK, whose
 * `remainingCredits` is a number: the figure Firecrawl's own self-hosted build reports, with
 * `unlimited: true` beside it.
 */
export const UNLIMITED_REPORTED = 99_999_999;

/** The team a request is billed to and who sent it. */
export interface Payer {
  teamId: string;
  teamName?: string | undefined;
  keyId?: string | undefined;
  /** The OAuth client (and user) behind an access token. */
  oauthClient?: string | undefined;
}

export interface ChargeRequest {
  operation: Operation;
  units: number;
  /** Default: a new random id. */
  requestId?: string | undefined;
  /** `x-idempotency-key`: a second charge under the same key is not made. */
  idempotencyKey?: string | undefined;
  /** The service's own once-only key (store/credit-ledger.ts `internalKey`), never a client's. */
  internalKey?: string | undefined;
}

/** An LLM call's usage, as the LLM layer reports it (RunOptions.onLlmUsage). */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  model?: string | undefined;
  /** What the tokens were spent on (`json`, `summary`, …). */
  operation?: string | undefined;
  requestId?: string | undefined;
}

export interface CreditUsageReport {
  remainingCredits: number;
  planCredits: number;
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
  unlimited?: true;
}

export interface TokenUsageReport {
  remainingTokens: number;
  planTokens: number;
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
  tokensUsed: number;
  unlimited: true;
}

export interface HistoricalPeriod {
  startDate: string;
  endDate: string;
  apiKey?: string;
}

export interface TeamAccounts {
  readonly plans: PlanSource;
  readonly prices: Readonly<Prices>;
  viewFor(teamId: string): Promise<TeamPlanView>;
  /**
   * 402 when the team cannot afford the least the operation costs; a retry of a charged
   * idempotency key passes. With `hold`, that least price stays held for the team until the signal
   * aborts (the request ended): requests admitted side by side are each checked against what the
   * others already hold, so parallel requests cannot spend the same credits (on this instance).
   */
  admit(payer: Payer, operation: Operation, factors: PageFactors, idempotencyKey?: string, hold?: AbortSignal): Promise<void>;
  /** 403 ZDR_NOT_ENABLED when `zeroDataRetention` was asked for and the team's plan does not allow it. */
  checkZdr(payer: Payer, requested: boolean): Promise<void>;
  charge(payer: Payer, charge: ChargeRequest): Promise<{ charged: boolean; units: number; requestId: string }>;
  /** Records LLM token usage for the caller's team; a no-op without a team (keyless, local). Never throws. */
  recordTokens(caller: Pick<Payer, 'teamId' | 'keyId' | 'oauthClient'> | { teamId?: string | undefined } | undefined, usage: LlmUsage): Promise<void>;
  creditUsage(teamId: string): Promise<CreditUsageReport>;
  creditHistory(teamId: string, byApiKey: boolean): Promise<(HistoricalPeriod & { creditsUsed: number })[]>;
  tokenUsage(teamId: string): Promise<TokenUsageReport>;
  tokenHistory(teamId: string, byApiKey: boolean): Promise<(HistoricalPeriod & { tokensUsed: number })[]>;
}

export interface TeamAccountsDeps {
  store: Pick<TeamPlanStore, 'getTeamPlan'> & CreditLedgerStore;
  defaults: Readonly<TeamPlan>;
  prices: Readonly<Prices>;
  /** A failure to record token usage (the request goes on). */
  onError?: (err: unknown, message: string) => void;
  now?: () => Date;
}

export function newRequestId(): string {
  return `req_${randomBytes(9).toString('base64url')}`;
}

const teamLabel = (p: Payer) => (p.teamName ? `'${p.teamName}'` : p.teamId);
const teamArg = (p: Payer) => (p.teamName && /^[\w.@-]+$/.test(p.teamName) ? p.teamName : `'${p.teamName ?? p.teamId}'`);

function periods<T extends string>(rows: UsagePeriod[], split: boolean, field: T): (HistoricalPeriod & Record<T, number>)[] {
  return rows.map((r) => {
    const [y, m] = r.month.split('-').map(Number) as [number, number];
    const start = new Date(Date.UTC(y, m - 1, 1));
    const end = new Date(Date.UTC(y, m, 1));
    const base: HistoricalPeriod = { startDate: start.toISOString(), endDate: end.toISOString() };
    if (split) base.apiKey = r.spender ?? 'unknown';
    return { ...base, [field]: r.units } as HistoricalPeriod & Record<T, number>;
  });
}

/**
 * The abort reason of a hold taken back to be held again at another price (a parse's options read
 * after its admission): no charge came before it, so it is no hold "given back" (below).
 */
export const REPRICED: unique symbol = Symbol('folio.credit-hold.repriced');

export function createTeamAccounts(deps: TeamAccountsDeps): TeamAccounts {
  const now = deps.now ?? (() => new Date());
  const plans = storePlans(deps.store, deps.defaults);
  /** Credits held by admitted requests still running, per team (this instance). */
  const held = new Map<string, number>();
  /**
   * Credits of holds given back so far, per team (this instance), ever growing: a hold given back
   * while an admission read the balance may have been charged after that read, so the admission
   * counts it as still held (below). A hold re-priced (REPRICED) is not counted: its request
   * holds again at once, and counting both made a concurrent admission see the credit held twice
   * and refuse a request the balance could pay (CI on PostgreSQL: 8 parses with 3 credits).
   */
  const released = new Map<string, number>();
  const holdFor = (teamId: string, amount: number, until: AbortSignal) => {
    if (amount <= 0 || until.aborted) return;
    held.set(teamId, (held.get(teamId) ?? 0) + amount);
    until.addEventListener(
      'abort',
      () => {
        const left = (held.get(teamId) ?? 0) - amount;
        if (left > 0) held.set(teamId, left);
        else held.delete(teamId);
        if (until.reason !== REPRICED) released.set(teamId, (released.get(teamId) ?? 0) + amount);
      },
      { once: true },
    );
  };
  return {
    plans,
    prices: deps.prices,
    viewFor: (teamId) => plans.viewFor(teamId),

    async admit(payer, operation, factors, idempotencyKey, hold) {
      const releasedBefore = released.get(payer.teamId) ?? 0;
      const { credits } = await plans.planFor(payer.teamId);
      if (credits === null) return;
      const price = minimumPrice(deps.prices, operation, factors);
      // A request answered while the balance was read gave its hold back after its charge, which
      // the read may not have seen: its hold still counts, or its credits would be spent twice.
      const heldNow = (held.get(payer.teamId) ?? 0) + (released.get(payer.teamId) ?? 0) - releasedBefore;
      if (credits - heldNow >= price) {
        if (hold) holdFor(payer.teamId, price, hold);
        return;
      }
      // A retry of a request that was charged is not charged again: let it through.
      if (idempotencyKey !== undefined && (await deps.store.hasCharge(payer.teamId, idempotencyKey))) return;
      const left = Math.max(0, credits);
      const running = heldNow > 0 && credits >= price ? `, ${heldNow} of them held by its requests still running,` : '';
      throw new ServiceError(
        'PAYMENT_REQUIRED',
        `Team ${teamLabel(payer)} has ${left} credit${left === 1 ? '' : 's'} left${running} and this ${operation.replace('_', ' ')} costs at least ${price}. ` +
          `Ask the operator to add credits (\`folio teams set ${teamArg(payer)} --add-credits <N>\`)${running ? ', or retry when those requests are done' : ''}.`,
      );
    },

    async checkZdr(payer, requested) {
      if (!requested) return;
      const { zdr } = await plans.planFor(payer.teamId);
      if (zdr) return;
      throw new ServiceError(
        'ZDR_NOT_ENABLED',
        `Zero Data Retention is not enabled for team ${teamLabel(payer)}. The operator enables it with \`folio teams set ${teamArg(payer)} --zdr on\`; until then, send the request without \`zeroDataRetention\`.`,
      );
    },

    async charge(payer, c) {
      const requestId = c.requestId ?? newRequestId();
      const { charged } = await deps.store.recordCharge({
        teamId: payer.teamId,
        operation: c.operation,
        units: c.units,
        keyId: payer.keyId,
        oauthClient: payer.oauthClient,
        requestId,
        idempotencyKey: c.idempotencyKey,
        internalKey: c.internalKey,
        at: now(),
      });
      return { charged, units: charged ? c.units : 0, requestId };
    },

    async recordTokens(caller, usage) {
      const teamId = caller?.teamId;
      if (teamId === undefined) return;
      const spender = caller as Partial<Payer>;
      try {
        await deps.store.recordTokenUsage({
          teamId,
          operation: usage.operation ?? 'llm',
          model: usage.model,
          inputTokens: Math.max(0, Math.round(usage.inputTokens)),
          outputTokens: Math.max(0, Math.round(usage.outputTokens)),
          keyId: spender.keyId,
          oauthClient: spender.oauthClient,
          requestId: usage.requestId,
          at: now(),
        });
      } catch (err) {
        deps.onError?.(err, 'could not record LLM token usage');
      }
    },

    async creditUsage(teamId) {
      const view = await plans.viewFor(teamId);
      if (view.planCredits === null) {
        return { remainingCredits: UNLIMITED_REPORTED, planCredits: UNLIMITED_REPORTED, billingPeriodStart: view.periodStart, billingPeriodEnd: null, unlimited: true };
      }
      return { remainingCredits: Math.max(0, view.credits ?? 0), planCredits: view.planCredits, billingPeriodStart: view.periodStart, billingPeriodEnd: null };
    },

    async creditHistory(teamId, byApiKey) {
      return periods(await deps.store.creditHistory(teamId, byApiKey), byApiKey, 'creditsUsed');
    },

    async tokenUsage(teamId) {
      const view = await plans.viewFor(teamId);
      const tokensUsed = await deps.store.tokensUsedSince(teamId, view.periodStart ?? undefined);
      return { remainingTokens: UNLIMITED_REPORTED, planTokens: UNLIMITED_REPORTED, billingPeriodStart: view.periodStart, billingPeriodEnd: null, tokensUsed, unlimited: true };
    },

    async tokenHistory(teamId, byApiKey) {
      return periods(await deps.store.tokenHistory(teamId, byApiKey), byApiKey, 'tokensUsed');
    },
  };
}
