/**
 * One MCP server for one caller: the tools of the registry (tools/index.ts) as MCP tools, for
 * Streamable HTTP (src/mcp/http.ts, one server per POST) and stdio alike.
 *
 * Built on the SDK's low-level `Server` with our own `tools/list` and `tools/call` handlers rather
 * than `McpServer.registerTool`, because the tool surface depends on the caller: a keyless caller
 * is shown only the keyless tools, and calling another one must answer "this needs an API key,
 * here is how to send one" — McpServer can only say "tool not found" or "tool disabled".
 *
 * MCP 2025-11-25 "Tools":
 * - a result carries the text a model reads in `content` and the data in `structuredContent`;
 * - errors of the call itself (bad arguments, a refused file, a limit) are tool execution errors
 *   (`isError: true`) whose text tells the model what to change; an unknown tool name is a
 *   protocol error (-32602);
 * - "Utilities › Progress": progress notifications only when the request carried a progressToken.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyToolDefinition, Caller, ToolCallContext, ToolProgress, ToolResult } from '../../tools/types.ts';
import { isServiceError, unknownErrorBody, type ErrorCode as FolioErrorCode } from '../errors.ts';
import { asksZeroRetention, errorForLog, type Logger } from '../log.ts';
import type { ToolCallRecord } from '../audit/index.ts';
import { CancelledByClientError, type RunningCalls } from './running-calls.ts';
import { describeInputError, inputJsonSchema } from './tool-input.ts';

export const SERVER_NAME = 'folio';

export type ToolInput = Parameters<AnyToolDefinition['run']>[0];
export type ToolCallWrapper = (tool: AnyToolDefinition, caller: Caller, input: ToolInput, signal: AbortSignal, run: (input: ToolInput) => Promise<ToolResult>) => Promise<ToolResult>;

export interface McpServerOptions {
  /** Every tool of this server; keyless callers are shown and allowed only those with `keyless: true`. */
  tools: readonly AnyToolDefinition[];
  caller: Caller;
  logger: Logger;
  version?: string;
  /** `{mcp_url}`: makes the "needs an API key" message name the exact endpoints. */
  mcpUrl?: string;
  /**
   * Checked before each tool call runs (after its arguments are valid): throws a ServiceError to
   * refuse it (keyless rate limit and quota; a team's rate limit). Only tool calls pass here.
   */
  admit?: (tool: AnyToolDefinition, caller: Caller, input: unknown) => Promise<void>;
  /** Called after a tool call succeeded, with its structured result (the charge, src/mcp/billing.ts); never throws. */
  settle?: (tool: AnyToolDefinition, caller: Caller, input: unknown, structured: Record<string, unknown>) => Promise<void>;
  /** Runs each admitted call (`run`) inside whatever it must hold: the team's fair-queue place (src/mcp/team-jobs.ts). */
  around?: ToolCallWrapper;
  /** Registry that lets a `notifications/cancelled` sent on another connection abort a call (stateless HTTP). */
  running?: RunningCalls;
  /** Told of every tool call that ended (SIEM audit events, src/audit). */
  audit?: (record: ToolCallRecord) => void;
}

const INSTRUCTIONS = [
  'folio converts documents to clean markdown for language models.',
  'Use `parse` for a local file (give its path as `filePath`) or a file that is not reachable at a public URL.',
  'Use `scrape` (when listed) for a public URL, including URLs of PDFs and other documents.',
  'Long results come in slices: follow the continuation line at the end of a result to read the next one.',
].join(' ');

/**
 * Said in the instructions when the server has no `search` tool, so that a client (and its user)
 * knows why and what the operator sets; the README says the same.
 */
export const SEARCH_NOT_OFFERED =
  'Web search is not offered: this server has no search backend. The operator turns it on by setting SEARXNG_ENDPOINT (a SearXNG instance with its JSON API) or BRAVE_API_KEY; for `folio mcp` over stdio, FOLIO_API_URL with FOLIO_API_KEY also works (search then runs on that folio server).';

/** The server's instructions for this tool list. */
export function serverInstructions(tools: readonly AnyToolDefinition[]): string {
  const search = tools.some((t) => t.name === 'search')
    ? 'Use `search` to find pages when you have no URL, then `scrape` the ones you need.'
    : SEARCH_NOT_OFFERED;
  return `${INSTRUCTIONS} ${search}`;
}

/** The tools this caller may see and call. */
export function visibleTools(tools: readonly AnyToolDefinition[], caller: Caller): AnyToolDefinition[] {
  return caller.kind === 'keyless' ? tools.filter((t) => t.keyless) : [...tools];
}

/** The tool error a keyless caller gets for a tool that needs a credential. */
export function apiKeyNeededMessage(toolName: string, keylessTools: readonly string[], mcpUrl?: string): string {
  const base = mcpUrl?.replace(/\/+$/, '') ?? '';
  const keyed = `${base}/v2/mcp`;
  const oauth = `${base}/v2/mcp-oauth`;
  const offered = keylessTools.length > 0 ? keylessTools.map((n) => `\`${n}\``).join(', ') : 'none';
  return (
    `The \`${toolName}\` tool needs an API key: without one this server offers only ${offered}. ` +
    `To use every tool, reconnect with the header \`Authorization: Bearer <API_KEY>\` on ${keyed}, ` +
    `or connect to ${oauth} to sign in with OAuth.`
  );
}

