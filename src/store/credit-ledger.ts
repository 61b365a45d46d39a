/**
 * The credits ledger and the LLM token usage of teams (issue 15, docs/billing.md).
 *
 * Each charge is a row (time, team, operation, units, API key id or OAuth client, request id,
 * idempotency key), written in the same transaction that adds its units to the team's
 * `credits_used` (store/team-plans.ts): the balance never disagrees with the ledger. A charge
 * whose idempotency key the team already used is not written again, nor one whose internal key
 * (the service's own, a separate column: migration 12) it already has.
 */
import type Database from 'better-sqlite3';

export const CREDIT_LEDGER_SQL = `
  CREATE TABLE credit_ledger (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    at               TEXT NOT NULL,
    team_id          TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    operation        TEXT NOT NULL,
    units            INTEGER NOT NULL,
    key_id           TEXT,
    oauth_client     TEXT,
    request_id       TEXT NOT NULL,
    idempotency_key  TEXT
  );
  CREATE UNIQUE INDEX credit_ledger_idempotency ON credit_ledger(team_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX credit_ledger_team ON credit_ledger(team_id, at);
  CREATE INDEX credit_ledger_request ON credit_ledger(request_id);
  CREATE TABLE token_usage (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    at             TEXT NOT NULL,
    team_id        TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    operation      TEXT NOT NULL,
    model          TEXT,
    input_tokens   INTEGER NOT NULL,
    output_tokens  INTEGER NOT NULL,
    key_id         TEXT,
    oauth_client   TEXT,
    request_id     TEXT
  );
  CREATE INDEX token_usage_team ON token_usage(team_id, at);
`;

/** Migration 12: the service's own once-only keys, in a column clients cannot write. */
export const CREDIT_LEDGER_INTERNAL_KEY_SQL = `
  ALTER TABLE credit_ledger ADD COLUMN internal_key TEXT;
  CREATE UNIQUE INDEX credit_ledger_internal ON credit_ledger(team_id, internal_key) WHERE internal_key IS NOT NULL;
`;

/** Who spent: an API key, or an OAuth client (its id, and the user when known). */
export interface Spender {
  keyId?: string | undefined;
  oauthClient?: string | undefined;
}

export interface CreditCharge extends Spender {
  teamId: string;
  /** `parse`, `scrape`, `search`, `map`, `crawl`, `batch_scrape`, `mcp:<tool>`. */
  operation: string;
  units: number;
  requestId: string;
  idempotencyKey?: string | undefined;
  /**
   * A key the service sets itself (an agent job's end: `agent-job:<id>`), kept apart from the
   * clients' idempotency keys so that no client can send it first: a second charge under it is
   * not made. Lets a charge be made before the work reads as finished, and again after a crash.
   */
  internalKey?: string | undefined;
  at: Date;
}

export interface TokenUsageRecord extends Spender {
  teamId: string;
  operation: string;
  model?: string | undefined;
  inputTokens: number;
  outputTokens: number;
  requestId?: string | undefined;
  at: Date;
}

/** Usage summed per calendar month (UTC), optionally per key or OAuth client. */
export interface UsagePeriod {
  /** `YYYY-MM`. */
  month: string;
  /** The key id (`key_…`) or `oauth:<client>`; undefined when not split, null when neither was recorded. */
  spender?: string | null;
  units: number;
}

export interface CreditLedgerStore {
  /** Writes the charge unless the team already used its idempotency key; `charged` says which. */
  recordCharge(charge: CreditCharge): Promise<{ charged: boolean }>;
  /** Whether the team has a charge under this idempotency key. */
  hasCharge(teamId: string, idempotencyKey: string): Promise<boolean>;
  /** The spender of the first charge of a request (a crawl job's start), for the charges that follow it. */
  spenderOfRequest(requestId: string): Promise<Spender | undefined>;
  creditHistory(teamId: string, bySpender: boolean): Promise<UsagePeriod[]>;
  recordTokenUsage(usage: TokenUsageRecord): Promise<void>;
  /** Tokens (input + output) used since the given time. */
  tokensUsedSince(teamId: string, since: string | undefined): Promise<number>;
  tokenHistory(teamId: string, bySpender: boolean): Promise<UsagePeriod[]>;
}

interface PeriodRow {
  month: string;
  spender: string | null;
  units: number;
}

