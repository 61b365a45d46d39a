/**
 * `folio serve`: the HTTP service wired from its parts — config, logger, store (SQLite, or PostgreSQL at DATABASE_URL), parse
 * pool, express app — with a graceful stop on SIGINT/SIGTERM (docs/operations.md): `/ready`
 * turns 503 and new requests get 503 SHUTTING_DOWN with Retry-After, in-flight requests finish
 * (up to FOLIO_SHUTDOWN_GRACE_SECONDS), crawl and batch jobs are handed back, the stores close.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserService, sessionPlaceRefused, type BrowserService } from '../browser/index.ts';
import { createAccessTokens, type AccessTokens } from '../../auth/access-tokens.ts';
import { createClientRegistry, type ClientRegistry } from '../../auth/clients.ts';
import type { AuthorizationCodeIssuer } from '../../auth/authorization-code-types.ts';
import { createAuthorizationCodes, type AuthorizationCodes } from '../../auth/authorization-codes.ts';
import { createRefreshTokens } from '../../auth/refresh-tokens.ts';
import { createSigningKeys } from '../../auth/signing-keys.ts';
import { createTokenEndpoint } from '../../auth/token-endpoint.ts';
import { mcpResourceUrl } from '../../.well-known/urls.ts';
import type { Config } from '../config.ts';
import { createApp } from '../http/app.ts';
import { browserMinutesPrice, chargeJobPages, createTeamAccounts, NO_SURCHARGE } from '../accounts/index.ts';
import { descriptorBudgetWarning, guardConnections, healthReserve, serverTimeoutOptions } from '../http/connections/index.ts';
import { expectContinue } from '../http/routes/uploads.ts';
import type { ParseRunner } from '../limits/runner.ts';
import { prepareSpoolDir } from '../http/upload-spool.ts';
import { createParsePool } from '../limits/parse-pool.ts';
import { openSharedLimits, type SharedLimits } from '../limits/redis/index.ts';
import { createTeamLimits } from '../limits/teams/index.ts';
import { createLogger, type Logger } from '../log.ts';
import { resolvePublicUrls, type PublicUrls } from '../public-urls.ts';
import { openStore, storeEngine } from '../store/open.ts';
import type { Store } from '../store/types.ts';
import { openBlobStore, type BlobStore } from '../blobs/index.ts';
import { createUploadRefService, type UploadRefs } from '../uploads/service.ts';
import { createFetcher } from '../web/fetch/fetcher.ts';
import type { LookupFunction } from '../web/fetch/guarded-connect.ts';
import { startCrawling } from '../web/crawl/index.ts';
import { createWebhookDispatcher, loadWebhookSecret, type WebhookConfig } from '../web/webhooks/index.ts';
import { attachJobWatcher } from '../http/watcher.ts';
import { attachCdpDoor } from '../http/cdp-door.ts';
import { LLM_VARIABLES, planBrowserActions, type LlmSettings } from '../llm/index.ts';
import { scrape } from '../web/scrape.ts';
import { asksForBrowser, type ScrapeOptions } from '../web/scrape-options.ts';
import { createSearch, searchBackendsFromConfig } from '../web/search/index.ts';
import { createAudit } from '../audit/index.ts';
import { startAgents } from '../agent/index.ts';
import { openMcpRedisState } from '../mcp/redis/index.ts';
import { createDrain, createFolioMetrics, createReadiness, createRedisPing, meteredAccounts, NotReadyError, type ReadinessProbe } from '../ops/index.ts';

export interface Service {
  url: string;
  /** The base URLs clients are told (config, else `url`). */
  urls: PublicUrls;
  port: number;
  store: Store;
  /** Issues and verifies folio's OAuth access tokens. */
  tokens: AccessTokens;
  /** OAuth clients: RFC 7591 registrations and Client ID Metadata Documents. */
  clients: ClientRegistry;
  /** Issues authorization codes (the authorization endpoint) and redeems them (the token endpoint). */
  authorizationCodes: AuthorizationCodes;
  /** Upload tickets and refs (docs/uploads.md); its sweep runs while the service does. */
  uploads: UploadRefs;
  /** Where uploaded files and captures are kept (FOLIO_BLOB_URL: DATA_DIR, S3 or PostgreSQL). */
  blobs: BlobStore;
  server: http.Server;
  /** The browser engine (rendered scrape, screenshots, actions); Chromium starts on first use. */
  browser: BrowserService;
  /** Stops accepting, waits for in-flight requests, closes the pool and the store. Idempotent. */
  shutdown(): Promise<void>;
}

