/**
 * One JSON POST to the provider, with the request's time budget and retries: 429 (honouring
 * `retry-after`), 5xx and connection errors are retried with exponential backoff, as long as the
 * wait ends before the deadline. Nothing here logs, and no message carries the API key.
 */
import { ServiceError } from '../errors.ts';
import type { LlmSettings } from './settings.ts';

/** The provider answered with a status that is not worth retrying (400 for an unsupported field, 401 …). */
export class ProviderHttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ProviderHttpError';
    this.status = status;
  }
}

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;
/** Past this, a `retry-after` is not waited for: the call fails rather than hold a request that long. */
const RETRY_AFTER_CAP_MS = 60_000;

/** What the provider said went wrong, with the key (and anything shaped like one) taken out, bounded. */
export function providerMessage(body: string, apiKey: string | undefined): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    const err = parsed.error;
    if (typeof err === 'string') text = err;
    else if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') text = (err as { message: string }).message;
    else if (typeof parsed.message === 'string') text = parsed.message;
  } catch {
    // not JSON: the text itself
  }
  if (apiKey) text = text.split(apiKey).join('[key]');
  // OpenAI's 401 quotes the key's ends (`sk-abc***xyz`): nothing key-shaped leaves this function.
  text = text.replace(/\b(sk|pk|rk|key)-[A-Za-z0-9_*.-]{4,}/g, '[key]').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Milliseconds a `retry-after` header asks for (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoffMs(attempt: number): number {
  const exp = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

function llmTimeout(settings: LlmSettings): ServiceError {
  return new ServiceError(
    'SCRAPE_TIMEOUT',
    `The LLM at ${origin(settings)} did not answer within the request's timeout. Raise \`timeout\` (at most 300000), or configure a faster model (MODEL_NAME) or a smaller LLM_CONTEXT_TOKENS.`,
  );
}

/** The provider's origin, for messages: never a path, query or credential. */
export function origin(settings: LlmSettings): string {
  try {
    return new URL(settings.baseUrl).origin;
  } catch {
    return 'the configured LLM server';
  }
}

function failed(settings: LlmSettings, what: string): ServiceError {
  return new ServiceError('FETCH_FAILED', `The LLM at ${origin(settings)} (MODEL_NAME ${settings.model}) could not answer: ${what}.`);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PostOptions {
  settings: LlmSettings;
  deadline: number;
  signal?: AbortSignal;
}

/**
 * POSTs `body` as JSON to `url` and returns the parsed answer. A 4xx other than 408/429 is a
 * ProviderHttpError (the caller may try another way); what still fails after the retries is a
 * 502 FETCH_FAILED, and running out of time a 408 SCRAPE_TIMEOUT.
 */
export async function postJson(url: string, body: unknown, opts: PostOptions): Promise<unknown> {
  const { settings, deadline, signal } = opts;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  const payload = JSON.stringify(body);
  let lastProblem = 'no answer';
  /** Set while the last answer was a 429: the client is told to come back then. */
  let rateLimitedFor: number | undefined;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    // AbortSignal.timeout takes whole milliseconds only.
    const remaining = Math.floor(deadline - Date.now());
    if (remaining <= 0) throw llmTimeout(settings);
    const timeout = AbortSignal.timeout(remaining);
    let waitMs: number;
    try {
      const res = await fetch(url, { method: 'POST', headers, body: payload, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      const text = await res.text();
      if (res.ok) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw failed(settings, `it answered ${res.status} with a body that is not JSON`);
        }
      }
      const message = providerMessage(text, settings.apiKey);
      if (res.status !== 429 && res.status !== 408 && res.status < 500) throw new ProviderHttpError(res.status, message);
      lastProblem = `HTTP ${res.status}${message ? ` (${message})` : ''}`;
      waitMs = (res.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : undefined) ?? backoffMs(attempt);
      rateLimitedFor = res.status === 429 ? waitMs : undefined;
    } catch (err) {
      if (err instanceof ProviderHttpError || err instanceof ServiceError) throw err;
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw llmTimeout(settings);
      // A refused, reset or dropped connection.
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
      lastProblem = `the connection failed (${providerMessage(cause, settings.apiKey)})`;
      waitMs = backoffMs(attempt);
      rateLimitedFor = undefined;
    }
    const outOfTries = attempt >= settings.maxRetries;
    if (outOfTries || waitMs > RETRY_AFTER_CAP_MS || Date.now() + waitMs >= deadline) {
      const why = outOfTries ? `after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}` : "a retry would not end within the request's timeout";
      if (rateLimitedFor !== undefined) {
        const seconds = Math.max(1, Math.ceil(rateLimitedFor / 1000));
        throw new ServiceError('RATE_LIMITED', `The LLM at ${origin(settings)} is rate-limiting this server (HTTP 429, ${why}). Retry in ${seconds} s.`, { retryAfterSeconds: seconds });
      }
      throw failed(settings, `${lastProblem}, ${why}`);
    }
    await sleep(waitMs, signal);
  }
}
