/**
 * folio's OAuth access tokens: RFC 9068 JWT access tokens (`typ: at+jwt`), ES256-signed with the
 * persisted signing keys, one hour (spec "Limits": access token lifetime), bound to one grant.
 *
 * Verification (`verify(token, resource)`) applies DESIGN.md "Auth decisions" and the spec's
 * migration rules (Authentication, "OAuth for interactive clients" 10):
 *   - a token with no `aud`, or with several, is refused (RFC 9068 §4 asks for the audience to be
 *     checked; an ambiguous one cannot be);
 *   - `/v2/mcp` accepts only tokens whose audience is `{mcp_url}/v2/mcp`;
 *   - `/v2/mcp-oauth` accepts its own audience, and `{mcp_url}/v2/mcp` tokens only while the
 *     migration window (`FOLIO_OAUTH_MIGRATION_END`) is open; absent = closed;
 *   - the grant must exist and not be revoked: revocation takes effect at the next request.
 * Every refusal is RFC 6750 §3.1 `invalid_token` with a description a person can act on; none of
 * them carries the token.
 */
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { mcpResourceUrl } from '../.well-known/urls.ts';
import { looksLikeJwt, type AccessTokenClaims, type AccessTokenVerifier, type McpResourcePath, type TokenVerdict } from './access-token-types.ts';
import type { OAuthGrant, OAuthGrantDirectory } from './grants.ts';
import { SIGNING_ALG, type SigningKeys } from './signing-keys.ts';

/** RFC 9068 §2.1: the `typ` header of a JWT access token. */
export const ACCESS_TOKEN_TYP = 'at+jwt';
/** Spec "Limits": access tokens expire after one hour. Also the longest lifetime `issue` accepts. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Clock skew tolerated on `exp`/`iat`/`nbf` (between instances, or a client's retried request). */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** A grant's `last_used_at` is written at most this often. */
export const GRANT_LAST_USED_RESOLUTION_MS = 60_000;

/** Private claims (RFC 7519 §4.3) naming the grant and the team the token is billed to. */
export const GRANT_ID_CLAIM = 'grant_id';
export const TEAM_ID_CLAIM = 'team_id';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export interface AccessTokens extends AccessTokenVerifier {
  /** Signs an access token for the grant (RFC 6749 §5.1 response fields). */
  issue(grant: OAuthGrant, options?: { ttlSeconds?: number }): Promise<TokenResponse>;
}

export interface AccessTokensOptions {
  keys: SigningKeys;
  grants: OAuthGrantDirectory;
  /** `iss` (the authorization server's issuer identifier: the public base URL). */
  issuer: string;
  /** `{mcp_url}`: audiences are `{mcp_url}/v2/mcp` and `{mcp_url}/v2/mcp-oauth`. */
  mcpUrl: string;
  /** Until when `/v2/mcp` tokens are also accepted on `/v2/mcp-oauth`; undefined = window closed. */
  migrationEnd: Date | undefined;
  now?: () => Date;
  /** Called when recording a grant's use fails (the request still goes on). */
  onTouchError?: (err: unknown) => void;
}

class UnknownKeyError extends Error {}

function refuse(description: string): TokenVerdict {
  return { ok: false, error: 'invalid_token', description };
}

const RECONNECT = 'Reconnect the client (or use its refresh token) to get a new access token.';

function describeJoseFailure(err: unknown, now: Date): string | undefined {
  if (err instanceof UnknownKeyError) {
    return `The access token was signed with a key this server does not know (it may have been retired, or the token comes from another server). ${RECONNECT}`;
  }
  if (err instanceof errors.JWTExpired) {
    const exp = typeof err.payload.exp === 'number' ? new Date(err.payload.exp * 1000).toISOString() : 'an earlier time';
    return `The access token expired at ${exp} (it is now ${now.toISOString()}); access tokens live one hour. Refresh it with the refresh token, or reconnect the client.`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return `The access token's signature does not verify: it was altered or not issued by this server. ${RECONNECT}`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) {
    return `The access token is not signed with ${SIGNING_ALG}, the only algorithm this server issues and accepts. ${RECONNECT}`;
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'typ') return `The token is not a JWT access token (RFC 9068 'typ: at+jwt'): ID tokens and other JWTs are not accepted here. ${RECONNECT}`;
    if (err.claim === 'iss') return `The access token was issued by another authorization server (iss), not by this one. ${RECONNECT}`;
    if (err.reason === 'missing') return `The access token lacks its '${err.claim}' claim. ${RECONNECT}`;
    return `The access token's '${err.claim}' claim is not valid (${err.reason}). ${RECONNECT}`;
  }
  if (err instanceof errors.JOSEError) {
    return `The access token is malformed (${err.code}). ${RECONNECT}`;
  }
  return undefined;
}

