/**
 * The SIEM audit event (docs/audit.md): one JSON object per request or tool call, describing who
 * did what to which file (by the SHA-256 of its name, never the name), with which options, and
 * how it ended. Never document content: no text, no output, no URL query, no file name.
 */
import { createHash } from 'node:crypto';

export type AuditDoor = 'http' | 'mcp';

export interface AuditActor {
  /** `api-key`, `oauth`, `keyless` or `local`. */
  kind: string;
  /** The API key's id (never the key). */
  keyId?: string;
  /** The OAuth client the token was issued to. */
  oauthClientId?: string;
  /** The signed-in user behind an OAuth grant. */
  userId?: string;
}

export interface AuditFile {
  /** SHA-256 (hex) of the file name as the client sent it (UTF-8). */
  nameSha256: string;
  size: number | null;
  contentType: string | null;
}

export interface AuditEvent {
  /** Schema version of this object. */
  version: 1;
  /** When the request ended (ISO 8601, UTC). */
  time: string;
  requestId: string;
  teamId: string;
  teamName: string | null;
  actor: AuditActor;
  door: AuditDoor;
  /** `parse`, `scrape`, `crawl`, `crawl.status`, `batch.scrape`, … or the MCP tool name. */
  operation: string;
  file: AuditFile | null;
  formats: string[];
  /** The options that change processing (docs/audit.md lists them), as given or defaulted. */
  options: Record<string, unknown>;
  /** HTTP status (MCP: the status the error code has over HTTP, 200 when it succeeded, 499 when cancelled). */
  status: number;
  errorCode: string | null;
  durationMs: number;
  pages: number | null;
  credits: number | null;
  zeroDataRetention: boolean;
  /** `auditMetadata.username`, when the request gave it. */
  username: string | null;
}

export function fileNameHash(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest('hex');
}

/** Options that change what is produced, by name; values copied only when they are small data, never text of the document. */
const PROCESSING_OPTIONS = [
  'onlyMainContent',
  'includeTags',
  'excludeTags',
  'blockAds',
  'removeBase64Images',
  'parsers',
  'redactPII',
  'timeout',
  'proxy',
  'skipTlsVerification',
  'maxAge',
  'storeInCache',
  'waitFor',
  'mobile',
  'limit',
  'maxDiscoveryDepth',
  'sitemap',
  'allowExternalLinks',
  'allowSubdomains',
  'crawlEntireDomain',
  'maxConcurrency',
  'maxChars',
  'offset',
] as const;

/** Arrays and strings in options are cut to this many items / characters. */
const MAX_ITEMS = 20;
const MAX_CHARS = 200;

function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_CHARS ? `${value.slice(0, MAX_CHARS)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => bounded(v, depth + 1));
  if (typeof value === 'object' && depth < 3) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).slice(0, MAX_ITEMS).map(([k, v]) => [k, bounded(v, depth + 1)]));
  }
  return undefined;
}

/** The processing options of a request body or tool input (a JSON object), bounded. */
export function processingOptions(input: Record<string, unknown>, nested?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const source of [nested, input]) {
    if (!source) continue;
    for (const key of PROCESSING_OPTIONS) {
      if (source[key] !== undefined && out[key] === undefined) out[key] = bounded(source[key]);
    }
  }
  return out;
}

/** Format names of a `formats` array (strings or `{type}` objects); a json format's prompt and schema are left out. */
export function formatNames(formats: unknown): string[] {
  if (!Array.isArray(formats)) return [];
  return formats
    .map((f) => (typeof f === 'string' ? f : typeof f === 'object' && f !== null ? (f as { type?: unknown }).type : undefined))
    .filter((t): t is string => typeof t === 'string')
    .slice(0, MAX_ITEMS)
    .map((t) => t.slice(0, 64));
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** What an event takes from a request body or a tool's input: formats, options, ZDR, username. */
export function describeInput(input: unknown): Pick<AuditEvent, 'formats' | 'options' | 'zeroDataRetention' | 'username'> {
  const body = objectOr(input) ?? {};
  const scrapeOptions = objectOr(body.scrapeOptions);
  const auditMetadata = objectOr(body.auditMetadata) ?? objectOr(scrapeOptions?.auditMetadata);
  const username = auditMetadata?.username;
  return {
    formats: formatNames(body.formats ?? scrapeOptions?.formats),
    options: processingOptions(body, scrapeOptions),
    zeroDataRetention: body.zeroDataRetention === true || scrapeOptions?.zeroDataRetention === true,
    username: typeof username === 'string' ? username.slice(0, 1024) : null,
  };
}

/** `data.metadata.numPages` of a response body or tool result, when there is one. */
export function pagesOf(data: unknown): number | null {
  const metadata = objectOr(objectOr(data)?.metadata);
  const pages = metadata?.numPages;
  return typeof pages === 'number' && Number.isFinite(pages) ? pages : null;
}
