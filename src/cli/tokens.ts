/**
 * `folio tokens issue|list|revoke`: OAuth grants and their access tokens, for operators. `issue`
 * makes a grant for a team (no user) and prints one access token; it is the documented way to get
 * a token bound to the legacy `/v2/mcp` resource, to exercise the migration rules (spec,
 * Authentication, "OAuth for interactive clients" 10). Tokens are printed once and never logged.
 *
 * The token's `iss` and `aud` come from the same configuration as `folio serve` (FOLIO_PUBLIC_URL,
 * FOLIO_MCP_URL, else HOST and PORT): run both with the same environment.
 */
import { ACCESS_TOKEN_TTL_SECONDS, createAccessTokens } from '../../auth/access-tokens.ts';
import type { McpResourcePath } from '../../auth/access-token-types.ts';
import type { OAuthGrant } from '../../auth/grants.ts';
import { MCP_SCOPE } from '../../auth/scopes.ts';
import { createSigningKeys } from '../../auth/signing-keys.ts';
import { mcpResourceUrl } from '../../.well-known/urls.ts';
import type { Config } from '../config.ts';
import { resolvePublicUrls, type PublicUrls } from '../public-urls.ts';
import { parseCommandArgs, stringOption } from './args.ts';
import { CliFailure, EXIT_OK, runSubcommand, UsageError, type CliIo } from './io.ts';
import { withStore } from './store.ts';
import { listing } from './table.ts';

/** The `client_id` of grants made from the CLI, unless `--client` names another. */
export const CLI_CLIENT_ID = 'folio-cli';
const MAX_TEAM_NAME = 100;
const MAX_CLIENT_ID = 200;

const RESOURCES: Record<string, McpResourcePath> = { mcp: '/v2/mcp', 'mcp-oauth': '/v2/mcp-oauth' };

/** The URLs `folio serve` would use with this configuration. */
export function configuredUrls(config: Config): PublicUrls {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return resolvePublicUrls(config, `http://${host}:${config.port}`);
}

function ttlOption(raw: string | undefined): number {
  if (raw === undefined) return ACCESS_TOKEN_TTL_SECONDS;
  const ttl = Number(raw);
  if (!/^\d+$/.test(raw) || ttl < 1 || ttl > ACCESS_TOKEN_TTL_SECONDS) {
    throw new UsageError(`--ttl is a whole number of seconds from 1 to ${ACCESS_TOKEN_TTL_SECONDS} (access tokens live at most one hour), not '${raw}'`);
  }
  return ttl;
}

async function issue(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { team: { type: 'string' }, resource: { type: 'string' }, ttl: { type: 'string' }, client: { type: 'string' }, json: { type: 'boolean' } }, 0);
  const team = stringOption(parsed, 'team')?.trim();
  if (!team) throw new UsageError('tokens issue needs --team <name>');
  if (team.length > MAX_TEAM_NAME) throw new UsageError(`the team name is longer than ${MAX_TEAM_NAME} characters`);
  const resourceName = stringOption(parsed, 'resource');
  if (resourceName === undefined) throw new UsageError('tokens issue needs --resource mcp|mcp-oauth');
  const resource = RESOURCES[resourceName];
  if (!resource) throw new UsageError(`--resource is 'mcp' (tokens for /v2/mcp) or 'mcp-oauth' (tokens for /v2/mcp-oauth), not '${resourceName}'`);
  const ttlSeconds = ttlOption(stringOption(parsed, 'ttl'));
  const clientId = stringOption(parsed, 'client')?.trim() ?? CLI_CLIENT_ID;
  if (clientId.length === 0 || clientId.length > MAX_CLIENT_ID) throw new UsageError(`--client is 1 to ${MAX_CLIENT_ID} characters`);

  const urls = configuredUrls(config);
  const result = await withStore(config, async (store) => {
    const existed = (await store.findTeamByName(team)) !== undefined;
    const t = await store.ensureTeam(team);
    const grant = await store.createOAuthGrant({ clientId, teamId: t.id, scope: MCP_SCOPE, resource });
    const tokens = createAccessTokens({ keys: createSigningKeys(store), grants: store, issuer: urls.base, mcpUrl: urls.mcp, migrationEnd: config.oauthMigrationEnd });
    return { grant, existed, response: await tokens.issue(grant, { ttlSeconds }) };
  });
  const audience = mcpResourceUrl(urls.mcp, resource);
  const expiresAt = new Date(Date.now() + result.response.expires_in * 1000).toISOString();
  if (parsed.values.json === true) {
    io.stdout(`${JSON.stringify({ ...result.response, grant_id: result.grant.id, team: result.grant.teamName, resource: audience, expires_at: expiresAt }, null, 2)}\n`);
  } else {
    io.stdout(`${result.response.access_token}\n`);
  }
  if (!result.existed) io.stderr(`Created team '${result.grant.teamName}'.\n`);
  io.stderr(
    `Issued an access token for ${audience} (grant ${result.grant.id}, team '${result.grant.teamName}', client '${clientId}'), valid until ${expiresAt}. ` +
      `It is shown only this once. Send it as 'Authorization: Bearer <token>'; revoke it with: folio tokens revoke ${result.grant.id}\n`,
  );
  return EXIT_OK;
}

