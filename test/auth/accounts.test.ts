/**
 * Local accounts: scrypt password hashes (auth/users.ts) and `folio users …` as an operator runs
 * it (tsx src/main.ts, the password on stdin), against a real SQLite store in a temp DATA_DIR.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, SCRYPT_N, verifyPassword } from '../../auth/users.ts';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
let dataDir: string;

function folio(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['src/main.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({ DATA_DIR: dataDir }));
  return { code, stdout, stderr };
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-accounts-'));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('password hashes', () => {
  it('scrypt with N ≥ 2^15, a random salt, parameters stored with the hash; verification', async () => {
    const a = await hashPassword('a long enough password');
    const b = await hashPassword('a long enough password');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(SCRYPT_N).toBeGreaterThanOrEqual(2 ** 15);
    expect(a).not.toBe(b);
    expect(await verifyPassword('a long enough password', a)).toBe(true);
    expect(await verifyPassword('a long enough passwore', a)).toBe(false);
    expect(await verifyPassword('a long enough password', a.replace('$32768$', '$16384$'))).toBe(false);
    expect(await verifyPassword('x', 'not a hash')).toBe(false);
  });
});

describe('folio users', () => {
  it('create reads the password from stdin, never an argument; list; add-team; duplicates and weak passwords refused', async () => {
    const created = await folio(['users', 'create', '--email', 'Ann@Example.com', '--team', 'acme', '--team', 'labs'], 'sup3r secret pass\n');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/Created user user_[0-9a-f]{16} \(ann@example\.com\) in teams 'acme', 'labs'/);
    expect(created.stdout).not.toContain('sup3r');

    const asArgument = await cli(['users', 'create', '--email', 'bob@example.com', '--team', 'acme', 'sup3r secret pass']);
    expect(asArgument.code).toBe(2);
    const dup = await folio(['users', 'create', '--email', 'ann@example.com', '--team', 'acme'], 'another password\n');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
    const weak = await folio(['users', 'create', '--email', 'carl@example.com', '--team', 'acme'], 'short\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('at least 10 characters');
    expect((await cli(['users', 'create', '--email', 'not-an-email', '--team', 'acme'])).code).toBe(2);

    expect((await cli(['users', 'add-team', '--email', 'ann@example.com', '--team', 'zeta'])).code).toBe(0);
    expect((await cli(['users', 'add-team', '--email', 'nobody@example.com', '--team', 'zeta'])).code).toBe(1);
    const listed = await cli(['users', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: expect.stringMatching(/^user_/), email: 'ann@example.com', teams: ['acme', 'labs', 'zeta'], createdAt: expect.any(String) }]);
    expect((await cli(['users', 'list'])).stdout).toMatch(/ann@example\.com\s+acme, labs, zeta/);

    const store = openSqliteStore(dataDir);
    try {
      const user = await store.findUserByEmail('ann@example.com');
      expect(await verifyPassword('sup3r secret pass', user?.passwordHash ?? '')).toBe(true);
    } finally {
      await store.close();
    }
  }, 30_000);
});
