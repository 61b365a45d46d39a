/**
 * OAuth scope values folio knows (RFC 6749 §3.3). The spec leaves scope names open ("scope
 * names: not shown"); folio has one: `mcp`, the whole tool surface of the tool server, billed to
 * the team chosen at consent.
 */
export const MCP_SCOPE = 'mcp';

/** Advertised as `scopes_supported` (RFC 9728 §2, RFC 8414 §2). */
export const SUPPORTED_SCOPES: readonly string[] = [MCP_SCOPE];
