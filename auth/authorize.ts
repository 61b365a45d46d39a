/**
 * Validation of authorization requests (GET /oauth/authorize): RFC 6749 §4.1.1 with PKCE
 * (RFC 7636, S256 only), resource indicators (RFC 8707) and the issuer in every response
 * (RFC 9207), under DESIGN.md "Auth decisions".
 *
 * RFC 6749 §4.1.2.1 decides where an error goes: while the client or its redirect URI is not
 * established (missing, unknown, not registered) the user agent is NOT redirected — the error is a
 * page. Once the redirect URI is trusted, every other error goes back to it as
 * `error`/`error_description`/`state`/`iss` query parameters.
 */
import { MCP_SCOPE, SUPPORTED_SCOPES } from './scopes.ts';

/** The request as folio keeps it server-side between the pages (never round-tripped through the browser). */
export interface ValidAuthorizationRequest {
  clientId: string;
  /** The client's self-declared name (DCR `client_name`, CIMD document), if any. */
  clientName: string | null;
  /** Exactly as sent (RFC 6749 §4.1.3 compares it at the token endpoint). */
  redirectUri: string;
  scope: string;
  resource: '/v2/mcp-oauth';
  state: string | null;
  codeChallenge: string;
}

/** What the validator needs to know about a client. */
export interface AuthorizeClient {
  clientId: string;
  clientName?: string;
  redirectUris: string[];
}

export interface AuthorizeValidationDeps {
  /** Resolves a client_id (DCR id or Client ID Metadata Document URL); throws Error(description) when it cannot. */
  resolveClient(clientId: string): Promise<AuthorizeClient>;
  redirectUriMatches(registered: string, requested: string): boolean;
  /** `{mcp_url}/v2/mcp-oauth`: the only resource the endpoint issues codes for (spec, OAuth 4). */
  resourceUrl: string;
  /** FOLIO_OAUTH_DEFAULT_RESOURCE=on: a request without `resource` is taken as resourceUrl. */
  defaultResource: boolean;
}

export type AuthorizationErrorCode =
  | 'invalid_request'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'server_error';

export type AuthorizeValidation =
  | { ok: true; request: ValidAuthorizationRequest }
  /** No trusted redirect URI: show an error page, do not redirect. */
  | { ok: false; kind: 'page'; title: string; message: string }
  /** The redirect URI is trusted: send the error there. */
  | { ok: false; kind: 'redirect'; redirectUri: string; error: AuthorizationErrorCode; description: string; state: string | null };

/** RFC 7636 §4.2: BASE64URL(SHA-256(verifier)) is 43 characters, unpadded. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
export const MAX_STATE_LENGTH = 2000;

/** A query parameter sent once, or an explanation (RFC 6749 §3.1: parameters MUST NOT repeat). */
function single(query: Record<string, unknown>, name: string): { value: string | undefined } | { repeated: true } {
  const v = query[name];
  if (v === undefined) return { value: undefined };
  if (typeof v === 'string') return { value: v };
  return { repeated: true };
}