function publicView(g: OAuthGrant) {
  return {
    id: g.id,
    clientId: g.clientId,
    userId: g.userId,
    team: g.teamName,
    teamId: g.teamId,
    scope: g.scope,
    resource: g.resource,
    createdAt: g.createdAt,
    lastUsedAt: g.lastUsedAt,
    revokedAt: g.revokedAt,
  };
}

async function list(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { json: { type: 'boolean' } }, 0);
  const grants = await withStore(config, (store) => store.listOAuthGrants());
  io.stdout(
    listing(grants, parsed.values.json === true, {
      view: publicView,
      empty: 'No OAuth grants. Issue a token with: folio tokens issue --team <name> --resource mcp|mcp-oauth',
      header: ['ID', 'CLIENT', 'USER', 'TEAM', 'RESOURCE', 'SCOPE', 'CREATED', 'LAST USED', 'REVOKED'],
      row: (g) => [g.id, g.clientId, g.userId ?? '-', g.teamName, g.resource, g.scope, g.createdAt, g.lastUsedAt ?? '-', g.revokedAt ?? '-'],
    }),
  );
  return EXIT_OK;
}

async function revoke(args: string[], config: Config, io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, {}, 1);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError('tokens revoke needs the id of a grant (see folio tokens list)');
  const record = await withStore(config, async (store) => {
    const before = await store.getOAuthGrant(id);
    const after = await store.revokeOAuthGrant(id, new Date());
    return before && after ? { after, wasRevoked: before.revokedAt !== null } : undefined;
  });
  if (!record) throw new CliFailure(`no OAuth grant has the id '${id}' (see folio tokens list)`);
  const what = `${record.after.id} (client '${record.after.clientId}', team '${record.after.teamName}', ${record.after.resource})`;
  io.stdout(
    record.wasRevoked
      ? `Grant ${what} was already revoked at ${record.after.revokedAt ?? ''}.\n`
      : `Revoked grant ${what}: its access tokens are refused from now on.\n`,
  );
  return EXIT_OK;
}

async function rotateKey(args: string[], config: Config, io: CliIo): Promise<number> {
  parseCommandArgs(args, {}, 0);
  const live = await withStore(config, async (store) => {
    const keys = createSigningKeys(store);
    await keys.jwks();
    const kid = await keys.rotate();
    return { kid, all: await store.listLiveSigningKeys() };
  });
  io.stdout(`${live.kid}\n`);
  io.stderr(
    `New signing key ${live.kid}: it signs new tokens from now on (a running server picks it up within seconds). ` +
      `The previous keys keep verifying; retire them after an hour (the access token lifetime) with: folio tokens retire-key <kid>\n` +
      `Live keys, newest first: ${live.all.map((k) => k.kid).join(', ')}\n`,
  );
  return EXIT_OK;
}

async function retireKey(args: string[], config: Config, io: CliIo): Promise<number> {
  // Read literally, not as options: a kid is base64url and may begin with '-' (RFC 7638 thumbprint).
  const words = args[0] === '--' ? args.slice(1) : args;
  if (words.length > 1) throw new UsageError('tokens retire-key takes one kid');
  const kid = words[0];
  if (!kid) throw new UsageError('tokens retire-key needs the kid of a signing key (see the JWKS at /.well-known/jwks.json)');
  const found = await withStore(config, (store) => createSigningKeys(store).retire(kid));
  if (!found) throw new CliFailure(`no signing key has the kid '${kid}'`);
  io.stdout(`Retired signing key ${kid}: tokens signed with it are refused from now on.\n`);
  return EXIT_OK;
}

export async function runTokens(args: string[], config: Config, io: CliIo): Promise<number> {
  return runSubcommand('tokens', args, {
    issue: (rest) => issue(rest, config, io),
    list: (rest) => list(rest, config, io),
    revoke: (rest) => revoke(rest, config, io),
    'rotate-key': (rest) => rotateKey(rest, config, io),
    'retire-key': (rest) => retireKey(rest, config, io),
  });
}
