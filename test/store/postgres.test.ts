/**
 * What is PostgreSQL's own in the store (the interface is tested on both engines in
 * store.test.ts): migrations recorded once, also when instances start together; `folio migrate`;
 * DATABASE_URL validated without echoing its password; keys never stored in clear.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/open.ts';
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../../src/store/postgres/index.ts';
import { refusedPort } from '../helpers/refused-port.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

let cluster: TestPostgres;
beforeAll(async () => {
  cluster = await startPostgres();
});
afterAll(() => cluster.stop());

async function query<R>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

async function cli(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({ DATA_DIR: '/nonexistent-folio-data', ...env }));
  return { code, stdout, stderr };
}

describe('PostgreSQL store', () => {
  it('instances starting together on an empty database apply each migration once', async () => {
    const url = await cluster.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(url, { maxConnections: 2 })));
    try {
      const latest = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;
      for (const s of stores) expect(await s.schemaVersion()).toBe(latest);
      expect(await query<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version')).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version })));
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('keeps the SHA-256 and the display prefix of a key, never the key', async () => {
    const url = await cluster.createDatabase();
    const store = await openPostgresStore(url);
    const key = generateApiKey();
    try {
      const team = await store.ensureTeam('acme');
      await store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    } finally {
      await store.close();
    }
    const rows = await query<Record<string, unknown>>(url, 'SELECT * FROM api_keys');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key.slice(12));
    expect(rows[0]).toMatchObject({ key_hash: hashApiKey(key), prefix: key.slice(0, 12) });
  });

  it('folio migrate applies the schema once, then has nothing to apply; serve-time opening agrees', async () => {
    const url = await cluster.createDatabase();
    const first = await cli(['migrate'], { DATABASE_URL: url });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(`postgres: schema version ${POSTGRES_MIGRATIONS.at(-1)?.version} (applied ${POSTGRES_MIGRATIONS.map((m) => m.version).join(', ')})\n`);
    const second = await cli(['migrate'], { DATABASE_URL: url });
    expect(second.stdout).toBe(`postgres: schema version ${POSTGRES_MIGRATIONS.at(-1)?.version} (nothing to apply)\n`);
    // The CLI's other commands use the same database.
    const created = await cli(['keys', 'create', '--team', 'acme'], { DATABASE_URL: url });
    expect(created.code).toBe(0);
    const store = await openPostgresStore(url);
    try {
      expect((await store.listApiKeys()).map((k) => k.teamName)).toEqual(['acme']);
    } finally {
      await store.close();
    }
  });

  it('an unreachable database fails folio migrate with what was tried, never the password', async () => {
    const port = await refusedPort();
    const out = await cli(['migrate'], { DATABASE_URL: `postgres://folio:s3cr3t-pw@127.0.0.1:${port}/folio` });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/could not migrate the PostgreSQL database at DATABASE_URL: .*ECONNREFUSED/);
    expect(out.stderr).not.toContain('s3cr3t-pw');
  });

  it('a server whose database is unreachable fails to start naming host, port and database, never the password', async () => {
    const port = await refusedPort();
    const config = loadConfig({ DATABASE_URL: `postgres://folio:s3cr3t-pw@127.0.0.1:${port}/folio`, DATA_DIR: '/nonexistent-folio-data' });
    const failure = openStore(config);
    await expect(failure).rejects.toThrow(new RegExp(`could not open the PostgreSQL store at DATABASE_URL \\(127\\.0\\.0\\.1:${port}/folio\\): .*ECONNREFUSED`));
    await expect(failure).rejects.not.toThrow(/s3cr3t-pw/);
  });

  it('DATABASE_URL must be a postgres:// URL; the error does not echo it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://folio:s3cr3t-pw@db/folio' })).toThrow(/DATABASE_URL: a postgres:\/\/ or postgresql:\/\/ URL/);
    try {
      loadConfig({ DATABASE_URL: 'mysql://folio:s3cr3t-pw@db/folio' });
    } catch (err) {
      expect(String(err)).not.toContain('s3cr3t-pw');
    }
    expect(loadConfig({ DATABASE_URL: 'postgresql://folio@db:5432/folio' }).databaseUrl).toBe('postgresql://folio@db:5432/folio');
    expect(loadConfig({}).databaseUrl).toBeUndefined();
  });
});
