/**
 * Who calls the tool server (interface-v2 "Authentication › Hosted tool server"):
 *
 *   /v2/mcp           none → keyless (when enabled); `Bearer folio_…` → the key's team;
 *                     `Bearer <JWT>` → a folio access token for /v2/mcp
 *   /{API_KEY}/v2/mcp legacy: the key from the path
 *   /v2/mcp-oauth     a credential is required: access token for /v2/mcp-oauth, or an API key
 *
 * A presented credential that is not valid is a 401 (RFC 6750 §3.1 `invalid_token`), never a
 * fall back to keyless. On /v2/mcp-oauth every 401 carries `resource_metadata` (RFC 9728 §5.1).
 */
import type { Request } from 'express';
import { recordApiKeyUse, verifyApiKey, REALM, type ApiKeyDirectory } from '../../auth/api-keys.ts';
import { looksLikeJwt, type AccessTokenVerifier, type McpResourcePath } from '../../auth/access-token-types.ts';
import type { Caller } from '../../tools/types.ts';
import { keylessClientId } from '../limits/keyless.ts';

export type McpEndpoint = McpResourcePath | 'legacy';

export type AuthOutcome =
  | { ok: true; caller: Caller; keyId?: string }
  | { ok: false; status: 400 | 401; message: string; challenge?: string };

export interface AuthDeps {
  keys: ApiKeyDirectory;
  tokens?: AccessTokenVerifier;
  keylessEnabled: boolean;
  keylessSecret: () => Promise<string>;
  /** The RFC 9728 metadata URL of /v2/mcp-oauth (absolute). */
  oauthResourceMetadataUrl: string;
  /** Called when recording a key's use fails (the call still goes on). */
  onTouchError?: (err: unknown) => void;
}

const KEY_HEADER_HINT = "Send it in the Authorization header as 'Authorization: Bearer <API_KEY>'.";

/** `Bearer <token>`; the scheme is case-insensitive (RFC 9110 §11.1). */
function bearer(header: string | undefined): { scheme: string; token: string } | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(\S+)(?:\s+(\S*))?\s*$/.exec(header);
  if (!match) return { scheme: '', token: '' };
  return { scheme: (match[1] ?? '').toLowerCase(), token: match[2] ?? '' };
}

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`;
}

export async function authenticate(req: Request, endpoint: McpEndpoint, deps: AuthDeps, pathKey?: string): Promise<AuthOutcome> {
  const oauth = endpoint === '/v2/mcp-oauth';
  const metadata = oauth ? `resource_metadata=${quoted(deps.oauthResourceMetadataUrl)}` : undefined;
  const invalid = (message: string, description: string): AuthOutcome => ({
    ok: false,
    status: 401,
    message,
    challenge: oauth
      ? `Bearer error="invalid_token", error_description=${quoted(description)}, ${metadata}`
      : `Bearer realm="${REALM}", error="invalid_token", error_description=${quoted(description)}`,
  });

  let token: string;
  if (endpoint === 'legacy') {
    token = pathKey ?? '';
  } else {
    const credentials = bearer(req.headers.authorization);
    if (!credentials) {
      if (oauth) {
        return {
          ok: false,
          status: 401,
          message: `Authorization required. Connect with OAuth (the server's metadata is at ${deps.oauthResourceMetadataUrl}), or send an API key as 'Authorization: Bearer <API_KEY>'.`,
          challenge: `Bearer ${metadata}`,
        };
      }
      if (!deps.keylessEnabled) {
        return { ok: false, status: 401, message: `This server does not offer keyless access: an API key is required. ${KEY_HEADER_HINT}`, challenge: `Bearer realm="${REALM}"` };
      }
      const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      return { ok: true, caller: { kind: 'keyless', owner: `keyless:${keylessClientId(ip, await deps.keylessSecret())}` } };
    }
    if (credentials.scheme !== 'bearer' || credentials.token === '') {
      return invalid(`Invalid Authorization header: use the Bearer scheme. ${KEY_HEADER_HINT}`, 'The Authorization header is not a Bearer credential');
    }
    token = credentials.token;
  }

  if (endpoint !== 'legacy' && looksLikeJwt(token)) {
    const verdict = deps.tokens ? await deps.tokens.verify(token, endpoint) : undefined;
    if (!verdict) return invalid('Invalid access token: this server does not accept OAuth access tokens.', 'OAuth access tokens are not accepted here');
    if (!verdict.ok) return invalid(`Invalid access token: ${verdict.description}`, verdict.description);
    const c = verdict.claims;
    return {
      ok: true,
      caller: { kind: 'oauth', teamId: c.teamId, teamName: c.teamName, ...(c.userId !== undefined ? { userId: c.userId } : {}), clientId: c.clientId, owner: `team:${c.teamId}` },
    };
  }
  const stored = await verifyApiKey(deps.keys, token);
  if (!stored) {
    return invalid(
      'Invalid API key: it is unknown, malformed or revoked. Check the key, or create a new one with `folio keys create --team <name>`.',
      'The API key is unknown, malformed or revoked',
    );
  }
  recordApiKeyUse(deps.keys, stored, new Date(), deps.onTouchError);
  return { ok: true, caller: { kind: 'api-key', teamId: stored.teamId, teamName: stored.teamName, keyId: stored.id, owner: `team:${stored.teamId}` }, keyId: stored.id };
}
