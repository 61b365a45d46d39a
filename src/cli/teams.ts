/**
 * `folio teams set|show|list` (docs/accounts.md): the plans of teams in the store of DATA_DIR.
 *
 *   teams set <team> [--credits N|unlimited] [--add-credits N] [--rate-per-minute N]
 *                    [--max-concurrent N] [--zdr on|off] [--siem <file path|https URL|syslog://host:port>|off]
 *   teams show <team> [--json]
 *   teams list [--json]
 *
 * `set` creates the team when it does not exist (as `keys create --team` does). Settings not
 * given stay as they are; a setting never given is the configured default (FOLIO_DEFAULT_*).
 */
import path from 'node:path';
import { planView, type TeamPlanView } from '../accounts/index.ts';
import type { Config } from '../config.ts';
import type { TeamPlanChange } from '../store/team-plans.ts';
import { UnlimitedCreditsError } from '../store/team-plans.ts';
import type { Team } from '../store/types.ts';
import { parseCommandArgs, stringOption } from './args.ts';
import { CliFailure, EXIT_OK, runSubcommand, UsageError, type CliIo } from './io.ts';
import { withStore } from './store.ts';
import { listing } from './table.ts';

const MAX_TEAM_NAME = 100;
const MAX_WHOLE = 1_000_000_000_000;

function whole(option: string, raw: string, min: number, max = MAX_WHOLE): number {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${option} takes a whole number from ${min} to ${max}, not '${raw}'`);
  }
  return Number(raw);
}

function wholeOrUnlimited(option: string, raw: string, min: number): number | null {
  return raw === 'unlimited' ? null : whole(option, raw, min);
}

/** A SIEM sink: `off`, an https URL, `syslog://host:port`, or a file path (made absolute here). */
export function parseSiem(raw: string, cwd = process.cwd()): string | null {
  if (raw === 'off') return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UsageError(`--siem '${raw}' is not a valid URL`);
    }
    if (url.protocol === 'https:') {
      if (url.username || url.password) throw new UsageError('--siem: put no credentials in the webhook URL (it is shown by teams show)');
      return url.href;
    }
    if (url.protocol === 'syslog:') {
      const port = Number(url.port);
      if (!url.hostname || !url.port || !(port >= 1 && port <= 65_535) || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
        throw new UsageError(`--siem: a syslog sink is syslog://host:port (e.g. syslog://127.0.0.1:514), not '${raw}'`);
      }
      return `syslog://${url.host}`;
    }
    throw new UsageError(`--siem takes a file path, an https:// URL or syslog://host:port, or off; '${url.protocol}' is none of them`);
  }
  if (raw.trim() === '' || raw.includes('\0')) throw new UsageError('--siem: the file path is empty');
  return path.resolve(cwd, raw);
}

function teamName(raw: string | undefined, command: string): string {
  const name = raw?.trim();
  if (!name) throw new UsageError(`teams ${command} needs the team's name`);
  if (name.length > MAX_TEAM_NAME) throw new UsageError(`the team name is longer than ${MAX_TEAM_NAME} characters`);
  return name;
}

const limit = (v: number | null) => (v === null ? 'unlimited' : String(v));
const mark = (view: TeamPlanView, key: keyof TeamPlanView) => ((view.own as readonly string[]).includes(key) ? '' : ' (default)');

function creditsLine(view: TeamPlanView): string {
  if (view.planCredits === null) return `unlimited${mark(view, 'credits')}`;
  const since = view.periodStart ? `, period since ${view.periodStart}` : '';
  return `${view.credits ?? 0} left of ${view.planCredits} (${view.creditsUsed} used${since})${mark(view, 'credits')}`;
}

function jsonView(team: Team, view: TeamPlanView) {
  return {
    team: team.name,
    teamId: team.id,
    credits: view.credits,
    planCredits: view.planCredits,
    creditsUsed: view.creditsUsed,
    periodStart: view.periodStart,
    ratePerMinute: view.ratePerMinute,
    maxConcurrent: view.maxConcurrent,
    zdr: view.zdr,
    siem: view.siem,
    defaults: (['credits', 'ratePerMinute', 'maxConcurrent', 'zdr', 'siem'] as const).filter((k) => !view.own.includes(k)),
  };
}

function describe(team: Team, view: TeamPlanView): string {
  return [
    `Team:             ${team.name} (${team.id})`,
    `Credits:          ${creditsLine(view)}`,
    `Rate per minute:  ${limit(view.ratePerMinute)}${mark(view, 'ratePerMinute')}`,
    `Max concurrent:   ${view.maxConcurrent}${mark(view, 'maxConcurrent')}`,
    `ZDR:              ${view.zdr ? 'on' : 'off'}${mark(view, 'zdr')}`,
    `SIEM:             ${view.siem ?? 'none'}${mark(view, 'siem')}`,
  ].join('\n') + '\n';
}

