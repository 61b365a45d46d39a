/**
 * The only reader of `process.env`. One schema, one frozen Config; everything else is handed
 * the values it needs.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { TeamPlan } from './accounts/plan.ts';
import type { LlmSettings } from './llm/index.ts';
import type { Prices } from './accounts/prices.ts';

const optionalUrl = z.url({ protocol: /^https?$/ }).optional();
/** A comma-separated list; blanks dropped. */
const list = z
  .string()
  .optional()
  .transform((v) => (v ?? '').split(',').map((x) => x.trim()).filter((x) => x.length > 0));

/** A non-negative whole number, or `unlimited` (→ null). */
const limitOrUnlimited = z
  .string()
  .regex(/^(\d{1,15}|unlimited)$/, 'a whole number or `unlimited`')
  .transform((v) => (v === 'unlimited' ? null : Number(v)));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Parses running at once (one child process each); further requests wait in a queue. */
  FOLIO_MAX_CONCURRENT_PARSES: z.coerce.number().int().min(1).max(256).default(Math.max(2, os.availableParallelism())),
  /** Parses waiting for a worker before new requests get 429. */
  FOLIO_MAX_QUEUED_PARSES: z.coerce.number().int().min(0).max(100_000).default(64),
  /** Jobs one team may have waiting behind its running ones (its plan's maxConcurrent) before 429 (docs/limits.md). */
  FOLIO_MAX_QUEUED_PER_TEAM: z.coerce.number().int().min(0).max(100_000).default(32),
  /** Memory cap of one parse process, in MB: its whole RSS. Past it the process is killed and the file refused (400). */
  FOLIO_PARSE_WORKER_MEMORY_MB: z.coerce.number().int().min(256).max(65_536).default(2048),
  /** A parse process whose RSS is above this many MB after a job is replaced, so its memory returns to the system. */
  FOLIO_PARSE_WORKER_RECYCLE_MB: z.coerce.number().int().min(128).max(65_536).default(768),

  /** The base URL clients reach this server at (upload URLs, OAuth metadata). Default: the listening address. */
  FOLIO_PUBLIC_URL: optionalUrl,
  /** The tool server's base URL (`{mcp_url}` in the spec). Default: FOLIO_PUBLIC_URL. */
  FOLIO_MCP_URL: optionalUrl,
  /** Where the RFC 8414 metadata lives (`{auth_metadata_url}`). Default: the public URL's well-known path. */
  FOLIO_AUTH_METADATA_URL: optionalUrl,
  /** A page explaining how to connect to the tool server: `resource_documentation` in the RFC 9728 metadata. */
  FOLIO_RESOURCE_DOCUMENTATION_URL: optionalUrl,
  /** Until when tokens bound to /v2/mcp are also accepted on /v2/mcp-oauth (ISO 8601). Absent: window closed. */
  FOLIO_OAUTH_MIGRATION_END: z.iso.datetime({ offset: true }).optional(),
  /** Compatibility: an authorization request without `resource` is taken as {mcp_url}/v2/mcp-oauth. Off: refused. */
  FOLIO_OAUTH_DEFAULT_RESOURCE: z.enum(['on', 'off']).default('off'),
  /** RFC 7591 registrations (POST /oauth/register) allowed per client IP per minute. */
  FOLIO_OAUTH_REGISTRATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Express `trust proxy`: how the client IP is found behind a reverse proxy. Off by default. */
  FOLIO_TRUST_PROXY: z.string().min(1).optional(),

  /** Keyless access to /v2/mcp (search, scrape, parse only). */
  FOLIO_KEYLESS: z.enum(['on', 'off']).default('on'),
  FOLIO_KEYLESS_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  FOLIO_KEYLESS_DAILY_QUOTA: z.coerce.number().int().min(1).max(10_000_000).default(100),
  /** Browser origins allowed to call the tool server, comma-separated (a present, foreign Origin gets 403). */
  FOLIO_ALLOWED_ORIGINS: list,
  /** Host header values accepted (DNS-rebinding protection); default for loopback binds: localhost names. */
  FOLIO_ALLOWED_HOSTS: list,

  /** stdio mode: directories `parse` may read, separated by the platform's path delimiter. Default: the working directory. */
  FOLIO_ALLOWED_DIRS: z.string().optional(),
  /** stdio mode: send files to this folio server's /v2/parse instead of parsing in-process. */
  FOLIO_API_URL: optionalUrl,
  FOLIO_API_KEY: z.string().min(1).optional(),

  /** Lifetime of an upload URL and its uploadRef, in seconds. */
  FOLIO_UPLOAD_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  /** Upload refs a team (or keyless client) may hold at once before new ones get 429. */
  FOLIO_MAX_UPLOAD_REFS: z.coerce.number().int().min(1).max(10_000).default(20),

  /** Connections (docs/connections.md): seconds a client has to send a request head. */
  FOLIO_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /** Seconds a request body (or an idle connection) may send nothing before it is closed. */
  FOLIO_BODY_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  /** Seconds a client has to send a whole request, body included; 0: no total bound. */
  FOLIO_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(1_800),
  /** Concurrent connections of the whole server (a small reserve above it answers /health and 429). */
  FOLIO_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1_024),
  /** Upload bodies (POST /v2/parse, PUT /v2/uploads/…) in flight per client address (IPv6: per /64). */
  FOLIO_MAX_UPLOADS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(8),
  /** Upload bodies in flight per API key. */
  FOLIO_MAX_UPLOADS_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(16),

  /** Outbound fetch allowlist that bypasses the SSRF rules: hosts, host:port pairs or CIDRs, comma-separated. */
  FOLIO_FETCH_ALLOW: list,
  /** Outbound proxy for `proxy: basic|auto` (http://user:pass@host:port). */
  FOLIO_FETCH_PROXY: optionalUrl,
  /** The browser engine (docs/browser.md): rendered scrape, `screenshot`, `actions`. `off`: those answer NOT_CONFIGURED. */
  FOLIO_BROWSER: z.enum(['on', 'off']).default('on'),
  /** The Chromium binary the browser engine launches. */
  FOLIO_BROWSER_EXECUTABLE: z.string().min(1).default('/usr/bin/chromium'),
  /** Chromium's own sandbox: `auto` uses it unless folio runs as root (where Chromium cannot have it). */
  FOLIO_BROWSER_SANDBOX: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Browser pages (one context each) open at once per process; further renders wait. */
  FOLIO_BROWSER_MAX_PAGES: z.coerce.number().int().min(1).max(64).default(4),
  /** Browser sessions (`/v2/browser` and interact pages, each its own Chromium) one team may have open at once. */
  FOLIO_BROWSER_SESSIONS_PER_TEAM: z.coerce.number().int().min(0).max(64).default(2),
  /** Browser sessions open at once in this process, all teams together. */
  FOLIO_BROWSER_MAX_SESSIONS: z.coerce.number().int().min(0).max(256).default(8),
  /** The longest `ttl` a browser session may ask for (seconds); `ttl` defaults to 600. */
  FOLIO_BROWSER_SESSION_MAX_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(3600),
  /** How long after a scrape its page can be interacted with, and how long an idle interact page stays open (seconds). */
  FOLIO_INTERACT_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  /** Rendered scrapes' pages held open for interact in this process (each keeps a browser page slot); 0 = none held (interact reopens the page). */
  FOLIO_INTERACT_MAX_PAGES: z.coerce.number().int().min(0).max(256).default(2),
  /** Lifetime of a screenshot or PDF URL, in seconds (the spec: 24 hours). */
  FOLIO_SCREENSHOT_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(86_400),
  /** Search backends: SearXNG's JSON API first, Brave Search second. */
  SEARXNG_ENDPOINT: optionalUrl,
  BRAVE_API_KEY: z.string().min(1).optional(),
  /** Brave Search API base (…/res/v1); overridable for a proxy or a test double. */
  BRAVE_SEARCH_URL: z.url({ protocol: /^https?$/ }).default('https://api.search.brave.com/res/v1'),
  /** Crawl pages fetched at once per server (a job's maxConcurrency is capped by it). */
  FOLIO_CRAWL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  /**
   * With REDIS_URL: how long a crawl page ticket's Redis lock lasts (renewed every half of it
   * while the page runs), and how often stalled tickets are looked for: a process that dies
   * mid-page hands its pages to another after one to two of these (docs/crawl.md).
   */
  FOLIO_CRAWL_LOCK_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  /** PDF OCR languages: tesseract names joined by '+' (eng, eng+deu), each installed as tesseract-ocr-<lang> (docs/pdf-ocr.md). */
  FOLIO_OCR_LANGUAGES: z
    .string()
    .regex(/^[a-z_]+(\+[a-z_]+)*$/, "tesseract language names joined by '+', e.g. eng or eng+deu")
    .default('eng'),
  /** Limits at the source (docs/parsing.md): what one zip package (DOCX, ODT, XLSX) may inflate to, in MB, all parts together; each part also stops at its declared size. */
  FOLIO_MAX_UNZIPPED_MB: z.coerce.number().int().min(1).max(65_536).default(512),
  /** Pixels (width × height) of one PDF image, in millions; a bigger image refuses the file. */
  FOLIO_MAX_IMAGE_MEGAPIXELS: z.coerce.number().int().min(1).max(100_000).default(100),
  /** MB one PDF stream (a page's content, an image, a font) may inflate to. */
  FOLIO_MAX_PDF_STREAM_MB: z.coerce.number().int().min(1).max(65_536).default(256),
  /** Drawing operators on one PDF page. */
  FOLIO_MAX_PDF_OPERATORS: z.coerce.number().int().min(1000).max(1_000_000_000).default(2_000_000),
  /** Path segments (moves, lines, curves) on one PDF page. */
  FOLIO_MAX_PDF_PATH_SEGMENTS: z.coerce.number().int().min(1000).max(1_000_000_000).default(2_000_000),
  /** Elements of one HTML page. */
  FOLIO_MAX_HTML_NODES: z.coerce.number().int().min(1000).max(1_000_000_000).default(1_000_000),
  /** Nesting depth of one HTML page's elements. */
  FOLIO_MAX_HTML_DEPTH: z.coerce.number().int().min(64).max(1_000_000).default(5_000),
  /** Crawl jobs on BullMQ queues in this Redis (redis://[user:pass@]host:port/db), shared by every folio process using it. Absent: in-process. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** With REDIS_URL: a team place (maxConcurrent) not renewed for this long is free again (a killed instance's places come back). */
  FOLIO_LIMITS_LEASE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Prometheus `/metrics` (docs/operations.md): `on` serves it to holders of FOLIO_METRICS_TOKEN only. */
  FOLIO_METRICS: z.enum(['on', 'off']).default('off'),
  /** The bearer token a scraper sends to `/metrics` (`Authorization: Bearer …`); required with FOLIO_METRICS=on. */
  FOLIO_METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Seconds in-flight requests have to finish after SIGTERM/SIGINT before their connections are closed. */
  FOLIO_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
  /** Every store (teams, keys, OAuth, plans, credits, crawl jobs, upload refs…) in this PostgreSQL (postgres://user:pass@host:port/db), shared by every folio instance using it. Absent: SQLite in DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'a postgres:// or postgresql:// URL' }).optional(),
  /** Where uploaded files and browser captures are kept (docs/uploads.md): unset = DATA_DIR; `s3://bucket[/prefix]`; `postgres` (the DATABASE_URL database). */
  FOLIO_BLOB_URL: z
    .string()
    .regex(/^(postgres|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?#]*)?)$/, 'unset, `postgres`, or `s3://bucket` / `s3://bucket/prefix` (a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens)')
    .optional(),
  /** The S3 API's base URL (MinIO, Ceph, any S3-compatible store); default: AWS, https://s3.<region>.amazonaws.com. */
  FOLIO_BLOB_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The bucket's region: part of every signature. */
  FOLIO_BLOB_S3_REGION: z.string().regex(/^[a-z0-9-]{1,40}$/, 'a region name such as us-east-1').default('us-east-1'),
  /** Path-style addressing (`endpoint/bucket/key`): default on with FOLIO_BLOB_S3_ENDPOINT, off on AWS (`bucket.s3.<region>.amazonaws.com/key`). */
  FOLIO_BLOB_S3_PATH_STYLE: z.enum(['on', 'off']).optional(),
  /** S3 credentials of folio's own; when unset, the standard AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN. Never logged. */
  FOLIO_BLOB_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  FOLIO_BLOB_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  FOLIO_BLOB_S3_SESSION_TOKEN: z.string().min(1).optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  /** Connections of this instance's PostgreSQL pool. */
  FOLIO_DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** HMAC-SHA256 key signing webhook deliveries (X-Firecrawl-Signature). Absent: generated once into DATA_DIR/webhook-secret. */
  FOLIO_WEBHOOK_SECRET: z.string().min(16, 'at least 16 characters').optional(),

  /** Plans of teams that have none of their own (docs/billing.md): credits, a number or `unlimited`. */
  FOLIO_DEFAULT_CREDITS: limitOrUnlimited.prefault('unlimited'),
  /** Requests per minute per team, every door together; `unlimited`: no rate limit. */
  FOLIO_DEFAULT_RATE_PER_MINUTE: limitOrUnlimited.prefault('unlimited'),
  /** Jobs per team running at once; the rest wait in the team's queue. Default: FOLIO_MAX_CONCURRENT_PARSES. */
  FOLIO_DEFAULT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100_000).optional(),
  /** Whether teams may ask for `zeroDataRetention` by default. */
  FOLIO_DEFAULT_ZDR: z.enum(['on', 'off']).default('off'),
  /** Default SIEM sink of teams: a file path, an https URL or syslog://host:port; `off`: none. */
  FOLIO_DEFAULT_SIEM: z.string().min(1).default('off'),
  /** SIEM audit events waiting for delivery, per sink, at most (docs/audit.md); further ones are dropped and counted. */
  FOLIO_AUDIT_BUFFER: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  /** Allows `http://` SIEM webhook sinks on loopback addresses (tests, a local collector); otherwise only https. */
  FOLIO_AUDIT_ALLOW_HTTP_LOOPBACK: z.enum(['on', 'off']).default('off'),

  /** LLM (docs/llm.md): an OpenAI-compatible Chat Completions base URL (…/v1). Firecrawl's name. */
  OPENAI_BASE_URL: optionalUrl,
  /** Its API key (sent as `Authorization: Bearer`); never logged. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** The model both providers are asked for. Firecrawl's name. */
  MODEL_NAME: z.string().min(1).max(256).optional(),
  /** Ollama's native API (http://host:11434), used when OPENAI_BASE_URL is not set. */
  OLLAMA_BASE_URL: optionalUrl,
  /** How structured output is asked for; `auto` probes the server once per process. */
  LLM_STRUCTURED_OUTPUT: z.enum(['auto', 'json_schema', 'json_object', 'tool']).default('auto'),
  /** LLM calls in flight at once per process. */
  LLM_MAX_CONCURRENT: z.coerce.number().int().min(1).max(256).default(4),
  /** The model's context window in tokens: documents past it are chunked. */
  LLM_CONTEXT_TOKENS: z.coerce.number().int().min(1024).max(10_000_000).default(8192),
  /** Retries of one LLM call on 429, 5xx and connection errors (inside the request's timeout). */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** Whether the provider may see the text of `zeroDataRetention` requests; `false` refuses them. */
  LLM_ZDR: z.enum(['true', 'false']).default('true'),

  /** Agent and extract jobs (docs/agent.md): tool calls (LLM turns) one agent job may take at most. */
  FOLIO_AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(500).default(20),
  /** Wall-clock limit of one agent or extract job, in milliseconds. */
  FOLIO_AGENT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
  /** LLM tokens (prompt + completion) one job may spend at most. */
  FOLIO_AGENT_MAX_TOKENS: z.coerce.number().int().min(1000).max(100_000_000).default(500_000),
  /** Credits of a job when the request gives no `maxCredits` (and the most a request may ask for is 100×). */
  FOLIO_AGENT_MAX_CREDITS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Characters of one tool result (page text, search results) the model is shown at most. */
  FOLIO_AGENT_RESULT_CHARS: z.coerce.number().int().min(500).max(1_000_000).default(12_000),
  /** With DATABASE_URL: how long a running job's row may go untouched before another instance fails it as a dead process's. */
  FOLIO_AGENT_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),

  /** Prices in credits (docs/billing.md, Firecrawl's table): a scraped page or a parsed document that is not a PDF. */
  FOLIO_PRICE_PAGE: z.coerce.number().int().min(0).max(1_000_000).default(1),
  /** Per PDF page processed (a PDF costs this × its pages instead of FOLIO_PRICE_PAGE). */
  FOLIO_PRICE_PDF_PAGE: z.coerce.number().int().min(0).max(1_000_000).default(1),
  /** Added per billed page when `formats` asks for `json`. */
  FOLIO_PRICE_JSON: z.coerce.number().int().min(0).max(1_000_000).default(4),
  /** Added per billed page when `redactPII` is on. */
  FOLIO_PRICE_REDACT_PII: z.coerce.number().int().min(0).max(1_000_000).default(4),
  /** Added per billed page under `zeroDataRetention`. */
  FOLIO_PRICE_ZDR: z.coerce.number().int().min(0).max(1_000_000).default(1),
  /** One map call. */
  FOLIO_PRICE_MAP: z.coerce.number().int().min(0).max(1_000_000).default(1),
  /** Search, per 10 results (rounded up; at least one block). */
  FOLIO_PRICE_SEARCH: z.coerce.number().int().min(0).max(1_000_000).default(2),
  /** Per started minute of a browser session's life or an interact call's run (Firecrawl: 2 credits / browser minute). */
  FOLIO_PRICE_BROWSER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(2),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute path; holds the SQLite file and upload spool. */
  readonly dataDir: string;
  readonly logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  readonly maxConcurrentParses: number;
  readonly maxQueuedParses: number;
  /** Jobs one team may have waiting in the fair queue before 429 (src/limits/teams). */
  readonly maxQueuedPerTeam: number;
  readonly parseWorkerMemoryMb: number;
  readonly parseWorkerRecycleMb: number;
  /** Without a trailing slash; undefined → the listening URL (known once the server listens). */
  readonly publicUrl: string | undefined;
  readonly mcpUrl: string | undefined;
  readonly authMetadataUrl: string | undefined;
  readonly oauthMigrationEnd: Date | undefined;
  readonly oauthDefaultResource: boolean;
  readonly oauthRegistrationsPerMinute: number;
  readonly resourceDocumentationUrl: string | undefined;
  /** Express `trust proxy` value: a boolean, a hop count or a list of addresses. */
  readonly trustProxy: boolean | number | string;
  readonly keyless: {
    readonly enabled: boolean;
    readonly ratePerMinute: number;
    readonly dailyQuota: number;
  };
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[];
  /** Absolute paths. */
  readonly allowedDirs: readonly string[];
  readonly apiUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly uploadTtlSeconds: number;
  readonly maxUploadRefs: number;
  /** How long clients may take to send, and how many connections and uploads they may hold. */
  readonly connections: {
    readonly headersTimeoutSeconds: number;
    readonly bodyIdleTimeoutSeconds: number;
    readonly requestTimeoutSeconds: number;
    readonly maxConnections: number;
    readonly maxUploadsPerClient: number;
    readonly maxUploadsPerKey: number;
  };
  readonly fetchAllow: readonly string[];
  readonly fetchProxy: string | undefined;
  /** The browser engine (src/browser). */
  readonly browser: {
    readonly enabled: boolean;
    readonly executablePath: string;
    /** Chromium's sandbox; `auto` resolved by the engine (off only for root). */
    readonly sandbox: 'auto' | 'on' | 'off';
    readonly maxPages: number;
    readonly screenshotTtlSeconds: number;
    readonly sessionsPerTeam: number;
    readonly maxSessions: number;
    readonly sessionMaxTtlSeconds: number;
    readonly interactTtlSeconds: number;
    readonly interactMaxPages: number;
  };
  readonly searxngEndpoint: string | undefined;
  readonly braveApiKey: string | undefined;
  /** Without a trailing slash. */
  readonly braveSearchUrl: string;
  readonly crawlConcurrency: number;
  /** FOLIO_CRAWL_LOCK_SECONDS, in ms: the crawl tickets' BullMQ lock and stalled-check interval. */
  readonly crawlLockMs: number;
  /** Budgets of agent and extract jobs (docs/agent.md). */
  readonly agent: Readonly<{ maxSteps: number; timeoutMs: number; maxTokens: number; defaultCredits: number; resultChars: number }>;
  /** FOLIO_AGENT_LEASE_SECONDS, in ms: a running agent job's lease on a shared store. */
  readonly agentLeaseMs: number;
  /** tesseract's `-l` for PDF OCR. */
  readonly ocrLanguages: string;
  /** Limits at the source, handed to every parse (the shape of src/parse/limits.ts's SourceLimits). */
  readonly sourceLimits: {
    readonly maxUnzippedBytes: number;
    readonly maxImagePixels: number;
    readonly maxPdfStreamBytes: number;
    readonly maxPdfOperatorsPerPage: number;
    readonly maxPdfPathSegments: number;
    readonly maxHtmlNodes: number;
    readonly maxHtmlDepth: number;
  };
  /** Crawl jobs run on BullMQ over this Redis when set (docs/crawl.md); may hold a password. */
  readonly redisUrl: string | undefined;
  /** With REDIS_URL: ms after which a team place whose instance stopped renewing it is free again (docs/scale-out.md). */
  readonly limitsLeaseTtlMs: number;
  /** Operations (docs/operations.md): `/metrics` (undefined: not served) and the shutdown grace. */
  readonly operations: {
    /** Holds the bearer token of `/metrics`; never logged. */
    readonly metrics: { readonly token: string } | undefined;
    readonly shutdownGraceSeconds: number;
  };
  /** Where uploaded files and browser captures are kept (src/blobs, docs/uploads.md); S3 credentials never logged. */
  readonly blob: BlobSettings;
  /** The PostgreSQL store when set (docs/scale-out.md), else SQLite in dataDir; may hold a password, never logged. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  /** Signs webhook deliveries (docs/webhooks.md); undefined: the one generated in DATA_DIR. */
  readonly webhookSecret: string | undefined;
  /** The plan of a team with none of its own (src/accounts/plan.ts). */
  readonly defaultPlan: Readonly<TeamPlan>;
  /** Credits per operation (src/accounts/prices.ts, docs/billing.md). */
  readonly prices: Readonly<Prices>;
  /** SIEM audit delivery (docs/audit.md). */
  readonly audit: { readonly bufferEvents: number; readonly allowHttpLoopback: boolean };
  /** The LLM provider (docs/llm.md); undefined: none configured, the offline paths answer. Holds the API key. */
  readonly llm: Readonly<LlmSettings> | undefined;
}

