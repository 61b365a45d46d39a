/**
 * A real PostgreSQL for tests: a throw-away cluster (`initdb` in a temp dir, a free loopback
 * port, `pg_ctl start`), fsync off, removed by `stop()`. `createDatabase()` gives each test an
 * empty database of its own. A missing PostgreSQL fails the test with what to do: scripts/setup.sh
 * installs it (Debian `postgresql`).
 *
 * PostgreSQL refuses to run as root: under root the cluster runs as the `postgres` user (else `nobody`).
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './redis.ts';

const run = promisify(execFile);

export interface TestPostgres {
  port: number;
  /** postgres://folio@127.0.0.1:PORT/postgres */
  adminUrl: string;
  /** postgres://folio@127.0.0.1:PORT/<name> of a new, empty database. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

function binDir(): string {
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (found.status === 0 && found.stdout.trim() !== '') return path.dirname(found.stdout.trim());
  // Debian's postgresql package keeps its binaries off PATH, per major version.
  const debian = '/usr/lib/postgresql';
  const versions = fs.existsSync(debian) ? fs.readdirSync(debian).filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest !== undefined) return path.join(debian, newest, 'bin');
  throw new Error('PostgreSQL is not installed (no initdb): run scripts/setup.sh (it installs the Debian package postgresql), then run the tests again.');
}

/** The command prefix that runs a PostgreSQL binary as a non-root user when the tests run as root. */
function asUser(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  for (const user of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) {
      const uid = Number(id.stdout.trim());
      const g = Number(gid.stdout.trim());
      return { prefix: ['setpriv', `--reuid=${uid}`, `--regid=${g}`, '--clear-groups'], uid, gid: g };
    }
  }
  throw new Error('the tests run as root and there is no postgres or nobody user to run PostgreSQL as');
}

async function pgCommand(bin: string, args: string[], user: ReturnType<typeof asUser>): Promise<void> {
  const [command, ...rest] = [...user.prefix, bin, ...args];
  await run(command ?? bin, rest, { timeout: 60_000 });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const user = asUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pg-'));
  if (user.uid !== undefined && user.gid !== undefined) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await pgCommand(path.join(bin, 'initdb'), ['-D', data, '-U', 'folio', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C'], user);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  await pgCommand(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start'], user);
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'folio', database: 'postgres' });
  await admin.connect();
  let databases = 0;
  let stopped = false;
  return {
    port,
    adminUrl: `postgres://folio@127.0.0.1:${port}/postgres`,
    async createDatabase() {
      databases += 1;
      const name = `folio_test_${databases}`;
      await admin.query(`CREATE DATABASE ${name}`);
      return `postgres://folio@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await admin.end().catch(() => undefined);
      await pgCommand(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], user).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A new database on the cluster the vitest project `postgres+redis` started for the whole run
 * (test/helpers/postgres-global-setup.ts), for the HTTP tests that run on PostgreSQL too.
 */
export async function sharedTestDatabase(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const name = `folio_http_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  } finally {
    await admin.end();
  }
}

/** Every row of every table of the database's public schema, as text (what it keeps at rest). */
export async function databaseText(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
    const parts: string[] = [];
    for (const t of tables.rows) {
      const dump = await client.query<{ text: string | null }>(`SELECT string_agg(r::text, E'\\n') AS text FROM "${t.name}" r`);
      parts.push(`${t.name}:\n${dump.rows[0]?.text ?? ''}`);
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}
