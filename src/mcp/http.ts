/**
 * The tool server over Streamable HTTP (MCP 2025-11-25 "Transports › Streamable HTTP"):
 * `/v2/mcp`, legacy `/{API_KEY}/v2/mcp` and `/v2/mcp-oauth`. Mounted before the API-key
 * middleware of `/v2` (keyless callers have no key).
 *
 * Stateless: every POST gets a new server and transport (`sessionIdGenerator: undefined`), and
 * the answer streams as SSE so that progress notifications reach the client while a tool runs.
 * No session is issued, so no session has to be shared between instances: two folio instances
 * behind a load balancer serve one client, whichever instance each POST reaches (no stickiness;
 * what spans POSTs is below, shared through Redis with REDIS_URL: docs/scale-out.md). Hence:
 * - GET (a server-initiated SSE stream) and DELETE (ending a session) → 405 `Allow: POST`;
 * - a request carrying `Mcp-Session-Id` → 404, which tells a client to re-initialize (spec:
 *   "Session Management" ¶4);
 * - cancellation (`notifications/cancelled`, its own POST) goes through the RunningCalls
 *   registry (with REDIS_URL relayed to every instance: src/mcp/redis), and a client that closes
 *   the connection aborts its call;
 * - a long result's continuation (`parse{resultId}`) is read from the shared store with REDIS_URL,
 *   from this process's memory without.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ApiKeyDirectory, AuthenticatedTeam } from '../../auth/api-keys.ts';
import { QUERY_KEY_PARAMS } from '../../auth/api-keys.ts';
import type { AccessTokenVerifier } from '../../auth/access-token-types.ts';
import { mcpResourceUrl, protectedResourceMetadataUrl } from '../../.well-known/urls.ts';
import { buildTools } from '../../tools/index.ts';
import type { AgentService } from '../agent/index.ts';
import type { CrawlService } from '../web/crawl/index.ts';
import type { Fetcher } from '../web/fetch/types.ts';
import type { AnyToolDefinition, Caller } from '../../tools/types.ts';
import type { SearchOperation } from '../web/search/index.ts';
import type { Config } from '../config.ts';
import { ServiceError } from '../errors.ts';
import { KeylessLimiter } from '../limits/keyless.ts';
import type { ParseRunner } from '../limits/runner.ts';
import type { RateWindow, TeamLimits } from '../limits/teams/index.ts';
import type { Logger } from '../log.ts';
import type { PublicUrls } from '../public-urls.ts';
import type { KeylessUsageStore } from '../store/keyless-usage.ts';
import type { UploadRefService } from '../uploads/types.ts';
import { authenticate, type AuthDeps, type McpEndpoint } from './http-auth.ts';
import { transportHygiene } from './http-hygiene.ts';
import { RunningCalls, type CancelRelay, type JsonRpcId } from './running-calls.ts';
import type { ParseResults } from '../../tools/parse-results.ts';
import { createMcpServer } from './server.ts';
import type { Audit } from '../audit/index.ts';
import { toolMetering } from './billing.ts';
import type { TeamAccounts } from '../accounts/index.ts';
import { teamToolJobs } from './team-jobs.ts';
import type { BrowserService } from '../browser/index.ts';

/** Largest JSON-RPC request body accepted. Tool arguments are small; files go through uploads. */
export const MAX_MCP_BODY_BYTES = 4 * 1024 * 1024;

export interface McpRoutesDeps {
  config: Config;
  urls: PublicUrls;
  /** API keys and keyless usage (the store). */
  keys: ApiKeyDirectory & KeylessUsageStore;
  /** Verifies folio OAuth access tokens; absent → bearer JWTs are refused as invalid. */
  tokens?: AccessTokenVerifier;
  runner: ParseRunner;
  uploads?: UploadRefService;
  /** The SSRF-protected fetcher (scrape, map tools). */
  fetcher?: Fetcher;
  /** Crawl jobs (crawl, crawl_status tools). */
  crawls?: CrawlService;
  /** The search operation (search tool). */
  search?: SearchOperation;
  /** The browser engine: scrape's actions/screenshot for keyed callers, interact and browser_* tools. */
  browser?: BrowserService;
  /** Agent and extract jobs (agent, agent_status, extract tools). */
  agents?: AgentService;
  logger: Logger;
  /** The tool list; default `buildTools` over the services above. */
  tools?: readonly AnyToolDefinition[];
  version?: string;
  /** SIEM audit events of tool calls (src/audit). */
  audit?: Pick<Audit, 'toolCall'>;
  /** Bills calls with a key or token to their team (src/mcp/billing.ts); absent: nothing billed. */
  teamAccounts?: TeamAccounts;
  /** The team limits (src/limits/teams): tool calls of a key or OAuth token count against the team's rate; web tools wait in its fair queue. */
  limits?: Pick<TeamLimits, 'admit' | 'job'>;
  /** Continuation store of `parse{resultId}` shared by the instances (REDIS_URL: src/mcp/redis); absent: in memory. */
  results?: ParseResults;
  /** Carries `notifications/cancelled` to the instance running the call (REDIS_URL: src/mcp/redis); absent: this process only. */
  cancels?: CancelRelay;
  /** The keyless per-minute window (shared in Redis with REDIS_URL); default in memory. */
  keylessRate?: RateWindow;
}

