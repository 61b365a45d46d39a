/**
 * The express application: routes are thin (validate → call the core → shape the response).
 *
 *   GET  /health      unauthenticated liveness: { ok: true }
 *   GET  /ready       unauthenticated readiness: stores reachable, parse processes warm, not draining (routes: operations.ts)
 *   GET  /metrics     Prometheus text; only with FOLIO_METRICS=on and its bearer token (docs/operations.md)
 *   GET  /.well-known/oauth-protected-resource/v2/mcp-oauth, /.well-known/jwks.json   unauthenticated
 *   GET  /.well-known/oauth-authorization-server   unauthenticated RFC 8414 metadata
 *   POST /oauth/register  unauthenticated RFC 7591 client registration (routes/oauth-register.ts)
 *   GET  /oauth/authorize, /oauth/sign-in…, /account   authorization endpoint, its pages, account settings (routes/oauth-authorize.ts, routes/account.ts)
 *   POST /oauth/token, /oauth/revoke   OAuth token and revocation endpoints (routes/oauth-token.ts), no API key
 *   PUT  /v2/uploads/:token  no API key (the URL is the capability): the file of an upload ticket
 *   POST /v2/uploads  API key required; JSON {filename} → upload ticket (docs/uploads.md)
 *   POST /v2/parse    API key required; multipart upload, or JSON {uploadRef, ...options} → parse
 *   POST /v2/scrape   API key required; JSON {url, …options} → scrape (src/web/scrape.ts), rendered by src/browser when asked
 *   /v2/browser…, /v2/scrape/:id/interact   API key required; browser sessions and interact (routes/browser.ts)
 *   WebSocket /v2/browser/cdp/:token   a session's DevTools, relayed (src/http/cdp-door.ts); the token is the capability
 *   GET  /v2/captures/:name  no API key (the URL is the capability): a screenshot or PDF of the browser, until it expires
 *   POST /v2/map, /v2/crawl…  API key required; map and crawl (routes/map.ts, routes/crawl.ts)
 *   /v2/batch/scrape…  API key required; batch scrape on the crawl jobs (routes/batch.ts)
 *   WebSocket /v2/crawl/:id, /v2/batch/scrape/:id   the job watcher, on the server's `upgrade` (src/http/watcher.ts)
 *   POST /v2/search   API key required; JSON → web/news/images search (docs/search.md)
 *   /v2/mcp, /v2/mcp-oauth, /{API_KEY}/v2/mcp   the MCP tool server (src/mcp/http.ts)
 *   GET  /v2/team/credit-usage, /v2/team/token-usage (+ /historical)   API key required (routes/team.ts)
 *   /v2/agent…, /v2/extract…  API key required; agent and extract jobs on the configured LLM (routes/agent.ts, docs/agent.md)
 *   /v2/agent/threads…, /v2/monitor, …   Firecrawl paths not served:
 *                     a clear NOT_YET_SUPPORTED or NOT_FOUND naming the feature (routes/not-yet-supported.ts)
 *   anything else     404 { success: false, code: 'NOT_FOUND', error }
 */
