/**
 * Schema migrations of the PostgreSQL store, applied in order at start and by `folio migrate`.
 * Like SQLite's (src/store/migrations.ts), `schema_migrations` records which versions ran and a
 * released migration never changes; the two engines keep their own numbering. Version 1 is the
 * schema SQLite reached at its migration 10.
 *
 * Times stay ISO 8601 UTC text, as on SQLite: they sort as they compare, and the store hands the
 * same strings back on both engines. `seq` columns give rows an insertion order (SQLite's rowid).
 */
import type { Pool } from 'pg';
import { lockFor, rows, transaction } from './db.ts';

export interface PostgresMigration {
  version: number;
  description: string;
  sql: string;
}

const SCHEMA_V1 = `
  CREATE TABLE teams (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    seq           BIGINT GENERATED ALWAYS AS IDENTITY,
    team_id       TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    key_hash      TEXT NOT NULL UNIQUE,
    prefix        TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
  );
  CREATE INDEX api_keys_team ON api_keys(team_id);

  CREATE TABLE upload_refs (
    id            TEXT PRIMARY KEY,
    ref_hash      TEXT NOT NULL UNIQUE,
    token_hash    TEXT NOT NULL UNIQUE,
    sealed_ref    TEXT NOT NULL,
    owner         TEXT NOT NULL,
    filename      TEXT NOT NULL,
    content_type  TEXT,
    size          BIGINT,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'uploading', 'uploaded', 'taken')),
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL
  );
  CREATE INDEX upload_refs_owner ON upload_refs(owner, expires_at);
  CREATE INDEX upload_refs_expires ON upload_refs(expires_at);

  CREATE TABLE signing_keys (
    kid          TEXT PRIMARY KEY,
    seq          BIGINT GENERATED ALWAYS AS IDENTITY,
    alg          TEXT NOT NULL,
    private_jwk  TEXT NOT NULL,
    public_jwk   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    retired_at   TEXT
  );
  CREATE TABLE oauth_grants (
    id            TEXT PRIMARY KEY,
    seq           BIGINT GENERATED ALWAYS AS IDENTITY,
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

  CREATE TABLE crawl_jobs (
    id               TEXT PRIMARY KEY,
    seq              BIGINT GENERATED ALWAYS AS IDENTITY,
    kind             TEXT NOT NULL DEFAULT 'crawl' CHECK (kind IN ('crawl', 'batch')),
    owner            TEXT NOT NULL,
    url              TEXT NOT NULL,
    options          TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('scraping', 'completed', 'failed', 'cancelled')),
    error            TEXT,
    idempotency_key  TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    finished_at      TEXT,
    expires_at       TEXT NOT NULL
  );
  CREATE INDEX crawl_jobs_owner ON crawl_jobs(owner, created_at);
  CREATE INDEX crawl_jobs_status ON crawl_jobs(status);
  CREATE INDEX crawl_jobs_expiry ON crawl_jobs(expires_at);
  CREATE UNIQUE INDEX crawl_jobs_idempotency ON crawl_jobs(owner, kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE TABLE crawl_urls (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id  TEXT NOT NULL REFERENCES crawl_jobs(id) ON DELETE CASCADE,
    url     TEXT NOT NULL,
    data    TEXT NOT NULL
  );
  CREATE INDEX crawl_results_job ON crawl_results(job_id, id);

  CREATE TABLE oauth_clients (
    id             TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('dcr')),
    name           TEXT,
    redirect_uris  TEXT NOT NULL,
    metadata       TEXT NOT NULL,
    created_at     TEXT NOT NULL
  );

  CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    seq            BIGINT GENERATED ALWAYS AS IDENTITY,
    email          TEXT NOT NULL UNIQUE,
    password_hash  TEXT NOT NULL,
    created_at     TEXT NOT NULL
  );
  CREATE TABLE team_members (
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    team_id     TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, team_id)
  );
  CREATE TABLE sessions (
    id_hash     TEXT PRIMARY KEY,
    user_id     TEXT REFERENCES users(id) ON DELETE CASCADE,
    csrf_token  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL
  );
  CREATE INDEX sessions_expiry ON sessions(expires_at);
  CREATE TABLE authorization_requests (
    id            TEXT PRIMARY KEY,
    session_hash  TEXT NOT NULL REFERENCES sessions(id_hash) ON DELETE CASCADE ON UPDATE CASCADE,
    params        TEXT NOT NULL,
    team_id       TEXT REFERENCES teams(id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL
  );
  CREATE INDEX authorization_requests_expiry ON authorization_requests(expires_at);

  CREATE TABLE authorization_codes (
    code_hash       TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    team_id         TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    scope           TEXT NOT NULL,
    resource        TEXT NOT NULL,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    used_at         TEXT,
    grant_id        TEXT REFERENCES oauth_grants(id) ON DELETE SET NULL
  );
  CREATE INDEX authorization_codes_expiry ON authorization_codes(expires_at);
  CREATE TABLE refresh_tokens (
    token_hash  TEXT PRIMARY KEY,
    grant_id    TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL,
    scope       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    rotated_at  TEXT
  );
  CREATE INDEX refresh_tokens_grant ON refresh_tokens(grant_id);
  CREATE INDEX refresh_tokens_expiry ON refresh_tokens(expires_at);

  CREATE TABLE team_plans (
    team_id          TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
    plan_credits     BIGINT,
    credits_used     BIGINT NOT NULL DEFAULT 0,
    period_start     TEXT,
    rate_per_minute  INTEGER,
    max_concurrent   INTEGER,
    zdr              SMALLINT CHECK (zdr IN (0, 1)),
    siem             TEXT,
    updated_at       TEXT NOT NULL
  );
  CREATE TABLE credit_ledger (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at               TEXT NOT NULL,
    team_id          TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    operation        TEXT NOT NULL,
    units            BIGINT NOT NULL,
    key_id           TEXT,
    oauth_client     TEXT,
    request_id       TEXT NOT NULL,
    idempotency_key  TEXT
  );
  CREATE UNIQUE INDEX credit_ledger_idempotency ON credit_ledger(team_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX credit_ledger_team ON credit_ledger(team_id, at);
  CREATE INDEX credit_ledger_request ON credit_ledger(request_id);
  CREATE TABLE token_usage (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at             TEXT NOT NULL,
    team_id        TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    operation      TEXT NOT NULL,
    model          TEXT,
    input_tokens   BIGINT NOT NULL,
    output_tokens  BIGINT NOT NULL,
    key_id         TEXT,
    oauth_client   TEXT,
    request_id     TEXT
  );
  CREATE INDEX token_usage_team ON token_usage(team_id, at);
`;