export async function validateAuthorizationRequest(query: Record<string, unknown>, deps: AuthorizeValidationDeps): Promise<AuthorizeValidation> {
  const page = (message: string): AuthorizeValidation => ({ ok: false, kind: 'page', title: 'This sign-in link is not valid', message });

  const clientParam = single(query, 'client_id');
  if ('repeated' in clientParam) return page('The request names client_id more than once.');
  if (!clientParam.value) return page('The request has no client_id. Start the connection again from your application.');
  let client: AuthorizeClient;
  try {
    client = await deps.resolveClient(clientParam.value);
  } catch (err) {
    const detail = err instanceof Error ? err.message : 'the client could not be identified';
    return page(`The application that sent you here could not be identified: ${detail}`);
  }

  const redirectParam = single(query, 'redirect_uri');
  if ('repeated' in redirectParam) return page('The request names redirect_uri more than once.');
  const redirectUri = redirectParam.value;
  if (!redirectUri) return page('The request has no redirect_uri. folio requires it on every authorization request.');
  if (!client.redirectUris.some((registered) => deps.redirectUriMatches(registered, redirectUri))) {
    // RFC 6749 §4.1.2.1 and §10.15: never redirect to an unregistered URI (open redirector).
    return page('The address this application asked to return to is not one it registered, so folio will not send you there. Contact the application\'s developer.');
  }

  const stateParam = single(query, 'state');
  const state = 'repeated' in stateParam ? null : (stateParam.value ?? null);
  const fail = (error: AuthorizationErrorCode, description: string): AuthorizeValidation => ({ ok: false, kind: 'redirect', redirectUri, error, description, state });
  if ('repeated' in stateParam) return fail('invalid_request', 'state was sent more than once.');
  if (state !== null && state.length > MAX_STATE_LENGTH) return fail('invalid_request', `state is longer than ${MAX_STATE_LENGTH} characters.`);

  for (const name of ['response_type', 'code_challenge', 'code_challenge_method', 'resource', 'scope']) {
    if ('repeated' in single(query, name)) return fail('invalid_request', `${name} was sent more than once (RFC 8707 resource: folio accepts exactly one).`);
  }
  const responseType = query.response_type as string | undefined;
  if (!responseType) return fail('invalid_request', 'response_type is missing; it must be code.');
  if (responseType !== 'code') return fail('unsupported_response_type', `response_type ${responseType} is not supported; use code (authorization code with PKCE).`);

  // RFC 7636 §4.4.1; OAuth 2.1: PKCE is required, and only S256 is accepted.
  const challenge = query.code_challenge as string | undefined;
  const method = query.code_challenge_method as string | undefined;
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with code_challenge_method=S256).');
  if (method !== 'S256') {
    return fail('invalid_request', method ? `code_challenge_method ${method} is not supported; use S256.` : 'code_challenge_method is required and must be S256 (plain is not accepted).');
  }
  if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be the 43-character BASE64URL SHA-256 of the code verifier (RFC 7636 §4.2).');

  // RFC 8707 §2; spec "OAuth for interactive clients" 4.
  const resource = query.resource as string | undefined;
  if (resource === undefined || resource === '') {
    if (!deps.defaultResource) return fail('invalid_target', `resource is required: send resource=${deps.resourceUrl} (RFC 8707).`);
  } else if (resource !== deps.resourceUrl) {
    return fail('invalid_target', `resource must be exactly ${deps.resourceUrl}.`);
  }

  const scopeParam = query.scope as string | undefined;
  const scopes = (scopeParam ?? '').split(' ').filter((s) => s.length > 0);
  const unknown = scopes.filter((s) => !SUPPORTED_SCOPES.includes(s));
  if (unknown.length > 0) return fail('invalid_scope', `Unknown scope ${unknown.join(', ')}; supported: ${SUPPORTED_SCOPES.join(' ')}.`);
  const scope = scopes.length > 0 ? [...new Set(scopes)].join(' ') : MCP_SCOPE;

  return {
    ok: true,
    request: {
      clientId: client.clientId,
      clientName: client.clientName ?? null,
      redirectUri,
      scope,
      resource: '/v2/mcp-oauth',
      state,
      codeChallenge: challenge,
    },
  };
}

/**
 * The redirect back to the client: the parameters are added to the redirect URI's own query,
 * which is kept (RFC 6749 §3.1.2); `iss` is always present (RFC 9207 §2).
 */
export function authorizationResponseUrl(redirectUri: string, issuer: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

/** Parses the JSON kept in the store back into a request; undefined when it is not one. */
export function parseStoredRequest(json: string): ValidAuthorizationRequest | undefined {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Record<string, unknown>;
  const str = (k: string) => typeof r[k] === 'string';
  if (!str('clientId') || !str('redirectUri') || !str('scope') || !str('codeChallenge') || r.resource !== '/v2/mcp-oauth') return undefined;
  if (r.clientName !== null && !str('clientName')) return undefined;
  if (r.state !== null && !str('state')) return undefined;
  return v as ValidAuthorizationRequest;
}
