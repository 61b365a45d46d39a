/**
 * Every error folio answers with, in one place.
 *
 * The wire shape is the spec's (interface-v2 "Errors"): `{ success: false, code, error }`.
 * `code` values are stable: clients may branch on them. `BAD_REQUEST` and `UNKNOWN_ERROR` are
 * the spec's own; the others refine a 4xx so that a person (or an agent) knows what to fix.
 */

export const ERROR_STATUS = {
  /** Malformed request: bad multipart, bad options, missing file part. */
  BAD_REQUEST: 400,
  /** The file's extension is not accepted, or its bytes contradict its name. */
  UNSUPPORTED_FILE_TYPE: 400,
  /** The upload is over the 50 MB limit. */
  FILE_TOO_LARGE: 400,
  /** The file is truncated or damaged beyond reading. */
  CORRUPT_FILE: 400,
  /** The file is protected by a password. */
  ENCRYPTED_FILE: 400,
  /** A format, option or file type the spec accepts but this build does not implement yet. */
  NOT_YET_SUPPORTED: 400,
  /** A scrape `actions` step failed in the browser (a selector not found, a script that threw): the message names the action's index. */
  ACTION_FAILED: 400,
  /** No credential, or an unknown one (RFC 6750 §3). */
  UNAUTHORIZED: 401,
  /** The team has no credits left. */
  PAYMENT_REQUIRED: 402,
  /** A credential that is valid but not allowed here (a foreign Origin, another team's resource). */
  FORBIDDEN: 403,
  /** `zeroDataRetention: true` from a team whose plan does not allow it (`folio teams set <team> --zdr on`). */
  ZDR_NOT_ENABLED: 403,
  /** An outbound URL refused by the SSRF rules (private, loopback, metadata address; non-http scheme). */
  URL_BLOCKED: 403,
  /** A `zeroDataRetention` request needs the LLM, and the server's LLM is marked not ZDR-safe (LLM_ZDR=false). */
  LLM_ZDR_REFUSED: 403,
  NOT_FOUND: 404,
  /** It existed and has ended: a scrape's page held for interact was closed (idle, the cap, DELETE). Scrape again. */
  GONE: 410,
  /** A request body over its limit (the tool server's 4 MB JSON-RPC bodies). */
  PAYLOAD_TOO_LARGE: 413,
  /** The parse ran past its `timeout`. */
  SCRAPE_TIMEOUT: 408,
  /** Rate or concurrency limit exceeded. */
  RATE_LIMITED: 429,
  /** Anything unexpected: the body never carries internals. */
  UNKNOWN_ERROR: 500,
  /** An upstream site or service could not be reached or answered badly (scrape, search). */
  FETCH_FAILED: 502,
  /** The operation needs configuration this server does not have (e.g. no search backend). */
  NOT_CONFIGURED: 503,
  /** This instance is stopping (SIGTERM): retry after `Retry-After`, another instance or the restarted one answers. */
  SHUTTING_DOWN: 503,
  /** The limits shared by several instances (REDIS_URL) cannot be checked: Redis does not answer; retry after `Retry-After`. */
  LIMITS_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  success: false;
  code: ErrorCode;
  error: string;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** For RATE_LIMITED: when to try again (the HTTP door sends `Retry-After`, MCP tools `retry_after_seconds`). */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): ErrorBody {
    return { success: false, code: this.code, error: this.message };
  }
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

/** The body for an error that is not a ServiceError: a fixed message, never the cause's text. */
export function unknownErrorBody(): ErrorBody {
  return {
    success: false,
    code: 'UNKNOWN_ERROR',
    error: 'An unexpected error occurred while processing the request. It has been logged; please retry or report it.',
  };
}