/** RFC 9068 §4 with the migration rules: undefined when `aud` is acceptable on `resource`. */
function audienceRefusal(aud: JWTPayload['aud'], resource: McpResourcePath, mcpUrl: string, migrationEnd: Date | undefined, now: Date): { audience: string } | { refusal: string } {
  if (aud === undefined) return { refusal: `The access token has no audience (aud), so it cannot be bound to this resource and is refused. ${RECONNECT}` };
  const list = Array.isArray(aud) ? aud : [aud];
  if (list.length !== 1) {
    return { refusal: `The access token names ${list.length} audiences; folio accepts only tokens bound to exactly one resource. ${RECONNECT}` };
  }
  const audience = list[0] ?? '';
  const here = mcpResourceUrl(mcpUrl, resource);
  if (audience === here) return { audience };
  const legacy = mcpResourceUrl(mcpUrl, '/v2/mcp');
  const oauth = mcpResourceUrl(mcpUrl, '/v2/mcp-oauth');
  if (resource === '/v2/mcp-oauth' && audience === legacy) {
    if (migrationEnd !== undefined && now.getTime() < migrationEnd.getTime()) return { audience };
    const closed = migrationEnd === undefined ? 'is not open on this server' : `closed at ${migrationEnd.toISOString()}`;
    return { refusal: `The access token is for ${legacy}; the migration window during which such tokens are also accepted at ${oauth} ${closed}. Use the token at ${legacy}, or reconnect the client to ${oauth} to authorize it for this resource.` };
  }
  if (resource === '/v2/mcp' && audience === oauth) {
    return { refusal: `The access token is for ${oauth} and is not accepted at ${legacy}. Send it to ${oauth}, or use an API key at ${legacy}.` };
  }
  return { refusal: `The access token is for ${audience}, not for ${here}. Send it to the resource it was issued for, or reconnect the client to ${here}.` };
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const v = payload[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function createAccessTokens(options: AccessTokensOptions): AccessTokens {
  const now = options.now ?? (() => new Date());
  const { keys, grants, issuer, mcpUrl, migrationEnd } = options;

  const getKey = async (header: ProtectedHeaderParameters) => {
    if (typeof header.kid !== 'string') throw new UnknownKeyError();
    const key = await keys.verificationKey(header.kid);
    if (!key) throw new UnknownKeyError();
    return key;
  };

  return {
    async issue(grant, issueOptions = {}) {
      const ttl = issueOptions.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
      if (!Number.isInteger(ttl) || ttl < 1 || ttl > ACCESS_TOKEN_TTL_SECONDS) {
        throw new RangeError(`an access token lives 1 to ${ACCESS_TOKEN_TTL_SECONDS} seconds, not ${ttl}`);
      }
      if (grant.revokedAt !== null) throw new Error(`grant ${grant.id} is revoked: no token can be issued for it`);
      const signer = await keys.current();
      const iat = Math.floor(now().getTime() / 1000);
      // RFC 9068 §2.2: iss, exp, aud, sub, client_id, iat, jti (+ scope, §2.2.3).
      const accessToken = await new SignJWT({
        client_id: grant.clientId,
        scope: grant.scope,
        [GRANT_ID_CLAIM]: grant.id,
        [TEAM_ID_CLAIM]: grant.teamId,
      })
        .setProtectedHeader({ alg: signer.alg, typ: ACCESS_TOKEN_TYP, kid: signer.kid })
        .setIssuer(issuer)
        .setSubject(grant.userId ?? `team:${grant.teamId}`)
        .setAudience(mcpResourceUrl(mcpUrl, grant.resource))
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .sign(signer.key);
      return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, scope: grant.scope };
    },

    async verify(token, resource) {
      const at = now();
      if (!looksLikeJwt(token)) return refuse(`The bearer value is not a folio access token (a JWT of three dot-separated parts). ${RECONNECT}`);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, getKey, {
          issuer,
          typ: ACCESS_TOKEN_TYP,
          algorithms: [SIGNING_ALG],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: at,
          requiredClaims: ['sub', 'exp', 'iat', 'jti', 'client_id'],
        }));
      } catch (err) {
        const description = describeJoseFailure(err, at);
        if (description === undefined) throw err;
        return refuse(description);
      }

      const aud = audienceRefusal(payload.aud, resource, mcpUrl, migrationEnd, at);
      if ('refusal' in aud) return refuse(aud.refusal);

      const grantId = stringClaim(payload, GRANT_ID_CLAIM);
      const clientId = stringClaim(payload, 'client_id');
      if (grantId === undefined || clientId === undefined) return refuse(`The access token does not name its grant or client. ${RECONNECT}`);
      const grant = await grants.getOAuthGrant(grantId);
      if (!grant) return refuse(`The connection this access token belongs to no longer exists. Reconnect the client to authorize again.`);
      if (grant.revokedAt !== null) {
        return refuse(`The connection this access token belongs to was revoked at ${grant.revokedAt}. Reconnect the client to authorize again.`);
      }
      if (grant.clientId !== clientId || grant.teamId !== stringClaim(payload, TEAM_ID_CLAIM) || mcpResourceUrl(mcpUrl, grant.resource) !== aud.audience) {
        return refuse(`The access token does not match the connection it names. ${RECONNECT}`);
      }

      const last = grant.lastUsedAt === null ? 0 : Date.parse(grant.lastUsedAt);
      if (!(at.getTime() - last < GRANT_LAST_USED_RESOLUTION_MS)) {
        grants.touchOAuthGrant(grant.id, at).catch((err: unknown) => options.onTouchError?.(err));
      }

      const claims: AccessTokenClaims = {
        grantId: grant.id,
        clientId: grant.clientId,
        teamId: grant.teamId,
        teamName: grant.teamName,
        scope: grant.scope,
        audience: aud.audience,
        expiresAt: new Date((payload.exp ?? 0) * 1000),
      };
      if (grant.userId !== null) claims.userId = grant.userId;
      return { ok: true, claims };
    },
  };
}