/** SQLite's migration 11: agent and extract jobs and their traces (docs/agent.md). */
const AGENT_JOBS_V2 = `
  CREATE TABLE agent_jobs (
    id            TEXT PRIMARY KEY,
    seq           BIGINT GENERATED ALWAYS AS IDENTITY,
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
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id  TEXT NOT NULL REFERENCES agent_jobs(id) ON DELETE CASCADE,
    event   TEXT NOT NULL
  );
  CREATE INDEX agent_events_job ON agent_events(job_id, id);
`;

/**
 * The shared blob store's objects when FOLIO_BLOB_URL=postgres (src/blobs/postgres-storage.ts):
 * uploaded files and browser captures as 1 MiB bytea chunks, deleted with their object row.
 * Chunks are mostly compressed formats (PDF, DOCX, PNG): stored EXTERNAL, without pglz attempts.
 */
const BLOBS_V3 = `
  CREATE TABLE blobs (
    namespace    TEXT NOT NULL,
    key          TEXT NOT NULL,
    complete     BOOLEAN NOT NULL DEFAULT FALSE,
    size         BIGINT NOT NULL DEFAULT 0,
    modified_at  TEXT NOT NULL,
    PRIMARY KEY (namespace, key)
  );
  CREATE TABLE blob_chunks (
    namespace  TEXT NOT NULL,
    key        TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    data       BYTEA NOT NULL,
    PRIMARY KEY (namespace, key, seq),
    FOREIGN KEY (namespace, key) REFERENCES blobs(namespace, key) ON DELETE CASCADE
  );
  ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
`;

/** The service's own once-only charge keys, apart from the clients' idempotency keys. */
const LEDGER_INTERNAL_KEY_V4 = `
  ALTER TABLE credit_ledger ADD COLUMN internal_key TEXT;
  CREATE UNIQUE INDEX credit_ledger_internal ON credit_ledger(team_id, internal_key) WHERE internal_key IS NOT NULL;
`;

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, description: 'teams, keys, upload refs, OAuth, keyless usage, crawl jobs, accounts, plans and the credits ledger (SQLite 1–10)', sql: SCHEMA_V1 },
  { version: 2, description: 'agent and extract jobs and their traces (SQLite 11)', sql: AGENT_JOBS_V2 },
  { version: 3, description: 'the shared blob store: uploaded files and captures (FOLIO_BLOB_URL=postgres)', sql: BLOBS_V3 },
  { version: 4, description: 'the credits ledger\'s internal keys (SQLite 12)', sql: LEDGER_INTERNAL_KEY_V4 },
];

/**
 * Applies every migration the database lacks, each in its own transaction (PostgreSQL DDL is
 * transactional) under one advisory lock, so that instances starting together apply it once.
 * Returns the versions this call applied.
 */
export async function migratePostgres(pool: Pool, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  await transaction(pool, async (client) => {
    await lockFor(client, 'folio:schema_migrations');
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version     INTEGER PRIMARY KEY,
      description TEXT NOT NULL,
      applied_at  TEXT NOT NULL
    )`);
  });
  for (const m of migrations) {
    await transaction(pool, async (client) => {
      await lockFor(client, 'folio:schema_migrations');
      const done = await rows(client, 'SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (done.length > 0) return;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, description, applied_at) VALUES ($1, $2, $3)', [m.version, m.description, new Date().toISOString()]);
      applied.push(m.version);
    });
  }
  return applied;
}

/** The highest migration applied (0 on an empty database). */
export async function postgresSchemaVersion(pool: Pool): Promise<number> {
  const r = await rows<{ v: number }>(pool, 'SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations');
  return r[0]?.v ?? 0;
}
