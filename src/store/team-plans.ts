/**
 * Team plans at rest (issue 15, docs/accounts.md): one row per team that the operator changed
 * with `folio teams set`, or that was charged. A column left NULL means "the configured default"
 * (FOLIO_DEFAULT_*), so that changing a default reaches every team that never had its own value.
 *
 * Credits: `plan_credits` is the period's allowance (NULL: FOLIO_DEFAULT_CREDITS, -1: unlimited),
 * `credits_used` what the period's charges spent; the balance is their difference. Charges are
 * written with the ledger row in one transaction (store/credit-ledger.ts).
 */
import type Database from 'better-sqlite3';

/** `-1` in an INTEGER column: no limit. */
export const UNLIMITED = -1;

export const TEAM_PLANS_SQL = `
  CREATE TABLE team_plans (
    team_id          TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
    plan_credits     INTEGER,
    credits_used     INTEGER NOT NULL DEFAULT 0,
    period_start     TEXT,
    rate_per_minute  INTEGER,
    max_concurrent   INTEGER,
    zdr              INTEGER CHECK (zdr IN (0, 1)),
    siem             TEXT,
    updated_at       TEXT NOT NULL
  );
`;

/** A team's own plan settings; `undefined` fields are the configured defaults. */
export interface TeamPlanRecord {
  teamId: string;
  /** The period's allowance: a number, `null` for unlimited; undefined: the default. */
  planCredits: number | null | undefined;
  /** Spent in the current period. */
  creditsUsed: number;
  /** ISO 8601; undefined: since the team was created. */
  periodStart: string | undefined;
  ratePerMinute: number | null | undefined;
  maxConcurrent: number | undefined;
  zdr: boolean | undefined;
  /** A sink, `null` for none; undefined: the default. */
  siem: string | null | undefined;
  updatedAt: string;
}

/** What `folio teams set` changes; absent fields stay as they are. */
export interface TeamPlanChange {
  /** Sets the allowance and starts a new period (spent back to 0). */
  credits?: number | null;
  /** Adds to the allowance of the current period (the default's value when the team has none). */
  addCredits?: { amount: number; defaultCredits: number | null };
  ratePerMinute?: number | null;
  maxConcurrent?: number;
  zdr?: boolean;
  siem?: string | null;
}

export interface TeamPlanStore {
  getTeamPlan(teamId: string): Promise<TeamPlanRecord | undefined>;
  /** Applies the change in one transaction and returns the row after it. */
  updateTeamPlan(teamId: string, change: TeamPlanChange, at: Date): Promise<TeamPlanRecord>;
  /** Every team with its own row, by team id. */
  listTeamPlans(): Promise<TeamPlanRecord[]>;
}

export interface TeamPlanRow {
  team_id: string;
  plan_credits: number | null;
  credits_used: number;
  period_start: string | null;
  rate_per_minute: number | null;
  max_concurrent: number | null;
  zdr: number | null;
  siem: string | null;
  updated_at: string;
}

const limitOf = (v: number | null): number | null | undefined => (v === null ? undefined : v === UNLIMITED ? null : v);
export const limitColumn = (v: number | null): number => (v === null ? UNLIMITED : v);

export function toTeamPlanRecord(row: TeamPlanRow): TeamPlanRecord {
  return {
    teamId: row.team_id,
    planCredits: limitOf(row.plan_credits),
    creditsUsed: row.credits_used,
    periodStart: row.period_start ?? undefined,
    ratePerMinute: limitOf(row.rate_per_minute),
    maxConcurrent: row.max_concurrent ?? undefined,
    zdr: row.zdr === null ? undefined : row.zdr === 1,
    siem: row.siem === null ? undefined : row.siem === '' ? null : row.siem,
    updatedAt: row.updated_at,
  };
}

export class UnlimitedCreditsError extends Error {
  constructor() {
    super('the team has unlimited credits: give it a number first with --credits N');
    this.name = 'UnlimitedCreditsError';
  }
}

export function sqliteTeamPlanStore(db: Database.Database): TeamPlanStore {
  const q = {
    get: db.prepare<[string], TeamPlanRow>('SELECT * FROM team_plans WHERE team_id = ?'),
    all: db.prepare<[], TeamPlanRow>('SELECT * FROM team_plans ORDER BY team_id'),
    ensure: db.prepare('INSERT INTO team_plans (team_id, updated_at) VALUES (?, ?) ON CONFLICT (team_id) DO NOTHING'),
    setCredits: db.prepare('UPDATE team_plans SET plan_credits = ?, credits_used = 0, period_start = ?, updated_at = ? WHERE team_id = ?'),
    setAllowance: db.prepare('UPDATE team_plans SET plan_credits = ?, updated_at = ? WHERE team_id = ?'),
    setRate: db.prepare('UPDATE team_plans SET rate_per_minute = ?, updated_at = ? WHERE team_id = ?'),
    setConcurrent: db.prepare('UPDATE team_plans SET max_concurrent = ?, updated_at = ? WHERE team_id = ?'),
    setZdr: db.prepare('UPDATE team_plans SET zdr = ?, updated_at = ? WHERE team_id = ?'),
    setSiem: db.prepare('UPDATE team_plans SET siem = ?, updated_at = ? WHERE team_id = ?'),
  };
  const update = db.transaction((teamId: string, change: TeamPlanChange, at: string): TeamPlanRow => {
    q.ensure.run(teamId, at);
    if (change.credits !== undefined) q.setCredits.run(limitColumn(change.credits), at, at, teamId);
    if (change.addCredits !== undefined) {
      const row = q.get.get(teamId);
      const current = row?.plan_credits ?? limitColumn(change.addCredits.defaultCredits);
      if (current === UNLIMITED) throw new UnlimitedCreditsError();
      q.setAllowance.run(current + change.addCredits.amount, at, teamId);
    }
    if (change.ratePerMinute !== undefined) q.setRate.run(limitColumn(change.ratePerMinute), at, teamId);
    if (change.maxConcurrent !== undefined) q.setConcurrent.run(change.maxConcurrent, at, teamId);
    if (change.zdr !== undefined) q.setZdr.run(change.zdr ? 1 : 0, at, teamId);
    if (change.siem !== undefined) q.setSiem.run(change.siem ?? '', at, teamId);
    const row = q.get.get(teamId);
    if (!row) throw new Error('team plan update did not persist');
    return row;
  });
  return {
    async getTeamPlan(teamId) {
      const row = q.get.get(teamId);
      return row ? toTeamPlanRecord(row) : undefined;
    },
    async updateTeamPlan(teamId, change, at) {
      return toTeamPlanRecord(update.immediate(teamId, change, at.toISOString()));
    },
    async listTeamPlans() {
      return q.all.all().map(toTeamPlanRecord);
    },
  };
}
