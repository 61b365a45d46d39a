/**
 * The embedded store: one SQLite file (`DATA_DIR/folio.db`) through better-sqlite3, in WAL mode
 * so that the server and the CLI (`folio keys …`) can use it at the same time, with foreign keys
 * enforced and versioned migrations.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { sqliteCrawlJobStore } from './crawl-jobs.ts';
import { sqliteAgentJobStore } from './agent-jobs.ts';
import { sqliteOAuthStore } from './oauth.ts';
import { sqliteAccountStore } from './accounts.ts';
import { sqliteOAuthTokenStore } from './oauth-tokens.ts';
import { sqliteOAuthClientStore } from './oauth-clients.ts';
import type { ApiKeyRecord, NewApiKey, Store, Team } from './types.ts';
import { sqliteUploadRefStore } from './upload-refs.ts';
import { keylessUsageStore } from './keyless-usage.ts';
import { sqliteTeamPlanStore } from './team-plans.ts';
import { sqliteCreditLedgerStore } from './credit-ledger.ts';

export const DB_FILENAME = 'folio.db';

interface TeamRow {
  id: string;
  name: string;
  created_at: string;
}

interface ApiKeyRow {
  id: string;
  team_id: string;
  team_name: string;
  key_hash: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function newId(kind: 'team' | 'key'): string {
  return `${kind}_${randomBytes(8).toString('hex')}`;
}

function toTeam(row: TeamRow): Team {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

function toKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    teamId: row.team_id,
    teamName: row.team_name,
    keyHash: row.key_hash,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

function migrate(db: Database.Database, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version     INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at  TEXT NOT NULL
  )`);
  // Each missing version is applied, not only those above the highest: a database made by a
  // build that had migration N+1 but not yet N (parallel branches) still gets N.
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const record = db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)');
  const done: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    // IMMEDIATE: two processes opening a fresh database do not both apply the same migration.
    db.transaction(() => {
      const again = (db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version) as unknown) !== undefined;
      if (again) return;
      db.exec(m.sql);
      record.run(m.version, m.description, new Date().toISOString());
      done.push(m.version);
    }).immediate();
  }
  return done;
}

/** The schema version of an open database (the highest migration applied). */
export function schemaVersion(db: Database.Database): number {
  return (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
}

export interface SqliteStore extends Store {
  /** The underlying handle, for tests and diagnostics. */
  readonly db: Database.Database;
  /** The migrations this open applied (`folio migrate` reports them). */
  readonly migrationsApplied: readonly number[];
}

/** Opens (creating when needed) `dataDir/folio.db` and brings its schema up to date. */
export function openSqliteStore(dataDir: string): SqliteStore {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DB_FILENAME));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const migrationsApplied = migrate(db, MIGRATIONS);

  const keySelect = `SELECT k.id, k.team_id, t.name AS team_name, k.key_hash, k.prefix, k.created_at, k.last_used_at, k.revoked_at
    FROM api_keys k JOIN teams t ON t.id = k.team_id`;
  const q = {
    teamByName: db.prepare<[string], TeamRow>('SELECT id, name, created_at FROM teams WHERE name = ?'),
    allTeams: db.prepare<[], TeamRow>('SELECT id, name, created_at FROM teams ORDER BY name'),
    insertTeam: db.prepare('INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING'),
    insertKey: db.prepare('INSERT INTO api_keys (id, team_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)'),
    keyById: db.prepare<[string], ApiKeyRow>(`${keySelect} WHERE k.id = ?`),
    keyByHash: db.prepare<[string], ApiKeyRow>(`${keySelect} WHERE k.key_hash = ?`),
    allKeys: db.prepare<[], ApiKeyRow>(`${keySelect} ORDER BY k.created_at, k.rowid`),
    revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touch: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
  };

  const ensureTeam = db.transaction((name: string): Team => {
    q.insertTeam.run(newId('team'), name, new Date().toISOString());
    const row = q.teamByName.get(name);
    if (!row) throw new Error('team insert did not persist');
    return toTeam(row);
  });

  let closed = false;

  return {
    db,
    migrationsApplied,
    ...sqliteCrawlJobStore(db),
    ...sqliteAgentJobStore(db),
    ...sqliteOAuthStore(db),
    ...sqliteAccountStore(db),
    ...sqliteOAuthTokenStore(db),
    ...sqliteOAuthClientStore(db),
    ...sqliteUploadRefStore(db),
    ...keylessUsageStore(db),
    ...sqliteTeamPlanStore(db),
    ...sqliteCreditLedgerStore(db),
    async ensureTeam(name) {
      return ensureTeam.immediate(name);
    },
    async findTeamByName(name) {
      const row = q.teamByName.get(name);
      return row ? toTeam(row) : undefined;
    },
    async listTeams() {
      return q.allTeams.all().map(toTeam);
    },
    async createApiKey(key: NewApiKey) {
      const id = newId('key');
      q.insertKey.run(id, key.teamId, key.keyHash, key.prefix, new Date().toISOString());
      const row = q.keyById.get(id);
      if (!row) throw new Error('api key insert did not persist');
      return toKey(row);
    },
    async listApiKeys() {
      return q.allKeys.all().map(toKey);
    },
    async revokeApiKey(id) {
      q.revoke.run(new Date().toISOString(), id);
      const row = q.keyById.get(id);
      return row ? toKey(row) : undefined;
    },
    async getApiKey(id) {
      const row = q.keyById.get(id);
      return row ? toKey(row) : undefined;
    },
    async findApiKeyByHash(keyHash) {
      const row = q.keyByHash.get(keyHash);
      return row ? toKey(row) : undefined;
    },
    async touchApiKey(id, at) {
      q.touch.run(at.toISOString(), id);
    },
    async ping() {
      if (closed) throw new Error('the store is closed');
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
