/**
 * Accounts (issue 15, docs/accounts.md, docs/billing.md): team plans in the store, the credits
 * ledger and its prices, the refusals before work (402 PAYMENT_REQUIRED, 403 ZDR_NOT_ENABLED) and
 * LLM token usage. The doors (src/http, src/mcp, src/cli) reach it through this file only (and the
 * shared `plan.ts` seam); it imports no door.
 */
export { fixedPlans, type PlanSource, type TeamPlan } from './plan.ts';
export { factorsOf, minimumPrice, priceOf, priceOfData, browserMinutesPrice, NO_SURCHARGE, type Operation, type PageFactors, type Prices } from './prices.ts';
export { requestFactors, wantsZdr } from './requests.ts';
export { planView, storePlans, type TeamPlanView } from './store-plans.ts';
export { chargeJobPages, type JobEvents } from './job-pages.ts';
export { startedJobId, toolBilling, toolPrice, type ToolBilling } from './tool-calls.ts';
export {
  createTeamAccounts,
  newRequestId,
  REPRICED,
  UNLIMITED_REPORTED,
  type ChargeRequest,
  type CreditUsageReport,
  type LlmUsage,
  type Payer,
  type TeamAccounts,
  type TokenUsageReport,
} from './team-accounts.ts';