import express, { type Express } from 'express';
import type { AccessTokenVerifier } from '../../auth/access-token-types.ts';
import { requireApiKey, type ApiKeyDirectory } from '../../auth/api-keys.ts';
import type { SigningKeys } from '../../auth/signing-keys.ts';
import type { TokenEndpoint } from '../../auth/token-endpoint.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicUrls } from '../public-urls.ts';
import { errorHandler, notFound } from './error-handler.ts';
import { connectionAdmission, uploadSlots, type ConnectionCap } from './connections/index.ts';
import { requestLog } from './request-log.ts';
import { operationsRoutes, refuseWhileDraining, requestMetrics, type OperationsRouteDeps } from './operations.ts';
import { parseRoute } from './routes/parse.ts';
import { searchRoute } from './routes/search.ts';
import { wellKnownRoutes } from './routes/well-known.ts';
import { exchangeRoutes, notYetSupportedRoutes } from './routes/not-yet-supported.ts';
import { oauthRegisterRoutes } from './routes/oauth-register.ts';
import { redirectUriMatches, type ClientRegistry } from '../../auth/clients.ts';
import type { AuthorizationCodeIssuer } from '../../auth/authorization-code-types.ts';
import type { OAuthGrantDirectory } from '../../auth/grants.ts';
import { createBrowserSessions } from '../../auth/sessions.ts';
import { createSignInAttemptLimit } from '../../auth/sign-in-attempts.ts';
import { mcpResourceUrl } from '../../.well-known/urls.ts';
import { issuerOf } from '../../.well-known/authorization-server.ts';
import type { AccountStore } from '../store/accounts.ts';
import { accountRoutes } from './routes/account.ts';
import { oauthAuthorizeRoutes } from './routes/oauth-authorize.ts';
import { oauthTokenRoutes } from './routes/oauth-token.ts';
import { createUploadTicketRoute, receiveUploadRoute } from './routes/uploads.ts';
import { scrapeRoute } from './routes/scrape.ts';
import { capturesRoute } from './routes/captures.ts';
import { browserRoutes } from './routes/browser.ts';
import type { BrowserService } from '../browser/index.ts';
import { mapRoutes } from './routes/map.ts';
import { crawlRoutes } from './routes/crawl.ts';
import { batchRoutes } from './routes/batch.ts';
import { agentRoutes } from './routes/agent.ts';
import type { AgentService } from '../agent/index.ts';
import type { CrawlService } from '../web/crawl/index.ts';
import type { Fetcher } from '../web/fetch/types.ts';
import type { SearchOperation } from '../web/search/index.ts';
import type { ParseRunner } from '../limits/runner.ts';
import { mcpRoutes, type McpRoutesDeps } from '../mcp/http.ts';
import type { KeylessUsageStore } from '../store/keyless-usage.ts';
import type { UploadRefs } from '../uploads/service.ts';
import type { Audit } from '../audit/index.ts';
import type { PlanSource, TeamAccounts } from '../accounts/index.ts';
import { billedRoutes } from './billing.ts';
import { teamRoutes } from './routes/team.ts';
import type { RateWindow, TeamLimits } from '../limits/teams/index.ts';
import type { WindowCounter } from '../limits/window-counter.ts';
import { DEFAULT_TIMEOUT_MS } from '../parse/options.ts';
import { DEFAULT_SEARCH_TIMEOUT_MS } from '../web/search/request.ts';
import { MAP_DEFAULT_TIMEOUT_MS } from '../web/map.ts';
import { teamJob, teamRate } from './team-limits.ts';
import { teamQueueRoutes } from './routes/team-queue.ts';
export interface AppDeps {
  config: Config;
  /** Base URLs clients are told (upload URLs, OAuth metadata, 401 challenges). */
  urls: PublicUrls;
  /** Where API keys are looked up (the store). */
  keys: ApiKeyDirectory & KeylessUsageStore;
  /** Runs parse(): the worker pool in `serve`. */
  runner: ParseRunner;
  logger: Logger;
  /** Directory for upload spool files (`DATA_DIR/tmp`), already created. */
  spoolDir: string;
  /** Agent and extract jobs (serve starts them); without it /v2/agent and /v2/extract answer 404. */
  agents?: AgentService;
  /** Crawl jobs (serve starts them); without it the crawl routes are not mounted. */
  crawls?: CrawlService;
  /** Verifies folio's OAuth access tokens (for /v2/mcp and /v2/mcp-oauth). */
  tokens?: AccessTokenVerifier;
  /** The token signing keys: their public set is served at /.well-known/jwks.json. */
  signingKeys?: Pick<SigningKeys, 'jwks'>;
  /** OAuth clients (RFC 7591 registrations, Client ID Metadata Documents); without it, no /oauth/register. */
  clients?: ClientRegistry;
  /** Users, sessions and grants: with `clients`, mounts /oauth/authorize, its pages and /account. */
  accounts?: AccountStore & OAuthGrantDirectory;
  /** Issues authorization codes on consent (the token endpoint's side); without it Approve answers 503. */
  authorizationCodes?: AuthorizationCodeIssuer;
  /** The OAuth token and revocation endpoints; without it they are not mounted. */
  oauthTokenEndpoint?: TokenEndpoint;
  /** Upload tickets and the uploadRefs they lead to. */
  uploads: UploadRefs;
  /** The SSRF-protected outbound fetcher of the web operations. */
  fetcher: Fetcher;
  /** The browser engine of POST /v2/scrape and its capture URLs; without it actions and screenshots are refused. */
  browser?: BrowserService;
  /** The search operation over the configured backends. */
  search: SearchOperation;
  /** The server's connection cap (serve): requests on connections over it get health or 429 only. */
  connections?: Pick<ConnectionCap, 'isReserved' | 'max'>;
  /** SIEM audit events (src/audit): one per /v2 request and per MCP tool call of a team with a sink. */
  audit?: Audit;
  /** Each team's plan (src/accounts/plan.ts). */
  plans: PlanSource;
  /** Credits, the 402 and ZDR refusals, the team usage endpoints (src/accounts); without it nothing is billed. */
  teamAccounts?: TeamAccounts;
  /** Rate limit and fair queue per team (src/limits/teams), built over `plans` by serve; its runner wraps `runner`. */
  limits: TeamLimits;
  /** With REDIS_URL (src/limits/redis): the keyless per-minute window and the sign-in/registration counters the instances share. Default: in memory. */
  sharedWindows?: { keylessRate: RateWindow; counter: WindowCounter };
  /** Readiness, metrics and the drain of a graceful shutdown (serve); without it only /health. */
  operations?: OperationsRouteDeps;
  /** The MCP continuation store and cancellation relay shared by the instances (REDIS_URL: src/mcp/redis); without it, in memory. */
  mcpShared?: Pick<McpRoutesDeps, 'results' | 'cancels'>;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.config.trustProxy);

  const ops = deps.operations;
  if (ops) app.use(requestMetrics(ops.metrics, ops.drain));
  app.use(requestLog(deps.logger));
  if (deps.connections) app.use(connectionAdmission(deps.connections));
  if (ops) app.use(refuseWhileDraining(ops.drain));
  // Upload bodies in flight per client address and per key (after the key check where there is one).
  const uploadSlot = uploadSlots({ perClient: deps.config.connections.maxUploadsPerClient, perKey: deps.config.connections.maxUploadsPerKey });

  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  if (ops) app.use(operationsRoutes(ops));

  app.use(wellKnownRoutes({ urls: deps.urls, documentationUrl: deps.config.resourceDocumentationUrl, authMetadataUrl: deps.config.authMetadataUrl, signingKeys: deps.signingKeys }));
  if (deps.clients) app.use(oauthRegisterRoutes({ clients: deps.clients, logger: deps.logger, rate: { max: deps.config.oauthRegistrationsPerMinute, windowMs: 60_000 }, ...(deps.sharedWindows ? { counter: deps.sharedWindows.counter } : {}) }));
  if (deps.clients && deps.accounts) {
    const sessions = createBrowserSessions({ store: deps.accounts, publicUrl: deps.urls.base });
    app.use(
      oauthAuthorizeRoutes({
        store: deps.accounts,
        sessions,
        clients: deps.clients,
        redirectUriMatches,
        codes: deps.authorizationCodes,
        attempts: createSignInAttemptLimit(deps.sharedWindows ? { counter: deps.sharedWindows.counter } : {}),
        issuer: issuerOf(deps.urls.base),
        resourceUrl: mcpResourceUrl(deps.urls.mcp, '/v2/mcp-oauth'),
        defaultResource: deps.config.oauthDefaultResource,
        logger: deps.logger,
      }),
    );
    app.use(accountRoutes({ store: deps.accounts, sessions, clients: deps.clients, logger: deps.logger }));
  }
  if (deps.oauthTokenEndpoint) app.use(oauthTokenRoutes(deps.oauthTokenEndpoint));
  app.put('/v2/uploads/:token', uploadSlot, receiveUploadRoute(deps.uploads));
  if (deps.browser) app.get('/v2/captures/:name', capturesRoute(deps.browser));

  // Before the API-key middleware: /v2/mcp has keyless callers and its own auth paths.
  app.use(
    mcpRoutes({
      config: deps.config,
      urls: deps.urls,
      keys: deps.keys,
      runner: deps.runner,
      logger: deps.logger,
      ...(deps.tokens ? { tokens: deps.tokens } : {}),
      uploads: deps.uploads,
      fetcher: deps.fetcher,
      limits: deps.limits,
      ...(deps.sharedWindows ? { keylessRate: deps.sharedWindows.keylessRate } : {}),
      ...(deps.crawls ? { crawls: deps.crawls } : {}),
      // Listed only with an LLM configured (HTTP answers 503 NOT_CONFIGURED naming the variables).
      ...(deps.agents && deps.config.llm ? { agents: deps.agents } : {}),
      // The tool is listed only when a backend is configured (HTTP answers 503 saying what to set).
      ...(deps.search.backends.length > 0 ? { search: deps.search } : {}),
      ...(deps.browser ? { browser: deps.browser } : {}),
      ...(deps.audit ? { audit: deps.audit } : {}),
      ...(deps.teamAccounts ? { teamAccounts: deps.teamAccounts } : {}),
      ...deps.mcpShared,
    }),
  );

  if (deps.audit) app.use('/v2', deps.audit.http);
  app.use(
    '/v2',
    requireApiKey(deps.keys, {
      onTouchError: (err) => deps.logger.warn({ err }, 'could not record API key use'),
    }),
  );
  app.use('/v2', teamRate(deps.limits));
  if (deps.teamAccounts) app.use(teamRoutes(deps.teamAccounts), billedRoutes(deps.teamAccounts, deps.logger));
  app.use(teamQueueRoutes(deps.limits));
  if (deps.browser) app.use(browserRoutes({ browser: deps.browser, publicUrl: deps.urls.base }));
  // Firecrawl v2 paths folio does not serve: a clear NOT_YET_SUPPORTED / NOT_FOUND naming them.
  if (deps.agents) app.use(agentRoutes({ agents: deps.agents, urls: deps.urls }));
  app.use(notYetSupportedRoutes());
  app.post('/v2/uploads', createUploadTicketRoute(deps.uploads));
  app.post('/v2/parse', uploadSlot, parseRoute({ runner: deps.runner, spoolDir: deps.spoolDir, uploads: deps.uploads }));
  app.post('/v2/scrape', ...teamJob(deps.limits, 'scrape', DEFAULT_TIMEOUT_MS), ...scrapeRoute({ fetcher: deps.fetcher, runner: deps.runner, ...(deps.browser ? { browser: deps.browser } : {}) }));
  app.post('/v2/map', ...teamJob(deps.limits, 'map', MAP_DEFAULT_TIMEOUT_MS));
  app.use(mapRoutes({ fetcher: deps.fetcher }));
  if (deps.crawls) app.use(crawlRoutes({ crawls: deps.crawls, urls: deps.urls }));
  if (deps.crawls) app.use(batchRoutes({ crawls: deps.crawls, urls: deps.urls }));
  app.post('/v2/search', ...teamJob(deps.limits, 'search', DEFAULT_SEARCH_TIMEOUT_MS), ...searchRoute(deps.search));

  app.use(exchangeRoutes());
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
