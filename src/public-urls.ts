/**
 * The base URLs clients reach this server at: from config (FOLIO_PUBLIC_URL, FOLIO_MCP_URL),
 * else the address the server listens on. Never from a request's Host header.
 */
import type { Config } from './config.ts';

export interface PublicUrls {
  /** Base of the API and of upload URLs, without a trailing slash. */
  readonly base: string;
  /** `{mcp_url}`: base of /v2/mcp and /v2/mcp-oauth, without a trailing slash. */
  readonly mcp: string;
}

export function resolvePublicUrls(config: Pick<Config, 'publicUrl' | 'mcpUrl'>, listeningUrl: string): PublicUrls {
  const base = config.publicUrl ?? listeningUrl.replace(/\/+$/, '');
  return Object.freeze({ base, mcp: config.mcpUrl ?? base });
}
