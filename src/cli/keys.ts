/** `folio keys create|list|revoke`: API keys in the store of DATA_DIR. */
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import type { Config } from '../config.ts';
import type { ApiKeyRecord } from '../store/types.ts';
import { parseCommandArgs, stringOption } from './args.ts';
import { CliFailure, EXIT_OK, runSubcommand, UsageError, type CliIo } from './io.ts';
import { withStore } from './store.ts';
import { listing } from './table.ts';

const MAX_TEAM_NAME = 100;

async function create(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { team: { type: 'string' } }, 0);
  const team = stringOption(parsed, 'team')?.trim();
  if (!team) throw new UsageError('keys create needs --team <name>');
  if (team.length > MAX_TEAM_NAME) throw new UsageError(`the team name is longer than ${MAX_TEAM_NAME} characters`);
  const key = generateApiKey();
  const record = await withStore(config, async (store) => {
    const t = await store.ensureTeam(team);
    return store.createApiKey({ teamId: t.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  });
  io.stdout(`${key}\n`);
  io.stderr(`Created API key ${record.id} for team '${record.teamName}'. It is shown only this once: store it now.\n`);
  return EXIT_OK;
}

function publicView(k: ApiKeyRecord) {
  return {
    id: k.id,
    team: k.teamName,
    teamId: k.teamId,
    prefix: k.prefix,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  };
}

async function list(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { json: { type: 'boolean' } }, 0);
  const keys = await withStore(config, (store) => store.listApiKeys());
  io.stdout(
    listing(keys, parsed.values.json === true, {
      view: publicView,
      empty: 'No API keys. Create one with: folio keys create --team <name>',
      header: ['ID', 'TEAM', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'],
      row: (k) => [k.id, k.teamName, `${k.prefix}…`, k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-'],
    }),
  );
  return EXIT_OK;
}

async function revoke(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, {}, 1);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError('keys revoke needs the id of a key (see folio keys list)');
  const record = await withStore(config, async (store) => {
    const before = await store.getApiKey(id);
    const after = await store.revokeApiKey(id);
    return before && after ? { after, wasRevoked: before.revokedAt !== null } : undefined;
  });
  if (!record) throw new CliFailure(`no API key has the id '${id}' (see folio keys list)`);
  const what = `${record.after.id} (team '${record.after.teamName}', ${record.after.prefix}…)`;
  io.stdout(record.wasRevoked ? `API key ${what} was already revoked at ${record.after.revokedAt ?? ''}.\n` : `Revoked API key ${what}.\n`);
  return EXIT_OK;
}

export async function runKeys(args: string[], config: Config, io: CliIo): Promise<number> {
  return runSubcommand('keys', args, {
    create: (rest) => create(rest, config, io),
    list: (rest) => list(rest, config, io),
    revoke: (rest) => revoke(rest, config, io),
  });
}
