/**
 * The SQLite store: schema migrations with a version table, WAL and foreign keys, teams, and API
 * keys kept only as SHA-256 with a display prefix.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, verifyApiKey } from '../../auth/api-keys.ts';
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

  it('refuses a key for a team that does not exist (foreign key)', async () => {
    await expect(store.createApiKey({ teamId: 'team_missing', keyHash: hashApiKey(generateApiKey()), prefix: 'folio_abcdef' })).rejects.toThrow(/FOREIGN KEY/);
  });
});

describe('teams', () => {
  it('ensureTeam creates once and then returns the same team', async () => {
    const a = await store.ensureTeam('acme');
    const b = await store.ensureTeam('acme');
    expect(b).toEqual(a);
    expect(a.id).toMatch(/^team_[0-9a-f]{16}$/);
    expect(await store.findTeamByName('acme')).toEqual(a);
    expect(await store.findTeamByName('other')).toBeUndefined();
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

  it('finds a key by hash, verifies it, and stops verifying it once revoked', async () => {
    const { key, record } = await newKey();
    expect(await store.findApiKeyByHash(hashApiKey(key))).toEqual(record);
    expect(await verifyApiKey(store, key)).toMatchObject({ id: record.id, teamName: 'acme' });
    expect(await verifyApiKey(store, generateApiKey())).toBeUndefined();
    expect(await verifyApiKey(store, key.slice(0, -1))).toBeUndefined();
    const revoked = await store.revokeApiKey(record.id);
    expect(revoked?.revokedAt).toEqual(expect.any(String));
    expect(await verifyApiKey(store, key)).toBeUndefined();
    // Revoking again keeps the first revocation time.
    expect((await store.revokeApiKey(record.id))?.revokedAt).toBe(revoked?.revokedAt);
    expect(await store.revokeApiKey('key_unknown')).toBeUndefined();
  });

  it('lists keys of every team, oldest first, and records their use', async () => {
    const a = await newKey('acme');
    const b = await newKey('globex');
    const list = await store.listApiKeys();
    expect(list.map((k) => [k.id, k.teamName])).toEqual([
      [a.record.id, 'acme'],
      [b.record.id, 'globex'],
    ]);
    const at = new Date('2026-01-02T03:04:05.000Z');
    await store.touchApiKey(b.record.id, at);
    expect((await store.getApiKey(b.record.id))?.lastUsedAt).toBe('2026-01-02T03:04:05.000Z');
    expect((await store.getApiKey(a.record.id))?.lastUsedAt).toBeNull();
  });

  it('the server and the CLI can use the database at the same time', async () => {
    const other = openSqliteStore(dir);
    const { key } = await newKey();
    expect(await verifyApiKey(other, key)).toBeDefined();
    const id = (await other.listApiKeys())[0]?.id ?? '';
    await other.revokeApiKey(id);
    expect(await verifyApiKey(store, key)).toBeUndefined();
    await other.close();
  });
});
