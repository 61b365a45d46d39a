/**
 * The store-backed PlanSource: a team's own row (`folio teams set`) over the configured defaults
 * (FOLIO_DEFAULT_*). A team without a row is on the defaults.
 */
import type { TeamPlanRecord, TeamPlanStore } from '../store/team-plans.ts';
import type { PlanSource, TeamPlan } from './plan.ts';

/** A team's plan with its credits as the period's allowance and what was spent of it. */
export interface TeamPlanView extends TeamPlan {
  /** The period's allowance; null: unlimited. */
  planCredits: number | null;
  creditsUsed: number;
  /** ISO 8601, or null: since the team began. */
  periodStart: string | null;
  /** Which settings are the team's own (the others are the defaults). */
  own: readonly (keyof TeamPlan)[];
}

export function planView(row: TeamPlanRecord | undefined, defaults: Readonly<TeamPlan>): TeamPlanView {
  const planCredits = row?.planCredits === undefined ? defaults.credits : row.planCredits;
  const creditsUsed = row?.creditsUsed ?? 0;
  const own: (keyof TeamPlan)[] = [];
  if (row?.planCredits !== undefined) own.push('credits');
  if (row?.ratePerMinute !== undefined) own.push('ratePerMinute');
  if (row?.maxConcurrent !== undefined) own.push('maxConcurrent');
  if (row?.zdr !== undefined) own.push('zdr');
  if (row?.siem !== undefined) own.push('siem');
  return {
    credits: planCredits === null ? null : planCredits - creditsUsed,
    ratePerMinute: row?.ratePerMinute === undefined ? defaults.ratePerMinute : row.ratePerMinute,
    maxConcurrent: row?.maxConcurrent ?? defaults.maxConcurrent,
    zdr: row?.zdr ?? defaults.zdr,
    siem: row?.siem === undefined ? defaults.siem : row.siem,
    planCredits,
    creditsUsed,
    periodStart: row?.periodStart ?? null,
    own,
  };
}

/** Plans from the store, falling back to `defaults` per setting. */
export function storePlans(store: Pick<TeamPlanStore, 'getTeamPlan'>, defaults: Readonly<TeamPlan>): PlanSource & { viewFor(teamId: string): Promise<TeamPlanView> } {
  const viewFor = async (teamId: string) => planView(await store.getTeamPlan(teamId), defaults);
  return {
    viewFor,
    async planFor(teamId) {
      const { credits, ratePerMinute, maxConcurrent, zdr, siem } = await viewFor(teamId);
      return { credits, ratePerMinute, maxConcurrent, zdr, siem };
    },
  };
}
