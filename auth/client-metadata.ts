/**
 * Client metadata shared by both kinds of OAuth client (RFC 7591 registrations and Client ID
 * Metadata Documents): the resolved client, the error type, and the validation of the metadata
 * fields folio uses (RFC 7591 §2). Public clients only (DESIGN.md "Auth decisions").
 */
import { MAX_REDIRECT_URIS, partitionRedirectUris, type RefusedRedirectUri } from './redirect-uris.ts';

export type GrantType = 'authorization_code' | 'refresh_token';
export const SUPPORTED_GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token'];
export const SUPPORTED_RESPONSE_TYPES: readonly string[] = ['code'];

/** A client the authorization endpoint can serve, whichever way it identified itself. */
export interface OAuthClient {
  clientId: string;
  kind: 'dcr' | 'cimd';
  /** Shown on the consent page; undefined when the client gave none. */
  clientName?: string;
  clientUri?: string;
  /** Only these (loopback: any port, see redirectUriMatches) may receive codes. */
  redirectUris: string[];
  grantTypes: GrantType[];
  responseTypes: string[];
  /** Always `none`: public clients only. */
  tokenEndpointAuthMethod: 'none';
}

/**
 * A refused registration or an unusable client, with the RFC 7591 §3.2.2 / RFC 6749 §5.2 error
 * code and a description a developer can act on. `status` is the HTTP status to answer with.
 */
export class OAuthClientError extends Error {
  readonly error: 'invalid_client_metadata' | 'invalid_redirect_uri' | 'invalid_client';
  readonly status: number;
  constructor(error: OAuthClientError['error'], description: string, status = 400) {
    super(description);
    this.name = 'OAuthClientError';
    this.error = error;
    this.status = status;
  }
  /** RFC 7591 §3.2.2 body. */
  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export const MAX_CLIENT_NAME_LENGTH = 200;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(body: Record<string, unknown>, field: string, maxLength: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new OAuthClientError('invalid_client_metadata', `'${field}' must be a string.`);
  if (value.length > maxLength) throw new OAuthClientError('invalid_client_metadata', `'${field}' must be at most ${maxLength} characters.`);
  return value;
}

function stringList(body: Record<string, unknown>, field: string, maxItems: number): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new OAuthClientError('invalid_client_metadata', `'${field}' must be an array of strings.`);
  }
  if (value.length > maxItems) throw new OAuthClientError('invalid_client_metadata', `'${field}' may hold at most ${maxItems} values.`);
  return value;
}

/**
 * The client metadata both kinds share, validated: public-client auth, grant and response types,
 * redirect URIs (the allowed ones kept, the others reported). Throws OAuthClientError.
 * `source` names where the metadata came from, for messages.
 */
export function validateClientMetadata(body: unknown, source: string): {
  clientName?: string;
  clientUri?: string;
  redirectUris: string[];
  refused: RefusedRedirectUri[];
  grantTypes: GrantType[];
  responseTypes: string[];
} {
  if (!isObject(body)) throw new OAuthClientError('invalid_client_metadata', `${source} must be a JSON object.`);
  // RFC 7591 §2: token_endpoint_auth_method. folio serves public clients only (no secrets).
  const auth = body.token_endpoint_auth_method;
  if (auth !== undefined && auth !== 'none') {
    const shown = typeof auth === 'string' ? `'${auth.slice(0, 50)}'` : 'a non-string value';
    const hint = auth === 'private_key_jwt' ? ' folio does not support private_key_jwt client authentication;' : '';
    throw new OAuthClientError(
      'invalid_client_metadata',
      `${source} asks for token_endpoint_auth_method ${shown}.${hint} folio accepts public clients only: use "none" (PKCE S256 protects the code).`,
    );
  }
  if (body.client_secret !== undefined) {
    throw new OAuthClientError('invalid_client_metadata', `${source} carries a client_secret; folio accepts public clients only, without secrets.`);
  }
  const grantTypes = stringList(body, 'grant_types', 10) ?? [...SUPPORTED_GRANT_TYPES];
  const unsupportedGrant = grantTypes.find((g) => !(SUPPORTED_GRANT_TYPES as readonly string[]).includes(g));
  if (unsupportedGrant !== undefined) {
    throw new OAuthClientError('invalid_client_metadata', `grant_type '${unsupportedGrant.slice(0, 50)}' is not supported; folio supports ${SUPPORTED_GRANT_TYPES.join(' and ')}.`);
  }
  if (!grantTypes.includes('authorization_code')) {
    throw new OAuthClientError('invalid_client_metadata', `grant_types must include authorization_code: it is the only way to obtain tokens from folio.`);
  }
  const responseTypes = stringList(body, 'response_types', 10) ?? [...SUPPORTED_RESPONSE_TYPES];
  const unsupportedResponse = responseTypes.find((r) => !SUPPORTED_RESPONSE_TYPES.includes(r));
  if (unsupportedResponse !== undefined || responseTypes.length === 0) {
    throw new OAuthClientError('invalid_client_metadata', `response_types must be ["code"]; '${(unsupportedResponse ?? '').slice(0, 50)}' is not supported.`);
  }
  const clientName = optionalString(body, 'client_name', MAX_CLIENT_NAME_LENGTH);
  const clientUri = optionalString(body, 'client_uri', 2000);
  if (clientUri !== undefined && !/^https:\/\/[^\s]+$/.test(clientUri)) {
    throw new OAuthClientError('invalid_client_metadata', `'client_uri' must be an https URL.`);
  }
  const requested = stringList(body, 'redirect_uris', MAX_REDIRECT_URIS);
  // RFC 7591 §2: redirect_uris is required for redirect-based flows, the only flow folio has.
  if (requested === undefined || requested.length === 0) {
    throw new OAuthClientError('invalid_redirect_uri', `${source} names no redirect_uris; at least one is needed (https, or http on localhost, 127.0.0.1 or [::1]).`);
  }
  const { allowed, refused } = partitionRedirectUris(requested);
  if (allowed.length === 0) {
    const reasons = refused.map((r) => `'${r.redirect_uri.slice(0, 200)}': ${r.reason}`).join('; ');
    throw new OAuthClientError('invalid_redirect_uri', `None of the redirect_uris is allowed (${reasons}). Use https, or http on localhost, 127.0.0.1 or [::1].`);
  }
  return {
    ...(clientName !== undefined ? { clientName } : {}),
    ...(clientUri !== undefined ? { clientUri } : {}),
    redirectUris: allowed,
    refused,
    // Supported ones only (checked above), in folio's order, once each.
    grantTypes: SUPPORTED_GRANT_TYPES.filter((g) => grantTypes.includes(g)),
    responseTypes: ['code'],
  };
}

