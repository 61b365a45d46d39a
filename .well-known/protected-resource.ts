/**
 * RFC 9728 §2: the OAuth 2.0 Protected Resource Metadata of `{mcp_url}/v2/mcp-oauth`, the tool
 * server's OAuth address (spec, "Hosted tool-server addresses"). A pure function of the configured
 * base URLs, never of a request's Host header.
 */
import { SUPPORTED_SCOPES } from '../auth/scopes.ts';
import { mcpResourceUrl, protectedResourceMetadataUrl } from './urls.ts';

export interface ProtectedResourceMetadata {
  /** §2 `resource`: exactly `{mcp_url}/v2/mcp-oauth` (§3.3: it must equal the identifier the URL was built from). */
  resource: string;
  /** §2: issuer identifiers (RFC 8414) of the authorization servers that issue tokens for it. */
  authorization_servers: string[];
  /** §2: RFC 6750 §2.1 only: tokens in the Authorization header, never in a body or query. */
  bearer_methods_supported: ['header'];
  scopes_supported: string[];
  resource_name: string;
  resource_documentation?: string;
}

export const RESOURCE_NAME = 'folio MCP tool server';

export interface ProtectedResourceInput {
  /** The public base URL: folio is its own authorization server, its issuer is this URL. */
  base: string;
  /** `{mcp_url}`. */
  mcp: string;
  /** Where people read how to connect (optional: only when such a page is served). */
  documentationUrl?: string;
}

export function protectedResourceMetadata(urls: ProtectedResourceInput): ProtectedResourceMetadata {
  const doc: ProtectedResourceMetadata = {
    resource: mcpResourceUrl(urls.mcp, '/v2/mcp-oauth'),
    authorization_servers: [urls.base.replace(/\/+$/, '')],
    bearer_methods_supported: ['header'],
    scopes_supported: [...SUPPORTED_SCOPES],
    resource_name: RESOURCE_NAME,
  };
  if (urls.documentationUrl !== undefined) doc.resource_documentation = urls.documentationUrl;
  return doc;
}

/** The path, on this server, the document is served at (§3.1: well-known prefix + the resource's path). */
export function protectedResourceMetadataPath(mcpUrl: string): string {
  return new URL(protectedResourceMetadataUrl(mcpResourceUrl(mcpUrl, '/v2/mcp-oauth'))).pathname;
}
