/**
 * Search on another folio server, for `folio mcp` over stdio with FOLIO_API_URL and no search
 * backend of its own: `POST {apiUrl}/v2/search` with `Authorization: Bearer {apiKey}`. The body is
 * sent as given (that server validates it and answers its own warnings); its error body
 * `{success:false, code, error}` comes back as a ServiceError with the same code, so a tool error
 * reads the same as a local search. The key goes into the Authorization header only and is
 * scrubbed from any message.
 */
import { ERROR_STATUS, ServiceError, type ErrorCode } from '../../errors.ts';
import type { SearchOperation } from './index.ts';
import type { SearchResponse } from './search.ts';

export interface RemoteSearchOptions {
  /** The folio server's base URL (config.apiUrl). */
  apiUrl: string;
  apiKey: string;
  /** For tests of transport failures; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** The search's own timeout is at most 300 s; the answer may take a little more. */
const REMOTE_TIMEOUT_MS = 330_000;

function codeOf(value: unknown, status: number): ErrorCode {
  if (typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value)) return value as ErrorCode;
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 429) return 'RATE_LIMITED';
  return status >= 400 && status < 500 ? 'BAD_REQUEST' : 'FETCH_FAILED';
}

export function createRemoteSearch(options: RemoteSearchOptions): SearchOperation {
  const endpoint = `${options.apiUrl.replace(/\/+$/, '')}/v2/search`;
  const doFetch = options.fetch ?? fetch;
  const where = `the folio server at ${options.apiUrl} (FOLIO_API_URL)`;
  const scrub = (text: string) => text.split(options.apiKey).join('[redacted]');
  const operation = async (body: unknown, run: { signal?: AbortSignal } = {}): Promise<SearchResponse> => {
    const timeout = AbortSignal.timeout(REMOTE_TIMEOUT_MS);
    const signal = run.signal ? AbortSignal.any([run.signal, timeout]) : timeout;
    let response: Response;
    let record: Record<string, unknown> = {};
    try {
      response = await doFetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal,
        redirect: 'error',
      });
      const parsed: unknown = JSON.parse(await response.text());
      if (typeof parsed === 'object' && parsed !== null) record = parsed as Record<string, unknown>;
    } catch (err) {
      if (run.signal?.aborted) throw run.signal.reason;
      const reason = err instanceof SyntaxError ? 'it did not answer JSON' : err instanceof Error ? err.message : String(err);
      throw new ServiceError('FETCH_FAILED', `Search on ${where} failed: ${scrub(reason)}. Check the URL and that the server is running.`);
    }
    if (!response.ok || record.success !== true) {
      const code = codeOf(record.code, response.status);
      const message = typeof record.error === 'string' ? scrub(record.error) : `it answered HTTP ${response.status}`;
      throw new ServiceError(code, code === 'UNAUTHORIZED' ? `${where} refused FOLIO_API_KEY: ${message}` : `${where}: ${message}`);
    }
    const data = typeof record.data === 'object' && record.data !== null ? (record.data as SearchResponse['data']) : {};
    return { success: true, data, ...(typeof record.warning === 'string' ? { warning: record.warning } : {}) };
  };
  return Object.assign(operation, { backends: Object.freeze([`folio at ${options.apiUrl}`]) });
}