/** A JSON-RPC error response body (JSON-RPC 2.0 §5.1) for transport-level refusals. */
function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function sendServiceError(res: Response, err: ServiceError, challenge?: string): void {
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  res.status(err.status).json(err.toBody());
}

function queryKeyParam(req: Request): string | undefined {
  const q = req.url.indexOf('?');
  if (q === -1) return undefined;
  const params = new URLSearchParams(req.url.slice(q + 1));
  return QUERY_KEY_PARAMS.find((name) => params.has(name));
}

/** `notifications/cancelled` messages in a body (single message or batch). */
function cancellations(body: unknown): { requestId: JsonRpcId; reason?: string }[] {
  const messages = Array.isArray(body) ? body : [body];
  const out: { requestId: JsonRpcId; reason?: string }[] = [];
  for (const m of messages) {
    if (typeof m !== 'object' || m === null) continue;
    const { method, params } = m as { method?: unknown; params?: unknown };
    if (method !== 'notifications/cancelled' || typeof params !== 'object' || params === null) continue;
    const { requestId, reason } = params as { requestId?: unknown; reason?: unknown };
    if (typeof requestId === 'string' || typeof requestId === 'number') {
      out.push({ requestId, ...(typeof reason === 'string' ? { reason } : {}) });
    }
  }
  return out;
}

/** Whether a message in the body carries `params._meta.progressToken` (MCP "Progress"). */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    if (typeof m !== 'object' || m === null) return false;
    const params = (m as { params?: unknown }).params;
    if (typeof params !== 'object' || params === null) return false;
    const meta = (params as { _meta?: unknown })._meta;
    return typeof meta === 'object' && meta !== null && (meta as { progressToken?: unknown }).progressToken !== undefined;
  });
}

