/**
 * Schema migrations for the SQLite store, applied in order at open. `schema_migrations` records
 * which versions ran; a migration never changes once released (add a new one instead).
 */
import { OAUTH_CLIENTS_SQL } from './oauth-clients.ts';
import { OAUTH_TOKENS_SQL } from './oauth-tokens.ts';
import { UPLOAD_REFS_SQL } from './upload-refs.ts';
import { ACCOUNTS_SQL } from './accounts.ts';
import { TEAM_PLANS_SQL } from './team-plans.ts';
import { CREDIT_LEDGER_INTERNAL_KEY_SQL, CREDIT_LEDGER_SQL } from './credit-ledger.ts';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'teams and API keys',
    sql: `
      CREATE TABLE teams (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        created_at  TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id            TEXT PRIMARY KEY,
        team_id       TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        key_hash      TEXT NOT NULL UNIQUE,
        prefix        TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        last_used_at  TEXT,
        revoked_at    TEXT
      );
      CREATE INDEX api_keys_team ON api_keys(team_id);
    `,
  },
  { version: 2, description: 'upload refs (upload command → uploadRef)', sql: UPLOAD_REFS_SQL },
  {
    version: 3,
    description: 'OAuth signing keys and grants',
    sql: `
      CREATE TABLE signing_keys (
        kid          TEXT PRIMARY KEY,
        alg          TEXT NOT NULL,
        private_jwk  TEXT NOT NULL,
        public_jwk   TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        retired_at   TEXT
      );
      CREATE TABLE oauth_grants (
        id            TEXT PRIMARY KEY,
        client_id     TEXT NOT NULL,
        user_id       TEXT,
        team_id       TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        scope         TEXT NOT NULL,
        resource      TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        last_used_at  TEXT,
        revoked_at    TEXT
      );
      CREATE INDEX oauth_grants_team ON oauth_grants(team_id);
      CREATE INDEX oauth_grants_user ON oauth_grants(user_id);
    `,
  },
  {
    version: 4,
    description: 'keyless /v2/mcp daily usage by hashed client, and the hashing secret',
    sql: `
      CREATE TABLE keyless_usage (
        client  TEXT NOT NULL,
        day     TEXT NOT NULL,
        calls   INTEGER NOT NULL,
        PRIMARY KEY (client, day)
      );
      CREATE TABLE keyless_secret (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        secret      TEXT NOT NULL,
        created_at  TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    description: 'crawl jobs, their URL frontier and results',
    sql: `
      CREATE TABLE crawl_jobs (
        id           TEXT PRIMARY KEY,
        owner        TEXT NOT NULL,
        url          TEXT NOT NULL,
        options      TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('scraping', 'completed', 'failed', 'cancelled')),
        error        TEXT,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        finished_at  TEXT,
        expires_at   TEXT NOT NULL
      );
      CREATE INDEX crawl_jobs_owner ON crawl_jobs(owner, created_at);
      CREATE INDEX crawl_jobs_status ON crawl_jobs(status);
      CREATE INDEX crawl_jobs_expiry ON crawl_jobs(expires_at);
      CREATE TABLE crawl_urls (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id       TEXT NOT NULL REFERENCES crawl_jobs(id) ON DELETE CASCADE,
        url          TEXT NOT NULL,
        depth        INTEGER NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'blocked')),
        error        TEXT,
        finished_at  TEXT,
        UNIQUE (job_id, url)
      );
      CREATE INDEX crawl_urls_state ON crawl_urls(job_id, state, id);
      CREATE TABLE crawl_results (
        id      INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id  TEXT NOT NULL REFERENCES crawl_jobs(id) ON DELETE CASCADE,
        url     TEXT NOT NULL,
        data    TEXT NOT NULL
      );
      CREATE INDEX crawl_results_job ON crawl_results(job_id, id);
    `,
  },
  { version: 6, description: 'OAuth clients registered through RFC 7591', sql: OAUTH_CLIENTS_SQL },
  { version: 7, description: 'local accounts, team members, browser sessions, pending authorization requests', sql: ACCOUNTS_SQL },
  { version: 8, description: 'OAuth authorization codes and refresh tokens', sql: OAUTH_TOKENS_SQL },
  {
    version: 9,
    description: 'batch scrape jobs on the crawl job machinery: job kind, idempotency key',
    sql: `
      ALTER TABLE crawl_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'crawl' CHECK (kind IN ('crawl', 'batch'));
      ALTER TABLE crawl_jobs ADD COLUMN idempotency_key TEXT;
      CREATE UNIQUE INDEX crawl_jobs_idempotency ON crawl_jobs(owner, kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
    `,
  },
  { version: 10, description: 'team plans, the credits ledger and LLM token usage (issue 15)', sql: TEAM_PLANS_SQL + CREDIT_LEDGER_SQL },
  {
    version: 11,
    description: 'agent and extract jobs and their traces (issue 19)',
    sql: `
      CREATE TABLE agent_jobs (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('agent', 'extract')),
        owner         TEXT NOT NULL,
        request       TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('processing', 'completed', 'failed', 'cancelled')),
        data          TEXT,
        sources       TEXT,
        warning       TEXT,
        error         TEXT,
        credits_used  INTEGER NOT NULL DEFAULT 0,
        tokens_used   INTEGER NOT NULL DEFAULT 0,
        steps         INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        finished_at   TEXT,
        expires_at    TEXT NOT NULL
      );
      CREATE INDEX agent_jobs_owner ON agent_jobs(owner, kind, created_at);
      CREATE INDEX agent_jobs_status ON agent_jobs(status);
      CREATE TABLE agent_events (
        id      INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id  TEXT NOT NULL REFERENCES agent_jobs(id) ON DELETE CASCADE,
        event   TEXT NOT NULL
      );
      CREATE INDEX agent_events_job ON agent_events(job_id, id);
    `,
  },
  { version: 12, description: 'the credits ledger\'s internal keys: an agent job charged once, before it reads as ended', sql: CREDIT_LEDGER_INTERNAL_KEY_SQL },
];
