/**
 * `folio tokens issue|list|revoke` against the data directory of a running service: tokens the
 * CLI issues verify in the server (same signing key, same issuer and audiences from the same
 * configuration), revocation from the CLI takes effect in the server at once, and the token is
 * printed once, on stdout only.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestService, type TestService } from '../http/helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const ENV = { FOLIO_PUBLIC_URL: 'https://folio.example.com', FOLIO_MCP_URL: 'https://mcp.example.com' };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let service: TestService;

async function folio(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({ DATA_DIR: service.dataDir, ...service.storeEnv, ...ENV }));
  return { code, stdout, stderr };
}

beforeAll(async () => {
  service = await startTestService({ runner: () => Promise.reject(new Error('the tokens CLI tests do not parse')) }, ENV);
});

afterAll(async () => {
  await service?.stop();
});

describe('folio tokens', () => {
  it('issue prints one access token for /v2/mcp-oauth that the running server accepts there only', async () => {
    const run = await folio(['tokens', 'issue', '--team', 'cli-team', '--resource', 'mcp-oauth']);
    expect(run.code).toBe(0);
    const token = run.stdout.trim();
    expect(run.stdout).toBe(`${token}\n`);
    expect(token).toMatch(JWT);
    expect(run.stderr).toContain("Created team 'cli-team'");
    expect(run.stderr).toContain('https://mcp.example.com/v2/mcp-oauth');
    expect(run.stderr).toContain('shown only this once');
    expect(run.stderr).not.toContain(token);

    const verdict = await service.tokens.verify(token, '/v2/mcp-oauth');
    expect(verdict).toMatchObject({ ok: true, claims: { teamName: 'cli-team', clientId: 'folio-cli', scope: 'mcp', audience: 'https://mcp.example.com/v2/mcp-oauth' } });
    expect(await service.tokens.verify(token, '/v2/mcp')).toMatchObject({ ok: false, error: 'invalid_token' });
    expect(decodeJwt(token)).toMatchObject({ iss: 'https://folio.example.com', exp: (decodeJwt(token).iat ?? 0) + 3600 });
  });

  it('issue --resource mcp gives the legacy kind: accepted on /v2/mcp, refused on /v2/mcp-oauth with the window closed', async () => {
    const run = await folio(['tokens', 'issue', '--team', 'cli-team', '--resource', 'mcp', '--ttl', '120', '--client', 'ci-bot', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('Created team');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ token_type: 'Bearer', expires_in: 120, scope: 'mcp', team: 'cli-team', resource: 'https://mcp.example.com/v2/mcp', grant_id: expect.stringMatching(/^grant_/) });
    const token = String(out.access_token);
    const verdict = await service.tokens.verify(token, '/v2/mcp');
    expect(verdict).toMatchObject({ ok: true, claims: { clientId: 'ci-bot', audience: 'https://mcp.example.com/v2/mcp' } });
    const refused = await service.tokens.verify(token, '/v2/mcp-oauth');
    expect(refused.ok === false && refused.description).toContain('migration window');
  });

  it('list shows grants without tokens; revoke refuses their tokens in the server at once', async () => {
    const issued = await folio(['tokens', 'issue', '--team', 'revoke-team', '--resource', 'mcp-oauth', '--client', 'to-revoke']);
    const token = issued.stdout.trim();
    expect((await service.tokens.verify(token, '/v2/mcp-oauth')).ok).toBe(true);

    const listed = await folio(['tokens', 'list', '--json']);
    expect(listed.code).toBe(0);
    const grants = JSON.parse(listed.stdout) as { id: string; clientId: string; team: string; resource: string; revokedAt: string | null; lastUsedAt: string | null }[];
    const grant = grants.find((g) => g.clientId === 'to-revoke');
    expect(grant).toMatchObject({ team: 'revoke-team', resource: '/v2/mcp-oauth', revokedAt: null });
    expect(grant?.lastUsedAt).not.toBeNull();
    expect(listed.stdout).not.toContain(token);
    const table = await folio(['tokens', 'list']);
    expect(table.stdout).toMatch(/^ID\s+CLIENT\s+USER\s+TEAM\s+RESOURCE\s+SCOPE\s+CREATED\s+LAST USED\s+REVOKED/);
    expect(table.stdout).toContain(grant?.id ?? '-');

    const revoked = await folio(['tokens', 'revoke', grant?.id ?? '']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked grant ${grant?.id ?? ''}`);
    const verdict = await service.tokens.verify(token, '/v2/mcp-oauth');
    expect(verdict.ok === false && verdict.description).toContain('was revoked at');

    expect((await folio(['tokens', 'revoke', grant?.id ?? ''])).stdout).toContain('was already revoked');
    const unknown = await folio(['tokens', 'revoke', 'grant_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no OAuth grant has the id 'grant_nope'");
  });

  it('usage errors say what is wrong and exit 2', async () => {
    const cases: [string[], string][] = [
      [['tokens'], 'tokens needs a subcommand'],
      [['tokens', 'mint'], "unknown tokens subcommand 'mint'"],
      [['tokens', 'issue', '--resource', 'mcp'], 'needs --team'],
      [['tokens', 'issue', '--team', 'x'], 'needs --resource mcp|mcp-oauth'],
      [['tokens', 'issue', '--team', 'x', '--resource', 'api'], "not 'api'"],
      [['tokens', 'issue', '--team', 'x', '--resource', 'mcp', '--ttl', '3601'], 'from 1 to 3600'],
      [['tokens', 'issue', '--team', 'x', '--resource', 'mcp', '--ttl', '0'], 'from 1 to 3600'],
      [['tokens', 'issue', '--team', 'x', '--resource', 'mcp', '--ttl', '1.5'], 'from 1 to 3600'],
      [['tokens', 'revoke'], 'needs the id of a grant'],
    ];
    for (const [args, message] of cases) {
      const run = await folio(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    }
    expect((await folio(['help'])).stdout).toContain('tokens issue --team <name> --resource mcp|mcp-oauth');
  });

  it('as a process: the token goes to stdout alone, never to stderr', async () => {
    const run = await new Promise<Run>((resolve, reject) => {
      const child = spawn(tsx, ['src/main.ts', 'tokens', 'issue', '--team', 'proc-team', '--resource', 'mcp'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: service.dataDir, ...service.storeEnv, LOG_LEVEL: 'info', ...ENV },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code).toBe(0);
    const token = run.stdout.trim();
    expect(token).toMatch(JWT);
    expect(run.stderr).not.toContain(token.split('.')[2] ?? token);
    expect(await service.tokens.verify(token, '/v2/mcp')).toMatchObject({ ok: true, claims: { teamName: 'proc-team' } });
  });

  // Last: it changes the signing keys the earlier tests' server verifies with.
  it('rotate-key adds a key that signs from then on; retire-key removes one', async () => {
    const before = (await service.store.listLiveSigningKeys()).map((k) => k.kid);
    expect(before).toHaveLength(1);
    const rotated = await folio(['tokens', 'rotate-key']);
    expect(rotated.code).toBe(0);
    const kid = rotated.stdout.trim();
    expect((await service.store.listLiveSigningKeys()).map((k) => k.kid)).toEqual([kid, ...before]);
    const issued = await folio(['tokens', 'issue', '--team', 'cli-team', '--resource', 'mcp']);
    expect(decodeProtectedHeader(issued.stdout.trim()).kid).toBe(kid);

    const retired = await folio(['tokens', 'retire-key', before[0] ?? '']);
    expect(retired.code).toBe(0);
    expect(retired.stdout).toContain(`Retired signing key ${before[0] ?? ''}`);
    expect((await service.store.listLiveSigningKeys()).map((k) => k.kid)).toEqual([kid]);
    const unknown = await folio(['tokens', 'retire-key', 'no-such-kid']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no signing key has the kid 'no-such-kid'");
    // A kid is base64url: one that begins with '-' is a kid, not an option.
    const dashed = await folio(['tokens', 'retire-key', '-no-such-kid']);
    expect(dashed.code).toBe(1);
    expect(dashed.stderr).toContain("no signing key has the kid '-no-such-kid'");
  });
});