export function mcpRoutes(deps: McpRoutesDeps): Router {
  const { config, urls, logger } = deps;
  const tools =
    deps.tools ??
    buildTools({
      runner: deps.runner,
      ...(deps.uploads ? { uploads: deps.uploads } : {}),
      ...(deps.fetcher ? { fetcher: deps.fetcher } : {}),
      ...(deps.crawls ? { crawls: deps.crawls } : {}),
      ...(deps.search ? { search: deps.search } : {}),
      ...(deps.browser ? { browser: deps.browser, publicUrl: urls.base } : {}),
      ...(deps.agents ? { agents: deps.agents } : {}),
      ...(deps.results ? { results: deps.results } : {}),
    });
  const running = new RunningCalls(deps.cancels ? { relay: deps.cancels } : {});
  const limiter = new KeylessLimiter({ ratePerMinute: config.keyless.ratePerMinute, dailyQuota: config.keyless.dailyQuota, usage: deps.keys, ...(deps.keylessRate ? { rate: deps.keylessRate } : {}) });
  const metering = deps.teamAccounts ? toolMetering(deps.teamAccounts, logger) : undefined;
  /** Admission of one tool call; its least price stays held until `hold` aborts (the exchange closes). */
  const admitHolding = (hold: AbortSignal) => async (tool: AnyToolDefinition, caller: Caller, input: unknown) => {
    if (caller.kind === 'keyless') await limiter.admit(caller.owner);
    else if (caller.teamId !== undefined) await deps.limits?.admit(caller.teamId);
    await metering?.admit(tool, caller, input, hold);
  };
  const around = deps.limits ? teamToolJobs(deps.limits) : undefined;
  const authDeps: AuthDeps = {
    keys: deps.keys,
    ...(deps.tokens ? { tokens: deps.tokens } : {}),
    keylessEnabled: config.keyless.enabled,
    keylessSecret: () => deps.keys.keylessClientSecret(),
    oauthResourceMetadataUrl: protectedResourceMetadataUrl(mcpResourceUrl(urls.mcp, '/v2/mcp-oauth')),
    onTouchError: (err) => logger.warn({ err }, 'could not record API key use'),
  };
  const jsonBody = express.json({ limit: MAX_MCP_BODY_BYTES });

  const handle = (endpoint: McpEndpoint): RequestHandler =>
    async (req, res) => {
      if (req.method !== 'POST') {
        // No server-initiated stream (GET) and no session to end (DELETE): spec "Listening for
        // Messages from the Server" allows 405.
        res.setHeader('Allow', 'POST, OPTIONS');
        jsonRpcError(res, 405, -32000, `Method ${req.method} not allowed: this stateless MCP server takes JSON-RPC messages by POST only.`);
        return;
      }
      const param = queryKeyParam(req);
      if (param !== undefined) {
        sendServiceError(
          res,
          new ServiceError('BAD_REQUEST', `Credentials are not accepted in the URL (query parameter '${param}'): URLs end up in logs. Send the key as 'Authorization: Bearer <API_KEY>', and consider rotating the key you sent.`),
        );
        return;
      }
      const pathKey = endpoint === 'legacy' ? String(req.params.apiKey ?? '') : undefined;
      const auth = await authenticate(req, endpoint, authDeps, pathKey);
      if (!auth.ok) {
        sendServiceError(res, new ServiceError(auth.status === 400 ? 'BAD_REQUEST' : 'UNAUTHORIZED', auth.message), auth.challenge);
        return;
      }
      const { caller } = auth;
      if (caller.teamId !== undefined) {
        // For the request log line (its team id); the key id when a key was used.
        const team: AuthenticatedTeam = { keyId: auth.keyId ?? `oauth:${caller.userId ?? ''}`, teamId: caller.teamId, teamName: caller.teamName ?? '' };
        res.locals.auth = team;
      }
      if (req.headers['mcp-session-id'] !== undefined) {
        jsonRpcError(res, 404, -32001, 'Session not found: this server is stateless and issues no sessions. Re-initialize without an Mcp-Session-Id header.');
        return;
      }
      const parsed = await new Promise<unknown>((resolve) => {
        jsonBody(req, res, (err: unknown) => resolve(err ?? null));
      });
      if (parsed !== null) {
        const type = (parsed as { type?: unknown }).type;
        if (type === 'entity.too.large') {
          // Not read further: the connection closes after the answer.
          res.setHeader('Connection', 'close');
          sendServiceError(res, new ServiceError('PAYLOAD_TOO_LARGE', `The request body is over the ${MAX_MCP_BODY_BYTES / (1024 * 1024)} MB limit of the tool server. Send files with the upload command of the parse tool, not inside a message.`));
        } else {
          jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
        }
        return;
      }
      for (const c of cancellations(req.body)) running.cancel(caller.owner, c.requestId, c.reason);
      const hold = new AbortController();
      res.once('close', () => hold.abort());

      const server = createMcpServer({
        tools,
        caller,
        logger,
        mcpUrl: urls.mcp,
        admit: admitHolding(hold.signal),
        ...(metering ? { settle: metering.settle } : {}),
        ...(around ? { around } : {}),
        running,
        ...(deps.audit ? { audit: deps.audit.toolCall } : {}),
        ...(deps.version ? { version: deps.version } : {}),
      });
      // A plain JSON answer unless a message asked for progress notifications, which need the SSE
      // stream: both are Streamable HTTP responses a client must accept, and JSON is cheaper.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(req.body) });
      res.on('close', () => {
        // Closing the server aborts the signals of calls still running (the client went away).
        void transport.close().catch(() => undefined);
        void server.close().catch(() => undefined);
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    };

  const router = express.Router();
  const hygiene = transportHygiene({
    bindHost: config.host,
    ownOrigins: [urls.base, urls.mcp],
    allowedOrigins: config.allowedOrigins,
    allowedHosts: config.allowedHosts,
  });
  router.all('/v2/mcp', hygiene, handle('/v2/mcp'));
  router.all('/v2/mcp-oauth', hygiene, handle('/v2/mcp-oauth'));
  router.all('/:apiKey/v2/mcp', hygiene, handle('legacy'));
  return router;
}