function toolError(code: FolioErrorCode, message: string, retryAfterSeconds?: number): CallToolResult {
  const structured: Record<string, unknown> = { code, error: message };
  if (retryAfterSeconds !== undefined) structured.retry_after_seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return { content: [{ type: 'text', text: message }], structuredContent: structured, isError: true };
}

/**
 * A tool as `tools/list` shows it. Computed once per tool and kept: the stateless transport builds
 * a server per request, and deriving the JSON Schemas each time was a third of a call's CPU.
 */
const listedTools = new WeakMap<AnyToolDefinition, Tool>();
function toListedTool(tool: AnyToolDefinition): Tool {
  let listed = listedTools.get(tool);
  if (!listed) {
    listed = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputJsonSchema(tool.inputSchema),
      ...(tool.annotations ? { annotations: { title: tool.title, ...tool.annotations } } : {}),
    };
    listedTools.set(tool, listed);
  }
  return listed;
}

/**
 * The JSON Schema validator the SDK's Server wants (it validates elicitation answers, which folio
 * does not send): one for the process rather than a new Ajv per request.
 */
const sharedValidator = new AjvJsonSchemaValidator();

/** Aborted when any of the signals is. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  return AbortSignal.any(signals);
}

/**
 * The server for one caller. Returns the SDK's low-level `Server` (connect it to a transport:
 * `await server.connect(transport)`).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { caller, logger } = options;
  const visible = visibleTools(options.tools, caller);
  const byName = new Map(options.tools.map((t) => [t.name, t]));

  const server = new Server(
    { name: SERVER_NAME, title: 'folio', version: options.version ?? '0.1.0' },
    { capabilities: { tools: { listChanged: false } }, instructions: serverInstructions(options.tools), jsonSchemaValidator: sharedValidator },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible.map(toListedTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = byName.get(name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}'. This server's tools are: ${visible.map((t) => t.name).join(', ')}.`);
    }
    if (!visible.includes(tool)) {
      return toolError('UNAUTHORIZED', apiKeyNeededMessage(name, visible.map((t) => t.name), options.mcpUrl));
    }
    const parsed = await tool.inputSchema.safeParseAsync(request.params.arguments ?? {});
    if (!parsed.success) return toolError('BAD_REQUEST', describeInputError(name, parsed.error));

    const started = process.hrtime.bigint();
    const own = new AbortController();
    const unregister = options.running?.register(caller.owner, extra.requestId, own);
    const progressToken = extra._meta?.progressToken;
    let auditFile: ToolCallRecord['file'];
    let structured: Record<string, unknown> | undefined;
    const ctx: ToolCallContext = {
      auditFile: (file) => {
        auditFile = file;
      },
      caller,
      signal: anySignal([extra.signal, own.signal]),
      progress(update: ToolProgress) {
        if (progressToken === undefined) return;
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress: update.progress,
              ...(update.total !== undefined ? { total: update.total } : {}),
              ...(update.message !== undefined ? { message: update.message } : {}),
            },
          })
          .catch(() => undefined);
      },
    };
    let outcome = 'ok';
    try {
      await options.admit?.(tool, caller, parsed.data);
      const result = options.around ? await options.around(tool, caller, parsed.data, ctx.signal, (input) => tool.run(input, ctx)) : await tool.run(parsed.data, ctx);
      structured = result.structured;
      await options.settle?.(tool, caller, parsed.data, result.structured);
      return { content: [{ type: 'text', text: result.text }], structuredContent: result.structured };
    } catch (err) {
      if (ctx.signal.aborted) {
        // The SDK sends no response to a cancelled request (the spec says not to); this is for the log.
        outcome = 'cancelled';
        const reason: unknown = ctx.signal.reason;
        return toolError('BAD_REQUEST', reason instanceof CancelledByClientError ? reason.message : 'The call was cancelled.');
      }
      if (isServiceError(err)) {
        outcome = err.code;
        return toolError(err.code, err.message, err.retryAfterSeconds);
      }
      outcome = 'UNKNOWN_ERROR';
      logger.error({ err: errorForLog(err, asksZeroRetention(parsed.data)), tool: name, callerKind: caller.kind }, 'tool call failed unexpectedly');
      return toolError('UNKNOWN_ERROR', unknownErrorBody().error);
    } finally {
      unregister?.();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ tool: name, callerKind: caller.kind, teamId: caller.teamId ?? null, outcome, ms: Math.round(ms * 10) / 10 }, 'tool call');
      options.audit?.({ tool: name, caller, input: parsed.data, outcome, durationMs: ms, ...(structured ? { result: structured } : {}), ...(auditFile ? { file: auditFile } : {}) });
    }
  });

  return server;
}
