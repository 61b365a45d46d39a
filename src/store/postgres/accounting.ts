/**
 * Team plans and the credits ledger on PostgreSQL (store/team-plans.ts, store/credit-ledger.ts).
 * A charge inserts its ledger row and adds its units to the team's `credits_used` in one
 * transaction; the addition is an upsert on the row, so parallel charges from several instances
 * are each counted once, and a repeated idempotency key is not counted again.
 */
import type { Pool } from 'pg';
import type { CreditLedgerStore, UsagePeriod } from '../credit-ledger.ts';
import { limitColumn, toTeamPlanRecord, UNLIMITED, UnlimitedCreditsError, type TeamPlanRow, type TeamPlanStore } from '../team-plans.ts';
import { row, rows, transaction } from './db.ts';

export function postgresTeamPlanStore(pool: Pool): TeamPlanStore {
  return {
    async getTeamPlan(teamId) {
      const r = await row<TeamPlanRow>(pool, 'SELECT * FROM team_plans WHERE team_id = $1', [teamId]);
      return r ? toTeamPlanRecord(r) : undefined;
    },
    async updateTeamPlan(teamId, change, at) {
      const when = at.toISOString();
      const updated = await transaction(pool, async (client) => {
        await client.query('INSERT INTO team_plans (team_id, updated_at) VALUES ($1, $2) ON CONFLICT (team_id) DO NOTHING', [teamId, when]);
        const current = await row<TeamPlanRow>(client, 'SELECT * FROM team_plans WHERE team_id = $1 FOR UPDATE', [teamId]);
        const set = (column: string, value: unknown) => client.query(`UPDATE team_plans SET ${column} = $1, updated_at = $2 WHERE team_id = $3`, [value, when, teamId]);
        if (change.credits !== undefined) {
          await client.query('UPDATE team_plans SET plan_credits = $1, credits_used = 0, period_start = $2, updated_at = $2 WHERE team_id = $3', [limitColumn(change.credits), when, teamId]);
        }
        if (change.addCredits !== undefined) {
          const afterSet = change.credits !== undefined ? limitColumn(change.credits) : current?.plan_credits;
          const allowance = afterSet ?? limitColumn(change.addCredits.defaultCredits);
          if (allowance === UNLIMITED) throw new UnlimitedCreditsError();
          await set('plan_credits', allowance + change.addCredits.amount);
        }
        if (change.ratePerMinute !== undefined) await set('rate_per_minute', limitColumn(change.ratePerMinute));
        if (change.maxConcurrent !== undefined) await set('max_concurrent', change.maxConcurrent);
        if (change.zdr !== undefined) await set('zdr', change.zdr ? 1 : 0);
        if (change.siem !== undefined) await set('siem', change.siem ?? '');
        return row<TeamPlanRow>(client, 'SELECT * FROM team_plans WHERE team_id = $1', [teamId]);
      });
      if (!updated) throw new Error('team plan update did not persist');
      return toTeamPlanRecord(updated);
    },
    async listTeamPlans() {
      return (await rows<TeamPlanRow>(pool, 'SELECT * FROM team_plans ORDER BY team_id')).map(toTeamPlanRecord);
    },
  };
}

type PeriodRow = { month: string; spender: string | null; units: number };

const SPENDER = `CASE WHEN key_id IS NOT NULL THEN key_id WHEN oauth_client IS NOT NULL THEN 'oauth:' || oauth_client END`;

export function postgresCreditLedgerStore(pool: Pool): CreditLedgerStore {
  const history = async (table: 'credit_ledger' | 'token_usage', teamId: string, bySpender: boolean): Promise<UsagePeriod[]> => {
    const units = table === 'credit_ledger' ? 'units' : 'input_tokens + output_tokens';
    const spender = bySpender ? SPENDER : 'NULL';
    const group = bySpender ? 'month, spender' : 'month';
    const found = await rows<PeriodRow>(
      pool,
      `SELECT substr(at, 1, 7) AS month, ${spender} AS spender, SUM(${units})::int8 AS units FROM ${table} WHERE team_id = $1
       GROUP BY ${group} ORDER BY ${group}`,
      [teamId],
    );
    return found.map((r) => ({ month: r.month, units: r.units, ...(bySpender ? { spender: r.spender } : {}) }));
  };
  return {
    async recordCharge(c) {
      const at = c.at.toISOString();
      const charged = await transaction(pool, async (client) => {
        const inserted = await rows(
          client,
          `INSERT INTO credit_ledger (at, team_id, operation, units, key_id, oauth_client, request_id, idempotency_key, internal_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING id`,
          [at, c.teamId, c.operation, c.units, c.keyId ?? null, c.oauthClient ?? null, c.requestId, c.idempotencyKey ?? null, c.internalKey ?? null],
        );
        if (inserted.length === 0) return false;
        await client.query(
          `INSERT INTO team_plans (team_id, credits_used, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (team_id) DO UPDATE SET credits_used = team_plans.credits_used + EXCLUDED.credits_used`,
          [c.teamId, c.units, at],
        );
        return true;
      });
      return { charged };
    },
    async hasCharge(teamId, idempotencyKey) {
      return (await rows(pool, 'SELECT 1 FROM credit_ledger WHERE team_id = $1 AND idempotency_key = $2', [teamId, idempotencyKey])).length > 0;
    },
    async spenderOfRequest(requestId) {
      const r = await row<{ key_id: string | null; oauth_client: string | null }>(pool, 'SELECT key_id, oauth_client FROM credit_ledger WHERE request_id = $1 ORDER BY id LIMIT 1', [requestId]);
      if (!r) return undefined;
      return { ...(r.key_id ? { keyId: r.key_id } : {}), ...(r.oauth_client ? { oauthClient: r.oauth_client } : {}) };
    },
    creditHistory: (teamId, bySpender) => history('credit_ledger', teamId, bySpender),
    async recordTokenUsage(u) {
      await pool.query(
        `INSERT INTO token_usage (at, team_id, operation, model, input_tokens, output_tokens, key_id, oauth_client, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [u.at.toISOString(), u.teamId, u.operation, u.model ?? null, u.inputTokens, u.outputTokens, u.keyId ?? null, u.oauthClient ?? null, u.requestId ?? null],
      );
    },
    async tokensUsedSince(teamId, since) {
      const r = await row<{ n: number | null }>(pool, 'SELECT SUM(input_tokens + output_tokens)::int8 AS n FROM token_usage WHERE team_id = $1 AND at >= $2', [teamId, since ?? '']);
      return r?.n ?? 0;
    },
    tokenHistory: (teamId, bySpender) => history('token_usage', teamId, bySpender),
  };
}
