/**
 * `folio teams set|show|list` (docs/accounts.md): in this process through the CLI dispatch, one
 * run as a real process, usage errors, and a running server that sees what the CLI set (ZDR
 * enabled, credits added) at its next request.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { parseSiem } from '../../src/cli/teams.ts';
import { loadConfig } from '../../src/config.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { postParse, startTestService, upload, type TestService } from '../http/helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-teams-'));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function folio(args: string[], env: Record<string, string> = {}, dir = dataDir): Promise<Run> {
  // The store of that DATA_DIR: in the postgres+redis project, the database its service runs on.
  const store = await testStoreEnv(dir);
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({ DATA_DIR: dir, ...store, ...env }));
  return { code, stdout, stderr };
}

describe('teams set / show / list', () => {
  it('set creates the team and prints its plan, defaults marked', async () => {
    const run = await folio(['teams', 'set', 'acme', '--credits', '500', '--zdr', 'on']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("Created team 'acme'.\n");
    expect(run.stdout).toMatch(/^Team: +acme \(team_[0-9a-f]{16}\)$/m);
    expect(run.stdout).toMatch(/^Credits: +500 left of 500 \(0 used, period since \d{4}-\d\d-\d\dT[^)]+\)$/m);
    expect(run.stdout).toMatch(/^Rate per minute: +unlimited \(default\)$/m);
    expect(run.stdout).toMatch(/^ZDR: +on$/m);
    expect(run.stdout).toMatch(/^SIEM: +none \(default\)$/m);
  });

  it('--add-credits adds to the allowance; --credits starts a new period', async () => {
    expect((await folio(['teams', 'set', 'acme', '--add-credits', '250'])).stdout).toMatch(/^Credits: +750 left of 750 /m);
    const show = await folio(['teams', 'show', 'acme', '--json']);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ team: 'acme', credits: 750, planCredits: 750, creditsUsed: 0, zdr: true, siem: null, ratePerMinute: null, defaults: ['ratePerMinute', 'maxConcurrent', 'siem'] });
    expect((await folio(['teams', 'set', 'acme', '--credits', 'unlimited'])).stdout).toMatch(/^Credits: +unlimited$/m);
    const refused = await folio(['teams', 'set', 'acme', '--add-credits', '5']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unlimited credits: give it a number first with --credits N');
  });

  it('--add-credits on a team on a finite default starts from the default', async () => {
    const run = await folio(['teams', 'set', 'small', '--add-credits', '5'], { FOLIO_DEFAULT_CREDITS: '100' });
    expect(run.stdout).toMatch(/^Credits: +105 left of 105 /m);
  });

  it('rate, concurrency and the three SIEM sink shapes', async () => {
    const file = await folio(['teams', 'set', 'sinks', '--rate-per-minute', '120', '--max-concurrent', '3', '--siem', 'audit/events.jsonl']);
    expect(file.code).toBe(0);
    expect(file.stdout).toMatch(/^Rate per minute: +120$/m);
    expect(file.stdout).toMatch(/^Max concurrent: +3$/m);
    expect(file.stdout).toContain(`SIEM:             ${path.resolve('audit/events.jsonl')}\n`);
    expect((await folio(['teams', 'set', 'sinks', '--siem', 'https://siem.example.com/hook'])).stdout).toContain('SIEM:             https://siem.example.com/hook\n');
    expect((await folio(['teams', 'set', 'sinks', '--siem', 'syslog://10.1.2.3:514'])).stdout).toContain('SIEM:             syslog://10.1.2.3:514\n');
    expect((await folio(['teams', 'set', 'sinks', '--siem', 'off'])).stdout).toMatch(/^SIEM: +none$/m);
  });

  it('list shows every team, keys-only teams on the defaults', async () => {
    expect((await folio(['keys', 'create', '--team', 'keys-only'])).code).toBe(0);
    const list = await folio(['teams', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]?.split(/\s{2,}/)).toEqual(['TEAM', 'ID', 'CREDITS LEFT', 'RATE/MIN', 'MAX CONCURRENT', 'ZDR', 'SIEM']);
    const row = lines.find((l) => l.startsWith('keys-only '));
    expect(row?.split(/\s{2,}/)).toEqual(['keys-only', expect.stringMatching(/^team_/), 'unlimited', 'unlimited', expect.stringMatching(/^\d+$/), 'off', '-']);
    const json = JSON.parse((await folio(['teams', 'list', '--json'])).stdout) as { team: string }[];
    expect(json.map((t) => t.team)).toEqual(expect.arrayContaining(['acme', 'keys-only', 'sinks', 'small']));
  });

  it('usage errors: exit 2 with the reason', async () => {
    const cases: [string[], string][] = [
      [['teams', 'set', 'acme'], 'needs at least one of'],
      [['teams', 'set', '--credits', '5'], "needs the team's name"],
      [['teams', 'set', 'acme', '--credits=-5'], '--credits takes a whole number'],
      [['teams', 'set', 'acme', '--credits', 'lots'], '--credits takes a whole number'],
      [['teams', 'set', 'acme', '--add-credits', '0'], '--add-credits takes a whole number from 1'],
      [['teams', 'set', 'acme', '--max-concurrent', '0'], '--max-concurrent takes a whole number from 1'],
      [['teams', 'set', 'acme', '--zdr', 'yes'], '--zdr takes on or off'],
      [['teams', 'set', 'acme', '--siem', 'http://siem.example.com/'], "'http:' is none of them"],
      [['teams', 'set', 'acme', '--siem', 'syslog://host'], 'syslog://host:port'],
      [['teams', 'set', 'acme', '--siem', 'https://user:pw@siem.example.com/'], 'no credentials'],
      [['teams', 'set', 'acme', '--bogus', '1'], "Unknown option '--bogus'"],
      [['teams', 'frob'], "unknown teams subcommand 'frob' (expected set, show or list)"],
    ];
    for (const [args, message] of cases) {
      const run = await folio(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain(message);
    }
    const missing = await folio(['teams', 'show', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no team is named 'nobody' (see folio teams list)");
  });

  it('parseSiem makes a relative file path absolute from the working directory', () => {
    expect(parseSiem('events.jsonl', '/var/log/folio')).toBe('/var/log/folio/events.jsonl');
    expect(parseSiem('/abs/events.jsonl', '/x')).toBe('/abs/events.jsonl');
    expect(parseSiem('off')).toBeNull();
  });

  it('runs as a process: folio teams show', async () => {
    const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
    const store = await testStoreEnv(dataDir);
    const run = await new Promise<Run>((resolve, reject) => {
      const child = spawn(tsx, ['src/main.ts', 'teams', 'show', 'acme'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, ...store, LOG_LEVEL: 'info' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Team: +acme /m);
  });
});

describe('a running server sees what the CLI set', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { FOLIO_DEFAULT_CREDITS: '0' });
  });
  afterAll(async () => {
    await service.stop();
  });

  it('credits added and ZDR enabled take effect at the next request', async () => {
    const html = readCorpus('html', 'markitdown', 'test_blog.html');
    const zdrParse = () => postParse(service, upload('blog.html', html, { zeroDataRetention: true }));
    // Multipart options come with the upload, which is not read without credits: 402 first.
    const env = { FOLIO_DEFAULT_CREDITS: '0' };
    const first = await zdrParse();
    expect(first.status).toBe(402);
    expect(String(first.json.error)).toContain("Team 'test-team' has 0 credits left and this parse costs at least 1");
    expect((await folio(['teams', 'set', 'test-team', '--add-credits', '2'], env, service.dataDir)).code).toBe(0);
    const second = await zdrParse();
    expect(second.status).toBe(403);
    expect(String(second.json.error)).toContain('folio teams set test-team --zdr on');
    expect((await folio(['teams', 'set', 'test-team', '--zdr', 'on'], env, service.dataDir)).code).toBe(0);
    expect((await zdrParse()).status).toBe(200);
    const show = JSON.parse((await folio(['teams', 'show', 'test-team', '--json'], { FOLIO_DEFAULT_CREDITS: '0' }, service.dataDir)).stdout) as Record<string, unknown>;
    expect(show).toMatchObject({ credits: 0, planCredits: 2, creditsUsed: 2, zdr: true });
  });
});
