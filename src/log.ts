/**
 * Structured logging (pino). One JSON line per event. What never reaches a log line: API keys,
 * Authorization or Cookie headers, query strings, request bodies and file bytes. Callers log
 * explicit fields (method, path without query, status, ms, team id); `redact` is the safety net
 * for any object that carries headers anyway.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when absent. Tests pass a stream that captures them. */
  destination?: DestinationStream;
}

/** Header and field paths whose values are replaced before a line is written. */
export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.referer',
  'req.headers.referer',
  'referer',
  'apiKey',
  'key',
];

export function createLogger(options: LoggerOptions): Logger {
  const config = {
    level: options.level,
    base: { service: 'folio' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

/**
 * An error as a log line may hold it: under zeroDataRetention its message and stack are left out
 * (a library's message may quote the document), only its class name and code are kept (docs/zdr.md).
 */
export function errorForLog(err: unknown, zeroDataRetention: boolean): unknown {
  if (!zeroDataRetention) return err;
  const name = err instanceof Error ? err.name : typeof err;
  const code = typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : undefined;
  return { type: name, ...(code !== undefined ? { code } : {}), withheld: 'zeroDataRetention' };
}

/** Whether a request body or tool input asks for zeroDataRetention (at its top or in its scrapeOptions). */
export function asksZeroRetention(input: unknown): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const { zeroDataRetention, scrapeOptions } = input as { zeroDataRetention?: unknown; scrapeOptions?: unknown };
  if (zeroDataRetention === true) return true;
  return typeof scrapeOptions === 'object' && scrapeOptions !== null && (scrapeOptions as { zeroDataRetention?: unknown }).zeroDataRetention === true;
}

/** How many rounds of percent-decoding a logged path gets before what is left is masked. */
const DECODE_ROUNDS = 4;
/** A run of percent-escapes: decoded together, so that multi-byte UTF-8 comes out whole. */
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
/** The legacy key-in-path route: `/{API_KEY}/v2/mcp`, whatever the first segment holds. */
const LEGACY_MCP_PATH = /^\/[^/]+(?=\/v2\/mcp\/?$)/i;
/** Upload URLs are capabilities (`PUT /v2/uploads/{token}`): the token is masked like a key. */
const UPLOAD_TOKEN_PATH = /^(\/v2\/uploads\/)[^/]+/i;
/** A capture URL's token (src/browser/captures.ts) is its capability: masked like an upload token. */
const CAPTURE_TOKEN_PATH = /^(\/v2\/captures\/)[^/]+/i;
/** A browser session's DevTools URL (`/v2/browser/cdp/{token}`, src/http/cdp-door.ts): the token is its capability. */
const CDP_TOKEN_PATH = /^(\/v2\/browser\/cdp\/)[^/]+/i;
/** Where an API key stands in a segment; case-insensitive, as a key typed in capitals is still one. */
const KEY_PREFIX = /folio_/i;
/**
 * A `%` still left after the decoding rounds: an escape encoded deeper than any client does, or
 * one that is no escape at all (which may split a key's prefix, `foli%zzo_…`, from the masking).
 */
const STILL_ENCODED = /%/;
const MASK = '[redacted]';

function decodeOnce(text: string): string {
  return text.replace(ESCAPE_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // Not UTF-8: byte by byte, which is enough to see an ASCII key through it.
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/**
 * A URL path in every form a server may read it in: express matches routes on the raw path and
 * decodes parameters once, so a key percent-encoded in the path (`/folio%5F…`, `/%66olio_…`, or
 * encoded twice) authenticates or arrives all the same. The logged form is the path decoded
 * until it stops changing (a few rounds at most), so that the masking below sees what the route
 * saw, and deeper.
 */
function decodedPath(path: string): string {
  let current = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const next = decodeOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * The path of a request URL as logged: without its query string (query strings may carry
 * credentials), decoded, and with credentials masked by where they stand and by their shape:
 * - the first segment of the legacy route `/{API_KEY}/v2/mcp`, whatever it holds (legacy clients
 *   put the key there; a mistyped or foreign key is a secret too), in the raw and decoded forms;
 * - the capability part of upload, capture and browser-session DevTools URLs;
 * - every segment in which an API key's prefix appears, and every segment still percent-encoded
 *   after the decoding rounds (hidden deeper than any client encodes, or malformed).
 * Also used for any other URL that is logged (a Referer, say).
 */
export function pathOnly(url: string): string {
  const q = url.search(/[?#]/);
  const raw = (q === -1 ? url : url.slice(0, q)).replace(LEGACY_MCP_PATH, `/${MASK}`);
  const path = decodedPath(raw).replace(LEGACY_MCP_PATH, `/${MASK}`).replace(UPLOAD_TOKEN_PATH, `$1${MASK}`).replace(CAPTURE_TOKEN_PATH, `$1${MASK}`).replace(CDP_TOKEN_PATH, `$1${MASK}`);
  return path
    .split('/')
    .map((segment) => (KEY_PREFIX.test(segment) || STILL_ENCODED.test(segment) ? MASK : segment))
    .join('/');
}