/** Firecrawl's default model when only OPENAI_API_KEY is set (OpenAI's own API). */
const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

/**
 * OPENAI_BASE_URL first, then OLLAMA_BASE_URL; a key alone means OpenAI's API with Firecrawl's
 * default model. Any other provider without MODEL_NAME is a start-up error.
 */
function llmSettings(e: z.infer<typeof EnvSchema>): LlmSettings | undefined {
  const baseUrl = e.OPENAI_BASE_URL ?? e.OLLAMA_BASE_URL;
  if (baseUrl === undefined) {
    if (e.OPENAI_API_KEY !== undefined) {
      return llmSettings({ ...e, OPENAI_BASE_URL: 'https://api.openai.com/v1', MODEL_NAME: e.MODEL_NAME ?? OPENAI_DEFAULT_MODEL });
    }
    return undefined;
  }
  const provider = e.OPENAI_BASE_URL !== undefined ? 'openai' : 'ollama';
  if (e.MODEL_NAME === undefined) {
    throw new Error(`Invalid environment configuration:\n  MODEL_NAME: required when ${provider === 'openai' ? 'OPENAI_BASE_URL' : 'OLLAMA_BASE_URL'} is set (the model to ask, e.g. gpt-4o-mini or llama3.1)`);
  }
  return Object.freeze({
    provider,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(provider === 'openai' && e.OPENAI_API_KEY !== undefined ? { apiKey: e.OPENAI_API_KEY } : {}),
    model: e.MODEL_NAME,
    structuredOutput: e.LLM_STRUCTURED_OUTPUT,
    maxConcurrent: e.LLM_MAX_CONCURRENT,
    contextTokens: e.LLM_CONTEXT_TOKENS,
    maxRetries: e.LLM_MAX_RETRIES,
    zdr: e.LLM_ZDR === 'true',
  });
}

