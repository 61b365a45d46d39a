/**
 * RFC 8414 §2: the OAuth 2.0 Authorization Server Metadata of folio, which is its own
 * authorization server (DESIGN.md "Auth decisions"). A pure function of the configured public
 * URL, never of a request's Host header. The issuer is `FOLIO_PUBLIC_URL` (the same value the
 * RFC 9728 document names in `authorization_servers` and access tokens carry as `iss`).
 */
import { SUPPORTED_SCOPES } from '../auth/scopes.ts';

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  jwks_uri: string;
  scopes_supported: string[];
  response_types_supported: ['code'];
  grant_types_supported: ['authorization_code', 'refresh_token'];
  /** RFC 7636 / DESIGN.md: S256 only, never `plain`. */
  code_challenge_methods_supported: ['S256'];
  /** Public clients only: no client authentication at the token endpoint. */
  token_endpoint_auth_methods_supported: ['none'];
  revocation_endpoint_auth_methods_supported: ['none'];
  /** draft-ietf-oauth-client-id-metadata-document §5: a client_id may be an https URL of its metadata. */
  client_id_metadata_document_supported: true;
  /** RFC 9207 §3: the authorization response carries `iss`. */
  authorization_response_iss_parameter_supported: true;
}

/** The issuer identifier (RFC 8414 §2): the public base URL, no trailing slash, no query or fragment. */
export function issuerOf(base: string): string {
  return base.replace(/\/+$/, '');
}

export function authorizationServerMetadata(base: string): AuthorizationServerMetadata {
  const issuer = issuerOf(base);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path
 * (`https://h/folio` → `/.well-known/oauth-authorization-server/folio`).
 */
export function authorizationServerMetadataPath(base: string): string {
  const path = new URL(issuerOf(base)).pathname.replace(/\/+$/, '');
  return `${AUTHORIZATION_SERVER_METADATA_PATH}${path}`;
}