export function sqliteCreditLedgerStore(db: Database.Database): CreditLedgerStore {
  const spender = `CASE WHEN key_id IS NOT NULL THEN key_id WHEN oauth_client IS NOT NULL THEN 'oauth:' || oauth_client END`;
  const q = {
    insert: db.prepare(
      `INSERT INTO credit_ledger (at, team_id, operation, units, key_id, oauth_client, request_id, idempotency_key, internal_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    ensurePlan: db.prepare('INSERT INTO team_plans (team_id, updated_at) VALUES (?, ?) ON CONFLICT (team_id) DO NOTHING'),
    spend: db.prepare('UPDATE team_plans SET credits_used = credits_used + ? WHERE team_id = ?'),
    has: db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM credit_ledger WHERE team_id = ? AND idempotency_key = ?'),
    ofRequest: db.prepare<[string], { key_id: string | null; oauth_client: string | null }>(
      'SELECT key_id, oauth_client FROM credit_ledger WHERE request_id = ? ORDER BY id LIMIT 1',
    ),
    credits: db.prepare<[string], PeriodRow>(
      `SELECT substr(at, 1, 7) AS month, NULL AS spender, SUM(units) AS units FROM credit_ledger WHERE team_id = ? GROUP BY month ORDER BY month`,
    ),
    creditsBySpender: db.prepare<[string], PeriodRow>(
      `SELECT substr(at, 1, 7) AS month, ${spender} AS spender, SUM(units) AS units FROM credit_ledger WHERE team_id = ?
       GROUP BY month, spender ORDER BY month, spender`,
    ),
    insertTokens: db.prepare(
      `INSERT INTO token_usage (at, team_id, operation, model, input_tokens, output_tokens, key_id, oauth_client, request_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    tokensSince: db.prepare<[string, string], { n: number | null }>(
      'SELECT SUM(input_tokens + output_tokens) AS n FROM token_usage WHERE team_id = ? AND at >= ?',
    ),
    tokens: db.prepare<[string], PeriodRow>(
      `SELECT substr(at, 1, 7) AS month, NULL AS spender, SUM(input_tokens + output_tokens) AS units FROM token_usage WHERE team_id = ?
       GROUP BY month ORDER BY month`,
    ),
    tokensBySpender: db.prepare<[string], PeriodRow>(
      `SELECT substr(at, 1, 7) AS month, ${spender} AS spender, SUM(input_tokens + output_tokens) AS units FROM token_usage WHERE team_id = ?
       GROUP BY month, spender ORDER BY month, spender`,
    ),
  };
  const charge = db.transaction((c: CreditCharge): boolean => {
    const at = c.at.toISOString();
    const inserted = q.insert.run(at, c.teamId, c.operation, c.units, c.keyId ?? null, c.oauthClient ?? null, c.requestId, c.idempotencyKey ?? null, c.internalKey ?? null).changes === 1;
    if (!inserted) return false;
    q.ensurePlan.run(c.teamId, at);
    q.spend.run(c.units, c.teamId);
    return true;
  });
  const periods = (rows: PeriodRow[], split: boolean): UsagePeriod[] =>
    rows.map((r) => ({ month: r.month, units: r.units, ...(split ? { spender: r.spender } : {}) }));
  return {
    async recordCharge(c) {
      return { charged: charge.immediate(c) };
    },
    async hasCharge(teamId, idempotencyKey) {
      return q.has.get(teamId, idempotencyKey) !== undefined;
    },
    async spenderOfRequest(requestId) {
      const row = q.ofRequest.get(requestId);
      if (!row) return undefined;
      return { ...(row.key_id ? { keyId: row.key_id } : {}), ...(row.oauth_client ? { oauthClient: row.oauth_client } : {}) };
    },
    async creditHistory(teamId, bySpender) {
      return periods((bySpender ? q.creditsBySpender : q.credits).all(teamId), bySpender);
    },
    async recordTokenUsage(u) {
      q.insertTokens.run(u.at.toISOString(), u.teamId, u.operation, u.model ?? null, u.inputTokens, u.outputTokens, u.keyId ?? null, u.oauthClient ?? null, u.requestId ?? null);
    },
    async tokensUsedSince(teamId, since) {
      return q.tokensSince.get(teamId, since ?? '')?.n ?? 0;
    },
    async tokenHistory(teamId, bySpender) {
      return periods((bySpender ? q.tokensBySpender : q.tokens).all(teamId), bySpender);
    },
  };
}
