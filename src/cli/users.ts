/**
 * `folio users create|list|add-team`: local accounts that sign in on the authorization pages
 * (docs/oauth.md). The password is read from stdin (one line) or, on a terminal, a prompt with
 * echo off — never from an argument, where it would land in shell history and `ps`.
 */
import { emailProblem, hashPassword, normalizeEmail, passwordProblem } from '../../auth/users.ts';
import type { Config } from '../config.ts';
import { parseArgs } from 'node:util';
import { parseCommandArgs } from './args.ts';
import { CliFailure, EXIT_OK, runSubcommand, UsageError, type CliIo } from './io.ts';
import { withStore } from './store.ts';
import { listing } from './table.ts';

const MAX_TEAM_NAME = 100;

/** Reads the password: the first line of stdin, or a no-echo prompt on a TTY. */
export type PasswordSource = () => Promise<string>;

export function stdinPassword(): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let buffer = '';
    const tty = stdin.isTTY;
    if (tty) {
      process.stderr.write('Password: ');
      stdin.setRawMode(true);
    }
    stdin.setEncoding('utf8');
    const done = (value: string) => {
      if (tty) {
        stdin.setRawMode(false);
        process.stderr.write('\n');
      }
      stdin.pause();
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (tty && ch === '\u0003') {
          stdin.setRawMode(false);
          reject(new CliFailure('cancelled'));
          return;
        }
        if (ch === '\n' || ch === '\r') return done(buffer);
        if (tty && (ch === '\u007f' || ch === '\b')) buffer = buffer.slice(0, -1);
        else buffer += ch;
      }
    };
    const onEnd = () => done(buffer);
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}

interface AccountArgs {
  email: string | undefined;
  teams: string[];
}

/** --email <address> and any number of --team <name> (node:util parseArgs, `multiple`). */
function accountArgs(args: string[]): AccountArgs {
  try {
    const { values } = parseArgs({ args, options: { email: { type: 'string' }, team: { type: 'string', multiple: true } }, allowPositionals: false, strict: true });
    return { email: values.email, teams: values.team ?? [] };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : 'invalid arguments');
  }
}

function teamNames(args: AccountArgs): string[] {
  const names = args.teams.map((t) => t.trim());
  for (const n of names) {
    if (!n) throw new UsageError('a team name is empty');
    if (n.length > MAX_TEAM_NAME) throw new UsageError(`the team name is longer than ${MAX_TEAM_NAME} characters`);
  }
  return names;
}

function email(args: AccountArgs, command: string): string {
  const raw = args.email;
  if (!raw) throw new UsageError(`users ${command} needs --email <address>`);
  const e = normalizeEmail(raw);
  const problem = emailProblem(e);
  if (problem) throw new UsageError(problem);
  return e;
}

async function create(args: string[], config: Config, io: CliIo, readPassword: PasswordSource): Promise<number> {
  const parsed = accountArgs(args);
  const address = email(parsed, 'create');
  const teams = teamNames(parsed);
  if (teams.length === 0) throw new UsageError('users create needs at least one --team <name>');
  const password = await readPassword();
  const problem = passwordProblem(password);
  if (problem) throw new CliFailure(problem);
  const passwordHash = await hashPassword(password);
  const user = await withStore(config, async (store) => {
    const created = await store.createUser({ email: address, passwordHash });
    if (!created) return undefined;
    for (const name of teams) await store.addTeamMember(created.id, (await store.ensureTeam(name)).id);
    return created;
  });
  if (!user) throw new CliFailure(`a user with the email ${address} already exists (add a team with: folio users add-team)`);
  io.stdout(`Created user ${user.id} (${user.email}) in team${teams.length > 1 ? 's' : ''} ${teams.map((t) => `'${t}'`).join(', ')}.\n`);
  return EXIT_OK;
}

async function addTeam(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = accountArgs(args);
  const address = email(parsed, 'add-team');
  const teams = teamNames(parsed);
  if (teams.length === 0) throw new UsageError('users add-team needs --team <name>');
  const found = await withStore(config, async (store) => {
    const user = await store.findUserByEmail(address);
    if (!user) return false;
    for (const name of teams) await store.addTeamMember(user.id, (await store.ensureTeam(name)).id);
    return true;
  });
  if (!found) throw new CliFailure(`no user has the email ${address} (see folio users list)`);
  io.stdout(`${address} is now in team${teams.length > 1 ? 's' : ''} ${teams.map((t) => `'${t}'`).join(', ')}.\n`);
  return EXIT_OK;
}

async function list(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { json: { type: 'boolean' } }, 0);
  const users = await withStore(config, (store) => store.listUsers());
  io.stdout(
    listing(users, parsed.values.json === true, {
      view: (u) => ({ id: u.id, email: u.email, teams: u.teams.map((t) => t.name), createdAt: u.createdAt }),
      empty: 'No users. Create one with: folio users create --email <address> --team <name>',
      header: ['ID', 'EMAIL', 'TEAMS', 'CREATED'],
      row: (u) => [u.id, u.email, u.teams.map((t) => t.name).join(', ') || '-', u.createdAt],
    }),
  );
  return EXIT_OK;
}

export async function runUsers(args: string[], config: Config, io: CliIo, readPassword: PasswordSource = stdinPassword): Promise<number> {
  return runSubcommand('users', args, {
    create: (rest) => create(rest, config, io, readPassword),
    list: (rest) => list(rest, config, io),
    'add-team': (rest) => addTeam(rest, config, io),
  });
}