function trimSlash(url: string | undefined): string | undefined {
  return url === undefined ? undefined : url.replace(/\/+$/, '');
}

function trustProxyValue(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** The blob store (src/blobs/index.ts): local disk, an S3 bucket or the PostgreSQL database. */
export type BlobSettings =
  | { readonly kind: 'local' }
  | { readonly kind: 'postgres'; readonly databaseUrl: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      /** '' or ending in '/'. */
      readonly prefix: string;
      readonly endpoint: string;
      readonly region: string;
      readonly pathStyle: boolean;
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string };
    };

function blobSettings(e: z.infer<typeof EnvSchema>): BlobSettings {
  const url = e.FOLIO_BLOB_URL;
  if (url === undefined) return { kind: 'local' };
  if (url === 'postgres') {
    if (e.DATABASE_URL === undefined) throw new Error('Invalid environment configuration:\n  FOLIO_BLOB_URL: `postgres` keeps the blobs in the DATABASE_URL database: set DATABASE_URL too (or leave FOLIO_BLOB_URL unset for DATA_DIR)');
    return { kind: 'postgres', databaseUrl: e.DATABASE_URL };
  }
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  const bucket = m?.[1] ?? '';
  const rawPrefix = (m?.[2] ?? '').replace(/^\/+|\/+$/g, '');
  // folio's own three, or else the standard AWS three: never a mix of both.
  const own = e.FOLIO_BLOB_S3_ACCESS_KEY_ID !== undefined;
  if (!own && (e.FOLIO_BLOB_S3_SECRET_ACCESS_KEY !== undefined || e.FOLIO_BLOB_S3_SESSION_TOKEN !== undefined)) {
    throw new Error('Invalid environment configuration:\n  FOLIO_BLOB_S3_ACCESS_KEY_ID: required with FOLIO_BLOB_S3_SECRET_ACCESS_KEY / FOLIO_BLOB_S3_SESSION_TOKEN');
  }
  const accessKeyId = own ? e.FOLIO_BLOB_S3_ACCESS_KEY_ID : e.AWS_ACCESS_KEY_ID;
  const secretAccessKey = own ? e.FOLIO_BLOB_S3_SECRET_ACCESS_KEY : e.AWS_SECRET_ACCESS_KEY;
  const sessionToken = own ? e.FOLIO_BLOB_S3_SESSION_TOKEN : e.AWS_SESSION_TOKEN;
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new Error('Invalid environment configuration:\n  FOLIO_BLOB_URL: an s3:// blob store needs credentials: FOLIO_BLOB_S3_ACCESS_KEY_ID and FOLIO_BLOB_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  }
  if (e.FOLIO_BLOB_S3_ENDPOINT !== undefined) {
    const endpoint = new URL(e.FOLIO_BLOB_S3_ENDPOINT);
    if (endpoint.username !== '' || endpoint.password !== '' || endpoint.search !== '') {
      throw new Error('Invalid environment configuration:\n  FOLIO_BLOB_S3_ENDPOINT: the base URL only (scheme, host, port, path): credentials go in FOLIO_BLOB_S3_ACCESS_KEY_ID / FOLIO_BLOB_S3_SECRET_ACCESS_KEY');
    }
  }
  return {
    kind: 's3',
    bucket,
    prefix: rawPrefix === '' ? '' : `${rawPrefix}/`,
    endpoint: (e.FOLIO_BLOB_S3_ENDPOINT ?? `https://s3.${e.FOLIO_BLOB_S3_REGION}.amazonaws.com`).replace(/\/+$/, ''),
    region: e.FOLIO_BLOB_S3_REGION,
    pathStyle: e.FOLIO_BLOB_S3_PATH_STYLE === undefined ? e.FOLIO_BLOB_S3_ENDPOINT !== undefined : e.FOLIO_BLOB_S3_PATH_STYLE === 'on',
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) },
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.FOLIO_METRICS === 'on' && e.FOLIO_METRICS_TOKEN === undefined) {
    throw new Error('Invalid environment configuration:\n  FOLIO_METRICS_TOKEN: required when FOLIO_METRICS=on (the bearer token Prometheus sends; at least 16 characters, e.g. `openssl rand -hex 24`)');
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    maxConcurrentParses: e.FOLIO_MAX_CONCURRENT_PARSES,
    maxQueuedParses: e.FOLIO_MAX_QUEUED_PARSES,
    maxQueuedPerTeam: e.FOLIO_MAX_QUEUED_PER_TEAM,
    parseWorkerMemoryMb: e.FOLIO_PARSE_WORKER_MEMORY_MB,
    parseWorkerRecycleMb: e.FOLIO_PARSE_WORKER_RECYCLE_MB,
    publicUrl: trimSlash(e.FOLIO_PUBLIC_URL),
    mcpUrl: trimSlash(e.FOLIO_MCP_URL ?? e.FOLIO_PUBLIC_URL),
    authMetadataUrl: e.FOLIO_AUTH_METADATA_URL,
    oauthMigrationEnd: e.FOLIO_OAUTH_MIGRATION_END === undefined ? undefined : new Date(e.FOLIO_OAUTH_MIGRATION_END),
    oauthDefaultResource: e.FOLIO_OAUTH_DEFAULT_RESOURCE === 'on',
    resourceDocumentationUrl: e.FOLIO_RESOURCE_DOCUMENTATION_URL,
    oauthRegistrationsPerMinute: e.FOLIO_OAUTH_REGISTRATIONS_PER_MINUTE,
    trustProxy: trustProxyValue(e.FOLIO_TRUST_PROXY),
    keyless: Object.freeze({
      enabled: e.FOLIO_KEYLESS === 'on',
      ratePerMinute: e.FOLIO_KEYLESS_RATE_PER_MINUTE,
      dailyQuota: e.FOLIO_KEYLESS_DAILY_QUOTA,
    }),
    allowedOrigins: Object.freeze(e.FOLIO_ALLOWED_ORIGINS.map((o) => o.replace(/\/+$/, ''))),
    allowedHosts: Object.freeze(e.FOLIO_ALLOWED_HOSTS.map((h) => h.toLowerCase())),
    allowedDirs: Object.freeze(
      (e.FOLIO_ALLOWED_DIRS ?? '')
        .split(path.delimiter)
        .filter((d) => d.length > 0)
        .map((d) => path.resolve(d)),
    ),
    apiUrl: trimSlash(e.FOLIO_API_URL),
    apiKey: e.FOLIO_API_KEY,
    uploadTtlSeconds: e.FOLIO_UPLOAD_TTL_SECONDS,
    maxUploadRefs: e.FOLIO_MAX_UPLOAD_REFS,
    connections: Object.freeze({
      headersTimeoutSeconds: e.FOLIO_HEADERS_TIMEOUT_SECONDS,
      bodyIdleTimeoutSeconds: e.FOLIO_BODY_IDLE_TIMEOUT_SECONDS,
      requestTimeoutSeconds: e.FOLIO_REQUEST_TIMEOUT_SECONDS,
      maxConnections: e.FOLIO_MAX_CONNECTIONS,
      maxUploadsPerClient: e.FOLIO_MAX_UPLOADS_PER_CLIENT,
      maxUploadsPerKey: e.FOLIO_MAX_UPLOADS_PER_KEY,
    }),
    fetchAllow: Object.freeze(e.FOLIO_FETCH_ALLOW),
    fetchProxy: e.FOLIO_FETCH_PROXY,
    browser: Object.freeze({
      enabled: e.FOLIO_BROWSER === 'on',
      executablePath: e.FOLIO_BROWSER_EXECUTABLE,
      sandbox: e.FOLIO_BROWSER_SANDBOX,
      maxPages: e.FOLIO_BROWSER_MAX_PAGES,
      screenshotTtlSeconds: e.FOLIO_SCREENSHOT_TTL_SECONDS,
      sessionsPerTeam: e.FOLIO_BROWSER_SESSIONS_PER_TEAM,
      maxSessions: e.FOLIO_BROWSER_MAX_SESSIONS,
      sessionMaxTtlSeconds: e.FOLIO_BROWSER_SESSION_MAX_TTL_SECONDS,
      interactTtlSeconds: e.FOLIO_INTERACT_TTL_SECONDS,
      interactMaxPages: e.FOLIO_INTERACT_MAX_PAGES,
    }),
    searxngEndpoint: trimSlash(e.SEARXNG_ENDPOINT),
    braveApiKey: e.BRAVE_API_KEY,
    braveSearchUrl: e.BRAVE_SEARCH_URL.replace(/\/+$/, ''),
    crawlConcurrency: e.FOLIO_CRAWL_CONCURRENCY,
    crawlLockMs: e.FOLIO_CRAWL_LOCK_SECONDS * 1000,
    agent: Object.freeze({
      maxSteps: e.FOLIO_AGENT_MAX_STEPS,
      timeoutMs: e.FOLIO_AGENT_TIMEOUT_MS,
      maxTokens: e.FOLIO_AGENT_MAX_TOKENS,
      defaultCredits: e.FOLIO_AGENT_MAX_CREDITS,
      resultChars: e.FOLIO_AGENT_RESULT_CHARS,
    }),
    agentLeaseMs: e.FOLIO_AGENT_LEASE_SECONDS * 1000,
    ocrLanguages: e.FOLIO_OCR_LANGUAGES,
    sourceLimits: {
      maxUnzippedBytes: e.FOLIO_MAX_UNZIPPED_MB * 1024 * 1024,
      maxImagePixels: e.FOLIO_MAX_IMAGE_MEGAPIXELS * 1_000_000,
      maxPdfStreamBytes: e.FOLIO_MAX_PDF_STREAM_MB * 1024 * 1024,
      maxPdfOperatorsPerPage: e.FOLIO_MAX_PDF_OPERATORS,
      maxPdfPathSegments: e.FOLIO_MAX_PDF_PATH_SEGMENTS,
      maxHtmlNodes: e.FOLIO_MAX_HTML_NODES,
      maxHtmlDepth: e.FOLIO_MAX_HTML_DEPTH,
    },
    redisUrl: e.REDIS_URL,
    limitsLeaseTtlMs: e.FOLIO_LIMITS_LEASE_TTL_SECONDS * 1000,
    databaseUrl: e.DATABASE_URL,
    blob: blobSettings(e),
    databasePoolSize: e.FOLIO_DATABASE_POOL_SIZE,
    webhookSecret: e.FOLIO_WEBHOOK_SECRET,
    operations: Object.freeze({
      metrics: e.FOLIO_METRICS === 'on' && e.FOLIO_METRICS_TOKEN !== undefined ? Object.freeze({ token: e.FOLIO_METRICS_TOKEN }) : undefined,
      shutdownGraceSeconds: e.FOLIO_SHUTDOWN_GRACE_SECONDS,
    }),
    defaultPlan: Object.freeze({
      credits: e.FOLIO_DEFAULT_CREDITS,
      ratePerMinute: e.FOLIO_DEFAULT_RATE_PER_MINUTE,
      maxConcurrent: e.FOLIO_DEFAULT_MAX_CONCURRENT ?? e.FOLIO_MAX_CONCURRENT_PARSES,
      zdr: e.FOLIO_DEFAULT_ZDR === 'on',
      siem: e.FOLIO_DEFAULT_SIEM === 'off' ? null : e.FOLIO_DEFAULT_SIEM,
    }),
    audit: { bufferEvents: e.FOLIO_AUDIT_BUFFER, allowHttpLoopback: e.FOLIO_AUDIT_ALLOW_HTTP_LOOPBACK === 'on' },
    llm: llmSettings(e),
    prices: Object.freeze({
      page: e.FOLIO_PRICE_PAGE,
      pdfPage: e.FOLIO_PRICE_PDF_PAGE,
      json: e.FOLIO_PRICE_JSON,
      redactPii: e.FOLIO_PRICE_REDACT_PII,
      zdr: e.FOLIO_PRICE_ZDR,
      map: e.FOLIO_PRICE_MAP,
      searchPer10: e.FOLIO_PRICE_SEARCH,
      browserMinute: e.FOLIO_PRICE_BROWSER_MINUTE,
    }),
  });
}