const SET_OPTIONS = {
  credits: { type: 'string' },
  'add-credits': { type: 'string' },
  'rate-per-minute': { type: 'string' },
  'max-concurrent': { type: 'string' },
  zdr: { type: 'string' },
  siem: { type: 'string' },
} as const;

export function planChange(args: ReturnType<typeof parseCommandArgs>, config: Config, cwd = process.cwd()): TeamPlanChange {
  const change: TeamPlanChange = {};
  const credits = stringOption(args, 'credits');
  if (credits !== undefined) change.credits = wholeOrUnlimited('credits', credits, 0);
  const add = stringOption(args, 'add-credits');
  if (add !== undefined) change.addCredits = { amount: whole('add-credits', add, 1), defaultCredits: config.defaultPlan.credits };
  const rate = stringOption(args, 'rate-per-minute');
  if (rate !== undefined) change.ratePerMinute = wholeOrUnlimited('rate-per-minute', rate, 1);
  const concurrent = stringOption(args, 'max-concurrent');
  if (concurrent !== undefined) change.maxConcurrent = whole('max-concurrent', concurrent, 1, 100_000);
  const zdr = stringOption(args, 'zdr');
  if (zdr !== undefined) {
    if (zdr !== 'on' && zdr !== 'off') throw new UsageError(`--zdr takes on or off, not '${zdr}'`);
    change.zdr = zdr === 'on';
  }
  const siem = stringOption(args, 'siem');
  if (siem !== undefined) change.siem = parseSiem(siem, cwd);
  return change;
}

async function set(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, SET_OPTIONS, 1);
  const name = teamName(parsed.positionals[0], 'set');
  const change = planChange(parsed, config);
  if (Object.keys(change).length === 0) {
    throw new UsageError('teams set needs at least one of --credits, --add-credits, --rate-per-minute, --max-concurrent, --zdr, --siem');
  }
  const { team, view, created } = await withStore(config, async (store) => {
    const existed = (await store.findTeamByName(name)) !== undefined;
    const t = await store.ensureTeam(name);
    try {
      const row = await store.updateTeamPlan(t.id, change, new Date());
      return { team: t, view: planView(row, config.defaultPlan), created: !existed };
    } catch (err) {
      if (err instanceof UnlimitedCreditsError) throw new CliFailure(`team '${name}': ${err.message}`);
      throw err;
    }
  });
  if (created) io.stderr(`Created team '${team.name}'.\n`);
  io.stdout(describe(team, view));
  return EXIT_OK;
}

async function show(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { json: { type: 'boolean' } }, 1);
  const name = teamName(parsed.positionals[0], 'show');
  const found = await withStore(config, async (store) => {
    const team = await store.findTeamByName(name);
    return team ? { team, view: planView(await store.getTeamPlan(team.id), config.defaultPlan) } : undefined;
  });
  if (!found) throw new CliFailure(`no team is named '${name}' (see folio teams list)`);
  io.stdout(parsed.values.json === true ? `${JSON.stringify(jsonView(found.team, found.view), null, 2)}\n` : describe(found.team, found.view));
  return EXIT_OK;
}

async function list(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { json: { type: 'boolean' } }, 0);
  const teams = await withStore(config, async (store) => {
    const rows = new Map((await store.listTeamPlans()).map((r) => [r.teamId, r]));
    return (await store.listTeams()).map((team) => ({ team, view: planView(rows.get(team.id), config.defaultPlan) }));
  });
  io.stdout(
    listing(teams, parsed.values.json === true, {
      view: (t) => jsonView(t.team, t.view),
      empty: 'No teams. Create one with: folio teams set <name> --credits unlimited (or folio keys create --team <name>)',
      header: ['TEAM', 'ID', 'CREDITS LEFT', 'RATE/MIN', 'MAX CONCURRENT', 'ZDR', 'SIEM'],
      row: ({ team, view }) => [team.name, team.id, limit(view.credits), limit(view.ratePerMinute), String(view.maxConcurrent), view.zdr ? 'on' : 'off', view.siem ?? '-'],
    }),
  );
  return EXIT_OK;
}

export async function runTeams(args: string[], config: Config, io: CliIo): Promise<number> {
  return runSubcommand('teams', args, {
    set: (rest) => set(rest, config, io),
    show: (rest) => show(rest, config, io),
    list: (rest) => list(rest, config, io),
  });
}
