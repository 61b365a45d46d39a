/**
 * A ParseRunner that sends the file to another folio server (issue 5 §6: stdio mode with
 * FOLIO_API_URL): `POST {apiUrl}/v2/parse` as multipart/form-data with a `file` part and an
 * `options` part (interface-v2 "Parse request parts"), `Authorization: Bearer {apiKey}`
 * (interface-v2 "Authentication"). The server's error body `{success:false, code, error}` comes
 * back as a ServiceError with the same code, so a tool error reads the same as in-process.
 *
 * The key goes into the Authorization header and nowhere else: not the URL, not a message (a
 * server's error text is scrubbed of it), and this module logs nothing.
 */
import { ERROR_STATUS, ServiceError, type ErrorCode } from '../errors.ts';
import type { ParseData } from '../parse/index.ts';
import type { ParseRunner } from './runner.ts';

export interface RemoteRunnerOptions {
  /** The folio server's base URL, without a trailing slash (config.apiUrl). */
  apiUrl: string;
  apiKey: string;
  /** Added to the parse's own `timeout` for the upload and the answer. */
  transferGraceMs?: number;
  /** For tests of transport failures; the global fetch otherwise. */
  fetch?: typeof fetch;
}

export const DEFAULT_TRANSFER_GRACE_MS = 30_000;

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/** Status → code for bodies without one (the spec's 402 and 429 carry only `error`). */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 402) return 'PAYMENT_REQUIRED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 408) return 'SCRAPE_TIMEOUT';
  if (status === 413) return 'FILE_TOO_LARGE';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return 'FETCH_FAILED';
}

function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function causeText(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return cause instanceof Error ? cause.message : String(cause);
}

/** The bytes as a Blob part without a copy (a Buffer's memory is an ArrayBuffer unless shared). */
function blobPart(bytes: Buffer): Uint8Array<ArrayBuffer> {
  const memory = bytes.buffer;
  return memory instanceof ArrayBuffer ? new Uint8Array(memory, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
}

export function createRemoteRunner(options: RemoteRunnerOptions): ParseRunner {
  const endpoint = `${options.apiUrl.replace(/\/+$/, '')}/v2/parse`;
  const doFetch = options.fetch ?? fetch;
  const grace = options.transferGraceMs ?? DEFAULT_TRANSFER_GRACE_MS;
  const where = `the folio server at ${options.apiUrl} (FOLIO_API_URL)`;
  const scrub = (text: string) => text.split(options.apiKey).join('[redacted]');

  return async (input, parseOptions, run = {}) => {
    const form = new FormData();
    const file = new Blob([blobPart(input.bytes)], input.contentType ? { type: input.contentType } : {});
    form.append('file', file, input.filename);
    form.append('options', new Blob([JSON.stringify(parseOptions)], { type: 'application/json' }), 'options.json');

    const timeout = AbortSignal.timeout(parseOptions.timeout + grace);
    const signal = run.signal ? AbortSignal.any([run.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
        body: form,
        signal,
        redirect: 'error',
      });
      text = await response.text();
    } catch (err) {
      if (run.signal?.aborted) throw run.signal.reason;
      if (timeout.aborted) {
        throw new ServiceError(
          'SCRAPE_TIMEOUT',
          `${where} did not answer within ${parseOptions.timeout + grace} ms (the parse's timeout plus ${grace} ms for the transfer). Raise \`timeout\`, send a smaller file, or check the server.`,
        );
      }
      throw new ServiceError('FETCH_FAILED', `Could not reach ${where}: ${scrub(causeText(err))}. Check the URL and that the server is running.`);
    }

    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};

    if (!response.ok) {
      const code = isErrorCode(record.code) ? record.code : codeForStatus(response.status);
      const message = typeof record.error === 'string' ? scrub(record.error) : `it answered HTTP ${response.status} without an error message`;
      const seconds = retryAfter(response.headers.get('retry-after'));
      if (code === 'UNAUTHORIZED') {
        throw new ServiceError(code, `${where} refused FOLIO_API_KEY: ${message} Set FOLIO_API_KEY to a valid key of that server.`);
      }
      throw new ServiceError(code, `${where}: ${message}`, seconds === undefined ? undefined : { retryAfterSeconds: seconds });
    }
    const data = record.data;
    if (record.success !== true || typeof data !== 'object' || data === null || !('metadata' in data)) {
      throw new ServiceError('FETCH_FAILED', `${where} answered HTTP ${response.status} with a body that is not a folio parse response. Is FOLIO_API_URL the base URL of a folio server?`);
    }
    return data as ParseData;
  };
}
