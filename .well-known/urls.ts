/**
 * The absolute URLs of the protected resources and their metadata documents. Pure functions of
 * the configured base URLs: never derived from a request's Host header.
 */
import type { McpResourcePath } from '../auth/access-token-types.ts';

/** `{mcp_url}/v2/mcp` or `{mcp_url}/v2/mcp-oauth` (the RFC 8707 resource identifiers). */
export function mcpResourceUrl(mcpUrl: string, path: McpResourcePath): string {
  return `${mcpUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * RFC 9728 §3.1: the metadata of a resource lives at its origin, under
 * `/.well-known/oauth-protected-resource` followed by the resource's path
 * (`https://h/v2/mcp-oauth` → `https://h/.well-known/oauth-protected-resource/v2/mcp-oauth`).
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}
