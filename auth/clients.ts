/**
 * OAuth clients (spec, "OAuth for interactive clients" 2): a client identifies itself either by
 *
 * - a `client_id` folio issued through RFC 7591 Dynamic Client Registration (`POST /oauth/register`,
 *   kept in the store), or
 * - a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document): the `client_id`
 *   is an HTTPS URL folio fetches (auth/client-metadata-document.ts).
 *
 * Public clients only (DESIGN.md "Auth decisions"): no client secret is ever issued or accepted.
 * This module depends on no store: it states what it needs from one (`OAuthClientStore`).
 */
import { randomBytes } from 'node:crypto';
import type { Fetcher } from '../src/web/fetch/types.ts';
import { createClientMetadataDocuments, isClientIdMetadataDocumentUrl, type ClientMetadataDocumentOptions } from './client-metadata-document.ts';
import { OAuthClientError, validateClientMetadata, type GrantType, type OAuthClient } from './client-metadata.ts';
import type { RefusedRedirectUri } from './redirect-uris.ts';

export { OAuthClientError, SUPPORTED_GRANT_TYPES, SUPPORTED_RESPONSE_TYPES, validateClientMetadata, type GrantType, type OAuthClient } from './client-metadata.ts';
export { redirectUriMatches } from './redirect-uris.ts';

/** A client registered through RFC 7591, as the store keeps it. */
export interface RegisteredOAuthClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  /** The other registered metadata (grant_types, response_types, client_uri), RFC 7591 names. */
  metadata: RegisteredClientMetadata;
  /** ISO 8601. */
  createdAt: string;
}

export interface RegisteredClientMetadata {
  grant_types: GrantType[];
  response_types: string[];
  client_uri?: string;
}

export interface NewRegisteredOAuthClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  metadata: RegisteredClientMetadata;
  createdAt: Date;
}

export interface OAuthClientStore {
  createOAuthClient(client: NewRegisteredOAuthClient): Promise<RegisteredOAuthClient>;
  getOAuthClient(id: string): Promise<RegisteredOAuthClient | undefined>;
}

/** RFC 7591 §3.2.1 response, plus folio's extension `folio_refused_redirect_uris` (only when some were dropped). */
export interface ClientRegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  client_name?: string;
  client_uri?: string;
  grant_types: GrantType[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  folio_refused_redirect_uris?: RefusedRedirectUri[];
}

/** DCR client ids: `dcr_` and 32 random bytes (base64url), unguessable and never an https URL. */
export function newRegisteredClientId(): string {
  return `dcr_${randomBytes(32).toString('base64url')}`;
}

function fromRegistered(record: RegisteredOAuthClient): OAuthClient {
  return {
    clientId: record.id,
    kind: 'dcr',
    ...(record.name !== null ? { clientName: record.name } : {}),
    ...(record.metadata.client_uri !== undefined ? { clientUri: record.metadata.client_uri } : {}),
    redirectUris: record.redirectUris,
    grantTypes: record.metadata.grant_types,
    responseTypes: record.metadata.response_types,
    tokenEndpointAuthMethod: 'none',
  };
}

export interface ClientRegistry {
  /**
   * The client behind a `client_id`: a registered one from the store, or a Client ID Metadata
   * Document fetched (and cached) when the id is an https URL with a path. Throws
   * OAuthClientError `invalid_client` with a description of what is wrong.
   */
  resolve(clientId: string): Promise<OAuthClient>;
  /** RFC 7591 §3.1: registers a public client from its metadata. Throws OAuthClientError. */
  register(metadata: unknown): Promise<ClientRegistrationResponse>;
}

export interface ClientRegistryOptions extends ClientMetadataDocumentOptions {
  store: OAuthClientStore;
  fetcher: Fetcher;
  now?: () => Date;
}

export function createClientRegistry(options: ClientRegistryOptions): ClientRegistry {
  const now = options.now ?? (() => new Date());
  const documents = createClientMetadataDocuments(options);
  return {
    async resolve(clientId) {
      if (isClientIdMetadataDocumentUrl(clientId)) return documents.resolve(clientId);
      if (clientId.startsWith('http:') || clientId.startsWith('https:')) {
        throw new OAuthClientError(
          'invalid_client',
          'A URL client_id must be an https URL with a path, without fragment, user info or dot segments (Client ID Metadata Documents).',
        );
      }
      const record = clientId.length <= 200 ? await options.store.getOAuthClient(clientId) : undefined;
      if (!record) throw new OAuthClientError('invalid_client', 'Unknown client_id: register the client at /oauth/register first, or use a Client ID Metadata Document URL.');
      return fromRegistered(record);
    },
    async register(body) {
      const meta = validateClientMetadata(body, 'The registration request');
      const record = await options.store.createOAuthClient({
        id: newRegisteredClientId(),
        name: meta.clientName ?? null,
        redirectUris: meta.redirectUris,
        metadata: {
          grant_types: meta.grantTypes,
          response_types: meta.responseTypes,
          ...(meta.clientUri !== undefined ? { client_uri: meta.clientUri } : {}),
        },
        createdAt: now(),
      });
      return {
        client_id: record.id,
        client_id_issued_at: Math.floor(Date.parse(record.createdAt) / 1000),
        redirect_uris: record.redirectUris,
        ...(record.name !== null ? { client_name: record.name } : {}),
        ...(record.metadata.client_uri !== undefined ? { client_uri: record.metadata.client_uri } : {}),
        grant_types: record.metadata.grant_types,
        response_types: record.metadata.response_types,
        token_endpoint_auth_method: 'none',
        ...(meta.refused.length > 0 ? { folio_refused_redirect_uris: meta.refused } : {}),
      };
    },
  };
}