export interface ServiceOptions {
  logger?: Logger;
  /** Replaces the worker pool (tests that need a runner with known behaviour). */
  runner?: ParseRunner;
  /** The parse children's entry module (ParsePoolOptions.workerPath; the tests' services run the compiled one). */
  parseWorkerPath?: string;
  /** How long in-flight requests may take to finish after a stop signal. Default: FOLIO_SHUTDOWN_GRACE_SECONDS. */
  graceMs?: number;
  /** Replaces the authorization-code issuer the consent page calls (tests that inspect what was approved). */
  authorizationCodes?: AuthorizationCodeIssuer;
  /** Clock of upload tickets (tests of expiry). */
  now?: () => Date;
  /** Clock of OAuth codes, access and refresh tokens (tests of expiry and grace windows). */
  oauthNow?: () => Date;
  /** DNS of outbound fetches and of the browser's guarded proxy (tests give names loopback answers). */
  lookup?: LookupFunction;
}

export async function startService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // First: a malformed FOLIO_FETCH_ALLOW fails the start before anything is opened.
  const fetcher = createFetcher({ allow: config.fetchAllow, ...(config.fetchProxy ? { proxyUrl: config.fetchProxy } : {}), ...(options.lookup ? { lookup: options.lookup } : {}) });
  const store = await openStore(config);
  const spoolDir = prepareSpoolDir(config.dataDir);
  const pool = options.runner
    ? undefined
    : createParsePool({
        size: config.maxConcurrentParses,
        maxQueue: config.maxQueuedParses,
        workerMemoryMb: config.parseWorkerMemoryMb,
        recycleMb: config.parseWorkerRecycleMb,
        onUnexpectedError: (detail) => logger.error({ detail }, 'parse failed unexpectedly'),
        onWorkerOutput: (line) => logger.debug({ worker: line }, 'parse process output'),
        ocr: { languages: config.ocrLanguages },
        limits: config.sourceLimits,
        ...(config.llm ? { llm: config.llm } : {}),
        ...(options.parseWorkerPath ? { workerPath: options.parseWorkerPath } : {}),
      });
  // Workers load every reader before they take work; listening before that would hand the
  // first requests a cold start that counts against their timeout.
  try {
    await pool?.ready();
  } catch (err) {
    await pool?.close();
    await store.close();
    throw err;
  }
  // Operations (docs/operations.md): metrics are collected always, served only with FOLIO_METRICS=on.
  const metrics = createFolioMetrics();
  const drain = createDrain();
  metrics.readInFlight(() => drain.inFlight);
  metrics.readPool(() => pool?.stats());
  // Plans, credits and token usage of teams (docs/billing.md); crawl and batch pages are charged as stored.
  const teamAccounts = meteredAccounts(createTeamAccounts({ store, defaults: config.defaultPlan, prices: config.prices, onError: (err, message) => logger.warn({ err }, message) }), metrics);
  // Each team's plan (the store's, else FOLIO_DEFAULT_*); the fair queue per team sits in front of the pool (docs/limits.md).
  // With REDIS_URL the team limits, keyless and OAuth counters are shared by the instances (docs/scale-out.md).
  let shared: SharedLimits | undefined;
  try {
    shared = config.redisUrl ? await openSharedLimits(config.redisUrl, { leaseTtlMs: config.limitsLeaseTtlMs, onError: (err, message) => logger.warn({ err }, message) }) : undefined;
  } catch (err) {
    await pool?.close();
    await store.close();
    throw err;
  }
  const limits = createTeamLimits({
    plans: teamAccounts.plans,
    parseSlots: config.maxConcurrentParses,
    maxQueuedPerTeam: config.maxQueuedPerTeam,
    maxQueuedParses: config.maxQueuedParses,
    ...(shared ? { rate: shared.teamRate, jobs: shared.teamPlaces } : {}),
  });
  const pooled: ParseRunner = options.runner ?? ((input, opts, run) => (pool as NonNullable<typeof pool>).run(input, opts, run));
  // Every parse (HTTP, MCP, scrape, crawl) passes here: its LLM calls' tokens are counted once for
  // the metrics and recorded for its team (docs/billing.md) before the parse is answered, so a
  // token-usage read after the answer counts them (on PostgreSQL the write could land after it).
  const metered: ParseRunner = async (input, opts, run = {}) => {
    const recording: Promise<void>[] = [];
    try {
      return await pooled(input, opts, {
        ...run,
        onLlmUsage: (usage) => {
          metrics.llmTokens.inc({ direction: 'input' }, Math.max(0, Math.round(usage.promptTokens)));
          metrics.llmTokens.inc({ direction: 'output' }, Math.max(0, Math.round(usage.completionTokens)));
          run.onLlmUsage?.(usage);
          // recordTokens logs its own failures and never rejects.
          recording.push(teamAccounts.recordTokens(run.teamId === undefined ? undefined : { teamId: run.teamId }, { model: usage.model, inputTokens: usage.promptTokens, outputTokens: usage.completionTokens, operation: 'parse' }));
        },
      });
    } finally {
      await Promise.all(recording);
    }
  };
  const runner: ParseRunner = limits.runner(metered);
  // The app needs the public URLs, which default to the listening address (known once listening,
  // e.g. with PORT=0): listen first, attach the app in the same tick, before any request is read.
  // Head, body and total bounds, the connection cap (docs/connections.md); set before listening.
  const server = http.createServer(serverTimeoutOptions(config.connections));
  const connections = guardConnections(server, config.connections);
  const descriptors = descriptorBudgetWarning(config.connections.maxConnections + healthReserve(config.connections.maxConnections));
  if (descriptors) logger.warn(descriptors);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await shared?.close();
    await pool?.close();
    await store.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const urls = resolvePublicUrls(config, url);
  // Crawl jobs left unfinished by a previous process resume now; with REDIS_URL they run on
  // BullMQ, and an unreachable Redis fails the start (docs/crawl.md).
  // Webhooks of crawl and batch jobs (docs/webhooks.md): signed, retried, through the Fetcher.
  const webhooks = createWebhookDispatcher({
    fetcher,
    secret: loadWebhookSecret(config.dataDir, config.webhookSecret),
    lookup: async (jobId) => {
      const job = await store.getCrawlJob(jobId);
      if (!job) {
        // An agent or extract job (docs/agent.md): its webhook is in its stored request.
        const agentJob = await store.getAgentJob(jobId);
        if (!agentJob) return undefined;
        const { webhook } = JSON.parse(agentJob.request) as { webhook?: WebhookConfig };
        return { kind: agentJob.kind, ...(webhook ? { webhook } : {}) };
      }
      const { webhook } = JSON.parse(job.options) as { webhook?: WebhookConfig };
      return { kind: job.kind, ...(webhook ? { webhook } : {}) };
    },
    onError: (detail, message) => logger.warn(detail, message),
  });
  const events = chargeJobPages(webhooks, {
    accounts: teamAccounts,
    spenderOf: (jobId) => store.spenderOfRequest(jobId),
    getJob: (jobId) => store.getCrawlJob(jobId),
    onError: (err, jobId) => logger.error({ err, jobId }, 'could not charge a crawl page'),
  });
  // Crawl, batch and search pages that ask for `actions` or a screenshot are rendered by the browser,
  // created further down (it needs the accounts and limits); assigned before any page runs.
  let pageBrowser: BrowserService | undefined;
  const browserFor = (opts: ScrapeOptions) => (pageBrowser && asksForBrowser(opts) ? { browser: pageBrowser } : {});
  let crawls: Awaited<ReturnType<typeof startCrawling>>;
  try {
    crawls = await startCrawling({
      events,
      store,
      fetcher,
      // A page counts against its job's team (docs/limits.md): it waits its turn, never refused.
      scrapePage: (pageUrl, opts, run) => limits.crawlPage(run.owner, opts.timeout, run.signal, (timeout, teamId) => scrape({ ...opts, url: pageUrl, timeout }, { fetcher, runner, ...browserFor(opts) }, { signal: run.signal, ...(teamId ? { teamId } : {}) })),
      concurrency: config.crawlConcurrency,
      browserPages: config.browser.enabled,
      ...(config.redisUrl ? { redisUrl: config.redisUrl, lockMs: config.crawlLockMs } : {}),
      onPage: (detail) => logger.debug(detail, 'crawl page scraped'),
      onError: (detail, message) => logger.error(detail, message),
    });
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await shared?.close();
    await pool?.close();
    await fetcher.close();
    await store.close();
    throw err;
  }
  const signingKeys = createSigningKeys(store);
  const tokens = createAccessTokens({
    keys: signingKeys,
    grants: store,
    issuer: urls.base,
    mcpUrl: urls.mcp,
    migrationEnd: config.oauthMigrationEnd,
    onTouchError: (err) => logger.warn({ err }, 'could not record OAuth grant use'),
    ...(options.oauthNow ? { now: options.oauthNow } : {}),
  });
  const oauthClock = options.oauthNow ? { now: options.oauthNow } : {};
  const authorizationCodes = createAuthorizationCodes(store, oauthClock);
  const oauthTokenEndpoint = createTokenEndpoint({
    codes: authorizationCodes,
    refreshTokens: createRefreshTokens(store, oauthClock),
    accessTokens: tokens,
    grants: store,
    resourceUrl: (p) => mcpResourceUrl(urls.mcp, p),
    ...oauthClock,
  });
  const clients = createClientRegistry({ store, fetcher });
  const search = createSearch({
    backends: searchBackendsFromConfig(config),
    scrape: (url, scrapeOptions, run) => scrape({ ...scrapeOptions, url }, { fetcher, runner, ...browserFor(scrapeOptions) }, run),
    browserPages: config.browser.enabled,
  });
  // Uploaded files and captures (docs/uploads.md): DATA_DIR, or an S3 bucket / PostgreSQL shared by every instance.
  const blobs = openBlobStore(config.blob, { dataDir: config.dataDir });
  // Where uploads and captures are kept is a field of the "listening" line below (the first line an operator reads).
  const uploads = createUploadRefService({
    store,
    storage: blobs.uploads,
    publicUrl: urls.base,
    ttlSeconds: config.uploadTtlSeconds,
    maxRefs: config.maxUploadRefs,
    ...(options.now ? { now: options.now } : {}),
  });
  uploads.startSweeping({ onError: (err) => logger.warn({ err }, 'upload sweep failed') });
  const audit = createAudit({ plans: teamAccounts.plans, logger, bufferEvents: config.audit.bufferEvents, allowHttpLoopback: config.audit.allowHttpLoopback });
  // Chromium is launched on the first render, not here (docs/browser.md).
  const browser = createBrowserService({
    enabled: config.browser.enabled,
    executablePath: config.browser.executablePath,
    sandbox: config.browser.sandbox,
    maxPages: config.browser.maxPages,
    allow: config.fetchAllow,
    storage: blobs.captures,
    publicUrl: urls.base,
    captureTtlSeconds: config.browser.screenshotTtlSeconds,
    ...(options.now ? { now: options.now } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
    onRefused: (target, reason) => logger.debug({ target, reason }, 'browser request refused by the address rule'),
    onCrash: () => logger.warn('Chromium exited unexpectedly; it is launched again on the next render'),
    onSweepError: (err) => logger.warn({ err }, 'capture sweep failed'),
    sessionLimits: { maxPerTeam: config.browser.sessionsPerTeam, maxTotal: config.browser.maxSessions, maxTtlSeconds: config.browser.sessionMaxTtlSeconds },
    interactTtlSeconds: config.browser.interactTtlSeconds,
    interactMaxPages: config.browser.interactMaxPages,
    // An open /v2/browser session holds one of its team's concurrent places (docs/limits.md).
    // Browser time in credits (docs/billing.md): a session its life, an interact call its run.
    billing: {
      admit: (owner, what) => teamAccounts.admit(owner, what, NO_SURCHARGE),
      charge: async (owner, what, durationMs) => (await teamAccounts.charge(owner, { operation: what, units: browserMinutesPrice(config.prices, durationMs) })).units,
    },
    onChargeError: (err) => logger.error({ err }, 'could not record a charge of browser time'),
    teamJob: (teamId, timeoutMs, signal, fn) => limits.job(teamId, { timeoutMs, ...(signal ? { signal } : {}), what: 'interact' }, (remainingMs) => fn(remainingMs)),
    teamPlace: (teamId, sessionsOpen) => limits.place(teamId, (maxConcurrent, running) => sessionPlaceRefused(maxConcurrent, running, sessionsOpen)),
    // A session dies with its key: the key is looked up again on every use and by the sweep.
    keyValid: async (owner) => {
      if (owner.keyId === undefined) return true;
      const stored = await store.getApiKey(owner.keyId);
      return stored !== undefined && stored.revokedAt === null;
    },
    llmVariables: LLM_VARIABLES,
    // Interact's `prompt` (the page's text is data to the model: src/llm/browser-actions.ts).
    ...(config.llm
      ? {
          planActions: (instruction: string, page: { url: string; text: string }, signal: AbortSignal) =>
            planBrowserActions({ settings: config.llm as LlmSettings, deadline: Date.now() + 120_000, signal }, instruction, page),
        }
      : {}),
    onSessionClosed: (session, why) => logger.info({ sessionId: session.id, kind: session.kind, teamId: session.owner.teamId, why }, 'browser session ended'),
  });
  pageBrowser = browser;
  // Agent and extract jobs (docs/agent.md): a job's credits are charged once as it ends, to the
  // key or OAuth client whose start recorded the job id; jobs a killed process left running fail now
  // (on a shared store, once their lease ran out).
  const agents = await startAgents({
    store,
    fetcher,
    runner,
    browser,
    search,
    prices: teamAccounts.prices,
    llm: config.llm,
    limits: config.agent,
    // Several instances share a PostgreSQL store: a job is failed as a dead process's only once
    // its lease ran out (docs/agent.md, "Several instances").
    lease: { shared: storeEngine(config) === 'postgres', ms: config.agentLeaseMs },
    charge: async (job) => {
      const team = /^team:(.+)$/.exec(job.owner)?.[1];
      if (!team || job.credits <= 0) return;
      try {
        const spender = await store.spenderOfRequest(job.id);
        // Charged before the job reads as ended, and again by the restart's clean-up if the process
        // died in between: the internal key makes the second charge none.
        await teamAccounts.charge({ teamId: team, ...spender }, { operation: job.kind, units: job.credits, requestId: job.id, internalKey: `agent-job:${job.id}` });
      } catch (err) {
        logger.error({ err, jobId: job.id }, 'could not charge an agent job');
      }
    },
    onTokens: (job, usage) => {
      const team = /^team:(.+)$/.exec(job.owner)?.[1];
      if (team) return teamAccounts.recordTokens({ teamId: team }, { inputTokens: usage.promptTokens, outputTokens: usage.completionTokens, model: usage.model, operation: job.kind, requestId: job.id });
    },
    onStarted: (job) => webhooks.started(job.id),
    // A cancelled job sends no event (the dispatcher's events are started, page, completed, failed).
    onFinished: (job) => {
      if (job.status === 'completed' || job.status === 'failed') webhooks.finished(job.id, job.status, job.error);
    },
    // A running job holds one of its team's concurrent places; its scrapes and parses run on it (docs/limits.md).
    place: (teamId, signal, fn) => limits.job(teamId, { timeoutMs: config.agent.timeoutMs, signal, what: 'agent job', background: true }, (_remainingMs, held) => fn(held.waitedMs)),
    onError: (err, message) => logger.error({ err }, message),
  });
  const redisPing = config.redisUrl ? createRedisPing(config.redisUrl) : undefined;
  const probes: Record<string, ReadinessProbe> = {
    store: () => store.ping(),
    parseWorkers: () => {
      const stats = pool?.stats();
      // One process being replaced (a timeout, a recycle) does not take the instance out: none warm does.
      if (stats && stats.ready === 0) throw new NotReadyError(`0 of ${stats.size} parse processes warm`);
    },
  };
  if (redisPing) probes.redis = () => redisPing.ping();
  // The MCP continuation store and cancellations reach every instance through Redis (docs/scale-out.md).
  const mcpShared = config.redisUrl ? await openMcpRedisState({ url: config.redisUrl, onError: (err, what) => logger.warn({ err }, what) }) : undefined;
  if (blobs.kind !== 'local') probes.blobs = () => blobs.ping();
  const operations = { readiness: createReadiness(probes), drain, metrics, metricsToken: config.operations.metrics?.token };
  // The authorization endpoint issues codes with the token endpoint's store unless a test hands in its own issuer.
  const app = createApp({ operations, config, urls, keys: store, runner, logger, spoolDir, tokens, signingKeys, oauthTokenEndpoint, uploads, fetcher, browser, crawls, agents, search, clients, accounts: store, authorizationCodes: options.authorizationCodes ?? authorizationCodes, connections, audit, plans: teamAccounts.plans, teamAccounts, limits, ...(mcpShared ? { mcpShared } : {}), ...(shared ? { sharedWindows: shared } : {}) });
  server.on('request', app);
  server.on('checkContinue', expectContinue(app));
  const watcher = attachJobWatcher(server, { keys: store, crawls, logger });
  const cdpDoor = attachCdpDoor(server, { browser, logger });
  logger.info({ url, blobs: blobs.description }, `folio listening on ${url}`);

  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    stopping ??= (async () => {
      // Still listening while draining: a load balancer sees /ready answer 503, and a request that
      // arrives anyway gets 503 SHUTTING_DOWN with Retry-After instead of a refused connection.
      drain.start();
      const graceMs = options.graceMs ?? config.operations.shutdownGraceSeconds * 1000;
      logger.info({ inFlight: drain.inFlight, graceSeconds: graceMs / 1000 }, 'shutting down: taking no new work, finishing in-flight requests');
      await watcher.close();
      await cdpDoor.close();
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<'timeout'>((resolve) => {
        graceTimer = setTimeout(() => resolve('timeout'), graceMs);
      });
      const finished = await Promise.race([drain.idle().then(() => 'idle' as const), grace]);
      clearTimeout(graceTimer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (finished === 'timeout') logger.warn({ inFlight: drain.inFlight }, 'in-flight requests did not finish within the grace period; closing their connections');
      // Idle keep-alive connections, and (past the grace) the connections of unfinished requests.
      server.closeAllConnections();
      await closed;
      // Running agent jobs end failed (they cannot continue after a restart), before their tools close.
      await agents.close();
      // Running crawl jobs stop where they are and stay `scraping`: the next start resumes them.
      // Before what their pages use: a page stopped here gives its team place back to Redis (with
      // the limits closed first, the place stayed taken for FOLIO_LIMITS_LEASE_TTL_SECONDS and
      // held the team's resumed jobs that long).
      await crawls.close();
      await redisPing?.close();
      await mcpShared?.close();
      await shared?.close();
      await uploads.close();
      await browser.close();
      await blobs.close();
      await webhooks.close();
      await audit.close();
      await pool?.close();
      await fetcher.close();
      await store.close();
      logger.info('stopped');
    })();
    return stopping;
  };

  return { url, urls, port, store, tokens, authorizationCodes, clients, uploads, blobs, server, browser, shutdown };
}

/** Runs until SIGINT or SIGTERM, then stops gracefully; a second signal exits at once. */
export async function runServe(config: Config): Promise<number> {
  const logger = createLogger({ level: config.logLevel });
  const service = await startService(config, { logger });
  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'stop signal received');
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      service.shutdown().then(resolve, (err: unknown) => {
        logger.error({ err }, 'error while shutting down');
        resolve();
      });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return 0;
}
