/**
 * GET a search backend's JSON answer with undici. Backends are configured by the operator, so
 * the SSRF rules of the page Fetcher do not apply to them (SearXNG is often on localhost or a
 * private network); they get a time limit, a size cap, and errors that name the backend only:
 * never its URL (which may hold credentials) nor its API key.
 */
import { request } from 'undici';
import { ServiceError } from '../../errors.ts';

/** How long one backend request may take; the search falls back to the next backend after it. */
export const BACKEND_TIMEOUT_MS = 15_000;
/** A backend answer bigger than this is refused (SearXNG pages are tens of kB). */
export const BACKEND_MAX_BYTES = 10 * 1024 * 1024;

export interface BackendGet {
  backend: string;
  url: URL;
  headers?: Record<string, string>;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Explains a status the generic message would not (SearXNG 403: json format off; Brave 401: key). */
  explainStatus?: (status: number) => string | undefined;
}

function failed(backend: string, what: string): ServiceError {
  return new ServiceError('FETCH_FAILED', `Search backend ${backend} ${what}.`);
}

export async function getBackendJson(get: BackendGet): Promise<unknown> {
  const timeoutMs = get.timeoutMs ?? BACKEND_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([get.signal, timeout]);
  let text: string;
  let status: number;
  try {
    const res = await request(get.url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'folio-search', ...get.headers },
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = res.statusCode;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > BACKEND_MAX_BYTES) {
        res.body.destroy();
        throw failed(get.backend, `answered with more than ${BACKEND_MAX_BYTES} bytes`);
      }
      chunks.push(buf);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    if (get.signal.aborted) throw get.signal.reason;
    if (timeout.aborted) throw failed(get.backend, `did not answer within ${timeoutMs / 1000} s`);
    const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'network error';
    throw failed(get.backend, `could not be reached (${code})`);
  }
  if (status < 200 || status > 299) {
    const why = get.explainStatus?.(status);
    throw failed(get.backend, `answered HTTP ${status}${why ? `: ${why}` : ''}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw failed(get.backend, 'answered with something that is not JSON');
  }
}

/** A string field of an engine's JSON object, or undefined. */
export function str(obj: unknown, key: string): string | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function num(obj: unknown, key: string): number | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function field(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  return (obj as Record<string, unknown>)[key];
}

export function list(obj: unknown, key: string): unknown[] {
  const v = field(obj, key);
  return Array.isArray(v) ? v : [];
}
