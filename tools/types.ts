/**
 * What an MCP tool is (DESIGN.md "tools/"): a name, a description that tells a model when to use
 * it, a zod input schema, and `run(input, ctx)` that calls the core. Tools know nothing of the
 * transport: src/mcp/ turns a ToolDefinition into a registered MCP tool for Streamable HTTP and
 * for stdio alike, and turns a thrown ServiceError into a tool error (`isError: true`).
 */
import type { z } from 'zod';

/** Who is calling, as the transport established it. */
export interface Caller {
  /** keyless: /v2/mcp without a credential; local: the stdio server on the user's machine. */
  kind: 'keyless' | 'api-key' | 'oauth' | 'local';
  /** The team the call is billed to; absent for keyless and local callers. */
  teamId?: string;
  teamName?: string;
  /** The signed-in user behind an OAuth grant. */
  userId?: string;
  /** The API key's id (never the key), for audit events. */
  keyId?: string;
  /** The OAuth client the access token was issued to, for audit events. */
  oauthClientId?: string;
  /**
   * The stable owner of resources a call creates (upload refs, crawl jobs): `team:<id>`,
   * `keyless:<hash of the client IP>` or `local`. A resource is usable only by its owner.
   */
  owner: string;
}

/** Who spent the credits of an OAuth call, for the team's usage by key: `client/user`, or the client alone. */
export function oauthClientOf(caller: Caller): string | undefined {
  if (caller.kind !== 'oauth') return undefined;
  return caller.userId !== undefined ? `${caller.oauthClientId ?? ''}/${caller.userId}` : (caller.oauthClientId ?? '');
}

export interface ToolProgress {
  /** Units done (pages, URLs). */
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolCallContext {
  caller: Caller;
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal;
  /** Sends an MCP progress notification; a no-op when the client passed no progress token. */
  progress(update: ToolProgress): void;
  /** Tells the audit event which file the call read (its name is hashed there, never logged). */
  auditFile?(file: { name: string; size: number | null; contentType?: string | null }): void;
}

export interface ToolResult {
  /** The text content a model reads (markdown for parse and scrape). */
  text: string;
  /** The whole data object, as `structuredContent`. */
  structured: Record<string, unknown>;
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  /** Short and stable: `parse`, `scrape`, `search`, `map`, `crawl`, `crawl_status`. */
  name: string;
  title: string;
  /** Tells a model when to use this tool rather than another. */
  description: string;
  inputSchema: Schema;
  annotations?: ToolAnnotations;
  /** Listed and callable on /v2/mcp without a credential (the spec: Search, Scrape and Parse only). */
  keyless: boolean;
  /** Throws ServiceError for the caller's mistakes; the message is shown to the model as is. */
  run(input: z.output<Schema>, ctx: ToolCallContext): Promise<ToolResult>;
}

/** Erases the schema type so that tools of different schemas share one list. */
export type AnyToolDefinition = ToolDefinition<z.ZodObject>;

export function defineTool<Schema extends z.ZodObject>(tool: ToolDefinition<Schema>): AnyToolDefinition {
  return tool as unknown as AnyToolDefinition;
}
