/**
 * The token endpoint's and the revocation endpoint's logic, independent of HTTP framing
 * (src/http/routes/oauth-token.ts parses the form and writes the answer):
 *
 *   token (RFC 6749 §3.2):  grant_type=authorization_code (§4.1.3) | refresh_token (§6)
 *   revoke (RFC 7009 §2):   token [+ token_type_hint]
 *
 * folio's clients are public (DESIGN.md: no secrets): `client_id` travels in the body (§2.3.1
 * does not apply); a client that authenticates anyway (client_secret, Basic) is `invalid_client`,
 * since no client has a secret to check.
 */
import { decodeJwt } from 'jose';
import { looksLikeJwt, type McpResourcePath } from './access-token-types.ts';
import type { AccessTokens } from './access-tokens.ts';
import type { AuthorizationCodes } from './authorization-codes.ts';
import { MCP_RESOURCE_PATHS, type OAuthGrant, type OAuthGrantDirectory } from './grants.ts';
import type { RefreshTokens } from './refresh-tokens.ts';

/** RFC 6749 §5.2 error codes, plus RFC 8707 §2.2 `invalid_target`. */
export type TokenErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'invalid_target';

export interface TokenSuccess {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export type TokenOutcome = { ok: true; body: TokenSuccess } | { ok: false; error: TokenErrorCode; description: string };

/** The form parameters (each at most once: the route refuses repeats, RFC 6749 §3.2). */
export type FormParams = ReadonlyMap<string, string>;

export interface TokenEndpoint {
  /** `clientAuthenticated`: the request carried an Authorization header. */
  token(params: FormParams, clientAuthenticated: boolean): Promise<TokenOutcome>;
  /** RFC 7009 §2.2: success means "the token is not usable by this client any more" or unknown. */
  revoke(params: FormParams, clientAuthenticated: boolean): Promise<{ ok: true; revoked: boolean } | { ok: false; error: 'invalid_request' | 'invalid_client'; description: string }>;
}

export interface TokenEndpointDeps {
  codes: AuthorizationCodes;
  refreshTokens: RefreshTokens;
  accessTokens: AccessTokens;
  grants: OAuthGrantDirectory;
  /** `{mcp_url}`, to turn a resource path into its absolute URL. */
  resourceUrl: (path: McpResourcePath) => string;
  now?: () => Date;
}

function fail(error: TokenErrorCode, description: string): TokenOutcome {
  return { ok: false, error, description };
}

const NO_SECRETS = 'folio registers public clients only: send client_id in the form body and no client_secret or Authorization header.';

export function createTokenEndpoint(deps: TokenEndpointDeps): TokenEndpoint {
  const now = deps.now ?? (() => new Date());

  const respond = async (grant: OAuthGrant, scope: string, refreshToken: string): Promise<TokenOutcome> => {
    const access = await deps.accessTokens.issue({ ...grant, scope });
    return { ok: true, body: { access_token: access.access_token, token_type: 'Bearer', expires_in: access.expires_in, refresh_token: refreshToken, scope } };
  };

  const clientOf = (params: FormParams, clientAuthenticated: boolean): { clientId: string } | { error: 'invalid_request' | 'invalid_client'; description: string } => {
    if (clientAuthenticated || params.has('client_secret') || params.has('client_assertion')) return { error: 'invalid_client', description: NO_SECRETS };
    const clientId = params.get('client_id');
    if (!clientId) return { error: 'invalid_request', description: 'client_id is required (public clients identify themselves with it in the form body).' };
    return { clientId };
  };

  return {
    async token(params, clientAuthenticated) {
      const client = clientOf(params, clientAuthenticated);
      if ('error' in client) return fail(client.error, client.description);
      const grantType = params.get('grant_type');
      if (!grantType) return fail('invalid_request', 'grant_type is required: authorization_code or refresh_token.');

      if (grantType === 'authorization_code') {
        const code = params.get('code');
        if (!code) return fail('invalid_request', 'code is required with grant_type=authorization_code.');
        const redeemed = await deps.codes.redeem(
          { code, clientId: client.clientId, redirectUri: params.get('redirect_uri'), codeVerifier: params.get('code_verifier'), resource: params.get('resource') },
          deps.resourceUrl,
        );
        if (!redeemed.ok) return fail(redeemed.error, redeemed.description);
        const refreshToken = await deps.refreshTokens.issue(redeemed.grant, redeemed.grant.scope);
        return respond(redeemed.grant, redeemed.grant.scope, refreshToken);
      }

      if (grantType === 'refresh_token') {
        const refreshToken = params.get('refresh_token');
        if (!refreshToken) return fail('invalid_request', 'refresh_token is required with grant_type=refresh_token.');
        const rotated = await deps.refreshTokens.rotate({ refreshToken, clientId: client.clientId, scope: params.get('scope') });
        if (!rotated.ok) return fail(rotated.error, rotated.description);
        // RFC 8707 §2.2: a resource, when sent, must be the grant's.
        const resource = params.get('resource');
        const expected = deps.resourceUrl(rotated.grant.resource);
        if (resource !== undefined && resource !== expected) return fail('invalid_target', `resource must be ${expected}, the resource this connection was authorized for.`);
        return respond(rotated.grant, rotated.scope, rotated.refreshToken);
      }

      return fail('unsupported_grant_type', `grant_type "${grantType.slice(0, 64)}" is not supported; use authorization_code or refresh_token.`);
    },

    async revoke(params, clientAuthenticated) {
      const client = clientOf(params, clientAuthenticated);
      if ('error' in client) return { ok: false, error: client.error, description: client.description };
      const token = params.get('token');
      if (!token) return { ok: false, error: 'invalid_request', description: 'token is required: the access or refresh token to revoke.' };
      // token_type_hint is only a hint (RFC 7009 §2.1): both kinds are looked up whatever it says.
      let owner: { grantId: string; clientId: string } | undefined;
      if (looksLikeJwt(token)) owner = await accessTokenOwner(deps, token);
      owner ??= await deps.refreshTokens.owner(token);
      // RFC 7009 §2.1: the server verifies the token was issued to the requesting client. A token
      // of another client is not revoked, and the answer is still 200 (§2.2: it reveals nothing).
      if (!owner || owner.clientId !== client.clientId) return { ok: true, revoked: false };
      await deps.grants.revokeOAuthGrant(owner.grantId, now());
      return { ok: true, revoked: true };
    },
  };
}

/** The grant and client of a valid folio access token; undefined for anything else (expired, forged, unknown). */
async function accessTokenOwner(deps: Pick<TokenEndpointDeps, 'accessTokens' | 'resourceUrl'>, token: string): Promise<{ grantId: string; clientId: string } | undefined> {
  let aud: unknown;
  try {
    aud = decodeJwt(token).aud;
  } catch {
    return undefined;
  }
  const path = MCP_RESOURCE_PATHS.find((p) => deps.resourceUrl(p) === aud);
  if (path === undefined) return undefined;
  const verdict = await deps.accessTokens.verify(token, path);
  return verdict.ok ? { grantId: verdict.claims.grantId, clientId: verdict.claims.clientId } : undefined;
}
