/**
 * What the tool server needs from folio's OAuth access tokens: a verdict for a presented token
 * on one resource. The audience rules (DESIGN.md "Audience migration") live behind `verify`.
 */

/** The two protected resources, by path under `{mcp_url}`. */
export type McpResourcePath = '/v2/mcp' | '/v2/mcp-oauth';

export interface AccessTokenClaims {
  grantId: string;
  clientId: string;
  userId?: string;
  teamId: string;
  teamName: string;
  scope: string;
  /** The one audience the token was issued for (an absolute resource URL). */
  audience: string;
  expiresAt: Date;
}

export type TokenVerdict =
  | { ok: true; claims: AccessTokenClaims }
  /** RFC 6750 §3.1 `invalid_token`: expired, revoked, wrong audience, bad signature, malformed. */
  | { ok: false; error: 'invalid_token'; description: string };

export interface AccessTokenVerifier {
  verify(token: string, resource: McpResourcePath): Promise<TokenVerdict>;
}

/** Whether a bearer value looks like a JWT (three base64url parts) rather than an API key. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
