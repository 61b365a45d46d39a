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

const KEY_IN_PATH = /folio_[A-Za-z0-9_-]{8,}/g;
/** Upload URLs are capabilities (`PUT /v2/uploads/{token}`): the token is masked like a key. */
const UPLOAD_TOKEN_IN_PATH = /(\/v2\/uploads\/)[^/]+/g;

/**
 * The path of a request URL as logged: without its query string (query strings may carry
 * credentials), and with anything shaped like an API key masked (legacy clients put the key in
 * the path, `/{API_KEY}/v2/mcp`), and the capability part of upload URLs masked.
 */
export function pathOnly(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.replace(KEY_IN_PATH, 'folio_[redacted]').replace(UPLOAD_TOKEN_IN_PATH, '$1[redacted]');
}
