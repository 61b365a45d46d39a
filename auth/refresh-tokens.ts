/**
 * Refresh tokens (RFC 6749 §1.5, §6; OAuth 2.1 §4.3.1 rotation for public clients; DESIGN.md
 * "Auth decisions"):
 *   - opaque: 32 random bytes, base64url; the store keeps only the SHA-256;
 *   - bound to one grant and one client; live `ttlSeconds` (default 30 days) from issue;
 *   - rotated on every refresh: a new token is issued and the old one is marked `rotated_at`;
 *   - the old one stays usable for `graceSeconds` (default 30) after its first rotation, for
 *     clients that refresh in parallel; each use inside the window returns ANOTHER new token
 *     (the store cannot give back the first successor: it only has its hash);
 *   - used after the window it is a replay (RFC 9700 §4.14.2): the whole grant is revoked.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthTokenStore } from '../src/store/oauth-tokens.ts';
import { hashSecret } from './authorization-codes.ts';
import type { OAuthGrant, OAuthGrantDirectory } from './grants.ts';

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const REFRESH_GRACE_SECONDS = 30;

export interface RefreshTokensOptions {
  now?: () => Date;
  ttlSeconds?: number;
  graceSeconds?: number;
}

export interface RefreshRequest {
  refreshToken: string;
  clientId: string;
  /** RFC 6749 §6: space-separated; may narrow the token's scope, never widen it. */
  scope: string | undefined;
}

export type RefreshResult =
  | { ok: true; grant: OAuthGrant; scope: string; refreshToken: string }
  | { ok: false; error: 'invalid_grant' | 'invalid_scope'; description: string };

export interface RefreshTokens {
  /** A new refresh token for the grant with this scope. */
  issue(grant: OAuthGrant, scope: string): Promise<string>;
  /** Checks and rotates a presented refresh token (RFC 6749 §6). */
  rotate(request: RefreshRequest): Promise<RefreshResult>;
  /** The grant a refresh token belongs to and its client (RFC 7009 revocation); undefined when unknown. */
  owner(refreshToken: string): Promise<{ grantId: string; clientId: string } | undefined>;
}

export function scopeValues(scope: string): string[] {
  return scope.split(' ').filter((s) => s.length > 0);
}

const RECONNECT = 'Reconnect the client to authorize again.';

export function createRefreshTokens(store: OAuthTokenStore & OAuthGrantDirectory, options: RefreshTokensOptions = {}): RefreshTokens {
  const now = options.now ?? (() => new Date());
  const ttl = options.ttlSeconds ?? REFRESH_TOKEN_TTL_SECONDS;
  const grace = options.graceSeconds ?? REFRESH_GRACE_SECONDS;

  const issue = async (grant: OAuthGrant, scope: string): Promise<string> => {
    const token = randomBytes(32).toString('base64url');
    const at = now();
    await store.insertRefreshToken({
      tokenHash: hashSecret(token),
      grantId: grant.id,
      clientId: grant.clientId,
      scope,
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + ttl * 1000).toISOString(),
    });
    // Expired tokens are refused whatever their state: their rows serve nothing any more.
    await store.deleteExpiredRefreshTokens(at);
    return token;
  };

  return {
    issue,

    async rotate(request) {
      const at = now();
      const tokenHash = hashSecret(request.refreshToken);
      const record = await store.findRefreshToken(tokenHash);
      if (!record) return { ok: false, error: 'invalid_grant', description: `The refresh token is not valid. ${RECONNECT}` };
      // RFC 6749 §6: the token must have been issued to the client presenting it.
      if (record.clientId !== request.clientId) return { ok: false, error: 'invalid_grant', description: `The refresh token was issued to another client. ${RECONNECT}` };
      const grant = await store.getOAuthGrant(record.grantId);
      if (!grant) return { ok: false, error: 'invalid_grant', description: `The connection of this refresh token no longer exists. ${RECONNECT}` };
      if (grant.revokedAt !== null) {
        return { ok: false, error: 'invalid_grant', description: `The connection of this refresh token was revoked at ${grant.revokedAt}. ${RECONNECT}` };
      }
      if (record.rotatedAt !== null && at.getTime() - Date.parse(record.rotatedAt) > grace * 1000) {
        // Reuse of a rotated token after the grace window: it may have been stolen (RFC 9700 §4.14.2).
        await store.revokeOAuthGrant(grant.id, at);
        return {
          ok: false,
          error: 'invalid_grant',
          description: `The refresh token was already exchanged for a new one at ${record.rotatedAt}; reusing it revokes the connection. ${RECONNECT}`,
        };
      }
      if (Date.parse(record.expiresAt) <= at.getTime()) {
        return { ok: false, error: 'invalid_grant', description: `The refresh token expired at ${record.expiresAt}. ${RECONNECT}` };
      }
      let scope = record.scope;
      if (request.scope !== undefined) {
        const held = new Set(scopeValues(record.scope));
        const asked = scopeValues(request.scope);
        const extra = asked.filter((s) => !held.has(s));
        if (asked.length === 0) return { ok: false, error: 'invalid_scope', description: 'scope is empty: omit it to keep the granted scope.' };
        if (extra.length > 0) {
          return { ok: false, error: 'invalid_scope', description: `scope may only narrow the granted scope "${record.scope}"; not granted: ${extra.join(' ')}.` };
        }
        scope = [...new Set(asked)].join(' ');
      }
      await store.markRefreshTokenRotated(tokenHash, at);
      return { ok: true, grant, scope, refreshToken: await issue(grant, scope) };
    },

    async owner(refreshToken) {
      const record = await store.findRefreshToken(hashSecret(refreshToken));
      return record ? { grantId: record.grantId, clientId: record.clientId } : undefined;
    },
  };
}
