/**
 * A team's plan (issue 15): what it may spend and how fast. `PlanSource` is the one question every
 * door asks; the embedded default answers from configuration (FOLIO_DEFAULT_*), the store-backed
 * source (operator CLI `folio teams set`) overrides it per team.
 */

export interface TeamPlan {
  /** Credits left; null = unlimited (the self-hoster's default). */
  credits: number | null;
  /** Requests per minute, all doors together; null = no limit. */
  ratePerMinute: number | null;
  /** Jobs running at once (parses, scrapes, crawl pages); further ones wait in the team's queue. */
  maxConcurrent: number;
  /** Whether `zeroDataRetention: true` is allowed. */
  zdr: boolean;
  /** Where SIEM audit events go: a file path, an https URL, `syslog://host:port`; null = none. */
  siem: string | null;
}

export interface PlanSource {
  planFor(teamId: string): Promise<TeamPlan>;
}

/** Every team on the same configured defaults (no per-team rows yet). */
export function fixedPlans(defaults: TeamPlan): PlanSource {
  const frozen = Object.freeze({ ...defaults });
  return { planFor: async () => ({ ...frozen }) };
}
