/**
 * Schema migrations for the SQLite store, applied in order at open. `schema_migrations` records
 * which versions ran; a migration never changes once released (add a new one instead).
 */
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
];
