/**
 * The hand-off between the authorization endpoint (sign-in, team choice, consent: it issues a
 * code) and the token endpoint (it redeems the code): RFC 6749 §4.1 with PKCE (RFC 7636, S256
 * only) and resource indicators (RFC 8707).
 */
import type { McpResourcePath } from './access-token-types.ts';

/** What the user approved, bound into the code. */
export interface ApprovedAuthorization {
  clientId: string;
  userId: string;
  teamId: string;
  /** Space-separated scope values. */
  scope: string;
  resource: McpResourcePath;
  /** Exactly as sent in the authorization request (compared at the token endpoint, RFC 6749 §4.1.3). */
  redirectUri: string;
  /** BASE64URL(SHA-256(code_verifier)) (RFC 7636 §4.2, method S256). */
  codeChallenge: string;
}

export interface AuthorizationCodeIssuer {
  /** A new single-use code for this approval (short-lived, e.g. 60 s); the store keeps only its hash. */
  issueCode(approval: ApprovedAuthorization): Promise<string>;
}
