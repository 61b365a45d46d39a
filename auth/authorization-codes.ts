/**
 * Authorization codes (RFC 6749 §4.1.2, §4.1.3) with PKCE S256 (RFC 7636) and resource
 * indicators (RFC 8707): issued by the authorization endpoint (`issueCode`, the
 * AuthorizationCodeIssuer contract), redeemed by the token endpoint (`redeem`).
 *
 *   - a code is 32 random bytes, base64url; the store keeps only its SHA-256;
 *   - it lives `ttlSeconds` (default 60; RFC 6749 §4.1.2 recommends at most 10 minutes);
 *   - it is single use: a second redemption is refused AND revokes the grant the first one
 *     created (RFC 6749 §4.1.2 "SHOULD revoke … all tokens previously issued based on that code");
 *   - it is bound to the client, the exact redirect_uri string (§4.1.3), the PKCE challenge
 *     (RFC 7636 §4.6) and the resource (RFC 8707 §2.2).
 * A refused redemption does not spend the code (the verifier has 256 bits: guessing it within
 * the code's lifetime is not a threat), so a client can correct a mistaken request.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NewAuthorizationCode, OAuthTokenStore } from '../src/store/oauth-tokens.ts';
import type { ApprovedAuthorization, AuthorizationCodeIssuer } from './authorization-code-types.ts';
import type { OAuthGrant, OAuthGrantDirectory } from './grants.ts';

export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** RFC 7636 §4.1: code_verifier = 43*128unreserved. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface AuthorizationCodesOptions {
  now?: () => Date;
  ttlSeconds?: number;
}

/** What the token request presents alongside the code (RFC 6749 §4.1.3, RFC 7636 §4.5, RFC 8707 §2.2). */
export interface CodeRedemption {
  code: string;
  clientId: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  /** The absolute resource URL the request named, if it named one. */
  resource: string | undefined;
}

export type RedemptionError = 'invalid_grant' | 'invalid_request' | 'invalid_target';

export type RedeemResult =
  | { ok: true; grant: OAuthGrant }
  | { ok: false; error: RedemptionError; description: string };

export interface AuthorizationCodes extends AuthorizationCodeIssuer {
  /**
   * Spends the code and creates its grant; `resourceUrl` turns the code's resource path into the
   * absolute URL a request's `resource` is compared with.
   */
  redeem(request: CodeRedemption, resourceUrl: (path: OAuthGrant['resource']) => string): Promise<RedeemResult>;
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** RFC 7636 §4.2, S256. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function refuse(error: RedemptionError, description: string): RedeemResult {
  return { ok: false, error, description };
}

const RESTART = 'Start the authorization again to get a new code.';

export function createAuthorizationCodes(store: OAuthTokenStore & OAuthGrantDirectory, options: AuthorizationCodesOptions = {}): AuthorizationCodes {
  const now = options.now ?? (() => new Date());
  const ttl = options.ttlSeconds ?? AUTHORIZATION_CODE_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 600) throw new RangeError(`an authorization code lives 1 to 600 seconds, not ${ttl}`);

  return {
    async issueCode(approval: ApprovedAuthorization) {
      if (!S256_CHALLENGE.test(approval.codeChallenge)) throw new Error('the code challenge is not an S256 challenge (43 base64url characters)');
      const code = randomBytes(32).toString('base64url');
      const at = now();
      const record: NewAuthorizationCode = {
        codeHash: hashSecret(code),
        clientId: approval.clientId,
        userId: approval.userId,
        teamId: approval.teamId,
        scope: approval.scope,
        resource: approval.resource,
        redirectUri: approval.redirectUri,
        codeChallenge: approval.codeChallenge,
        createdAt: at.toISOString(),
        expiresAt: new Date(at.getTime() + ttl * 1000).toISOString(),
      };
      await store.insertAuthorizationCode(record);
      // Codes expired for a day can no longer matter, even for replay detection.
      await store.deleteExpiredAuthorizationCodes(new Date(at.getTime() - 86_400_000));
      return code;
    },

    async redeem(request, resourceUrl) {
      const at = now();
      const codeHash = hashSecret(request.code);
      const record = await store.findAuthorizationCode(codeHash);
      if (!record) return refuse('invalid_grant', `The authorization code is not valid (unknown, or expired long ago). ${RESTART}`);
      if (record.usedAt !== null) {
        // RFC 6749 §4.1.2 / OAuth 2.1 §4.1.3: a replayed code revokes what it issued.
        if (record.grantId !== null) await store.revokeOAuthGrant(record.grantId, at);
        return refuse('invalid_grant', `The authorization code was already used; as a precaution the connection it created is revoked. ${RESTART}`);
      }
      if (Date.parse(record.expiresAt) <= at.getTime()) {
        return refuse('invalid_grant', `The authorization code expired at ${record.expiresAt} (codes live ${ttl} seconds). ${RESTART}`);
      }
      if (record.clientId !== request.clientId) return refuse('invalid_grant', `The authorization code was issued to another client. ${RESTART}`);
      // RFC 6749 §4.1.3: the redirect_uri must be present and identical when the request had one (ours always do).
      if (request.redirectUri === undefined) return refuse('invalid_request', 'redirect_uri is required: send the same redirect_uri as in the authorization request.');
      if (request.redirectUri !== record.redirectUri) {
        return refuse('invalid_grant', 'redirect_uri does not match the one of the authorization request (compared as exact strings).');
      }
      if (request.codeVerifier === undefined) return refuse('invalid_request', 'code_verifier is required (PKCE, RFC 7636 §4.5).');
      if (!CODE_VERIFIER.test(request.codeVerifier)) {
        return refuse('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636 §4.1).');
      }
      if (!sameText(s256(request.codeVerifier), record.codeChallenge)) {
        return refuse('invalid_grant', 'code_verifier does not match the code_challenge of the authorization request (PKCE S256).');
      }
      const expectedResource = resourceUrl(record.resource);
      if (request.resource !== undefined && request.resource !== expectedResource) {
        return refuse('invalid_target', `resource must be ${expectedResource}, the resource the code was issued for (RFC 8707).`);
      }
      // The code is marked used and its grant created in one transaction: a concurrent request
      // (on this instance or another sharing the store) that finds it used also finds the grant to revoke.
      const grant = await store.redeemAuthorizationCode(codeHash, at, {
        clientId: record.clientId,
        userId: record.userId,
        teamId: record.teamId,
        scope: record.scope,
        resource: record.resource,
      });
      if (!grant) {
        // Another request redeemed it between our read and now: that is a replay as well.
        const again = await store.findAuthorizationCode(codeHash);
        if (again?.grantId) await store.revokeOAuthGrant(again.grantId, at);
        return refuse('invalid_grant', `The authorization code was already used; as a precaution the connection it created is revoked. ${RESTART}`);
      }
      return { ok: true, grant };
    },
  };
}
