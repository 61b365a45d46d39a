/**
 * What is SQLite's own in the store: the file in DATA_DIR, WAL and foreign keys, its schema
 * migrations, and no key in clear in its bytes. The store interface itself (teams, keys, OAuth,
 * uploads, crawl jobs, credits…) is tested on both engines in store.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { openSqliteStore, schemaVersion, type SqliteStore } from '../../src/store/sqlite.ts';

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-store-'));
  store = openSqliteStore(dir);
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function newKey(team = 'acme') {
  const key = generateApiKey();
  const t = await store.ensureTeam(team);
  const record = await store.createApiKey({ teamId: t.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  return { key, record };
}

describe('database', () => {
  it('lives in DATA_DIR/folio.db, in WAL mode with foreign keys on', () => {
    expect(fs.existsSync(path.join(dir, 'folio.db'))).toBe(true);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('records every migration in schema_migrations and applies each once', async () => {
    const latest = MIGRATIONS.at(-1)?.version ?? 0;
    expect(latest).toBeGreaterThanOrEqual(1);
    expect(schemaVersion(store.db)).toBe(latest);
    await newKey();
    await store.close();
    // Reopening neither re-runs a migration nor loses data.
    store = openSqliteStore(dir);
    const rows = store.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    expect(await store.listApiKeys()).toHaveLength(1);
  });

  it('applies a migration that is missing below the highest applied one (branches landing out of order)', async () => {
    // A database made by a build that had migration 3 but not yet 2.
    store.db.exec('DROP TABLE upload_refs; DELETE FROM schema_migrations WHERE version = 2');
    await store.close();
    store = openSqliteStore(dir);
    const rows = store.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    expect(store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'upload_refs'").get()).toEqual({ name: 'upload_refs' });
  });
});

describe('API keys', () => {
  it('stores the SHA-256 and a 12-character prefix, never the key', async () => {
    const { key, record } = await newKey();
    expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({ teamName: 'acme', prefix: key.slice(0, 12), keyHash: hashApiKey(key), lastUsedAt: null, revokedAt: null });
    expect(record.keyHash).toMatch(/^[0-9a-f]{64}$/);
    await store.close();
    // Nothing in the database file or its WAL holds the key in clear.
    const raw = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
    expect(raw.includes(Buffer.from(key))).toBe(false);
    expect(raw.includes(Buffer.from(key.slice(12)))).toBe(false);
    const db = new Database(path.join(dir, 'folio.db'), { readonly: true });
    expect(db.prepare('SELECT key_hash, prefix FROM api_keys').all()).toEqual([{ key_hash: hashApiKey(key), prefix: key.slice(0, 12) }]);
    db.close();
    store = openSqliteStore(dir);
  });
});
