/**
 * OAuth grants: one connection of a client to a protected resource, billed to a team (spec,
 * "OAuth for interactive clients" 8: "bound to its OAuth client, user, team, scope and tool-server
 * resource"). Access tokens name their grant; revoking the grant makes them unusable at once
 * (item 9), because every verification looks the grant up.
 *
 * This module depends on no store: it states what it needs from one (`OAuthGrantDirectory`).
 */
import type { McpResourcePath } from './access-token-types.ts';

export interface OAuthGrant {
  id: string;
  clientId: string;
  /** The signed-in user; null for grants made by an operator (`folio tokens issue`). */
  userId: string | null;
  teamId: string;
  teamName: string;
  /** Space-separated scope values (RFC 6749 §3.3). */
  scope: string;
  /** The protected resource the grant's tokens are for, by path under `{mcp_url}`. */
  resource: McpResourcePath;
  /** ISO 8601. */
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface NewOAuthGrant {
  clientId: string;
  userId?: string | null;
  teamId: string;
  scope: string;
  resource: McpResourcePath;
}

export interface OAuthGrantDirectory {
  createOAuthGrant(grant: NewOAuthGrant): Promise<OAuthGrant>;
  getOAuthGrant(id: string): Promise<OAuthGrant | undefined>;
  /** All grants, oldest first, revoked ones included. */
  listOAuthGrants(): Promise<OAuthGrant[]>;
  /** Marks the grant revoked (idempotent); undefined when no grant has this id. */
  revokeOAuthGrant(id: string, at: Date): Promise<OAuthGrant | undefined>;
  /** Records a use of the grant. */
  touchOAuthGrant(id: string, at: Date): Promise<void>;
}

export const MCP_RESOURCE_PATHS: readonly McpResourcePath[] = ['/v2/mcp', '/v2/mcp-oauth'];

export function isMcpResourcePath(value: string): value is McpResourcePath {
  return (MCP_RESOURCE_PATHS as readonly string[]).includes(value);
}
