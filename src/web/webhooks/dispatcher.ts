/**
 * Webhook delivery for crawl and batch scrape jobs: the events Firecrawl sends (`started`,
 * `page`, `completed`, `failed`; typed `crawl.*` or `batch_scrape.*`), POSTed as JSON through
 * the SSRF-protected Fetcher, signed (signature.ts), retried with backoff on a network error,
 * a timeout or a non-2xx answer. One job's deliveries go out one after the other, in event
 * order. A delivery that finally fails is logged (never its headers or body) and dropped: a
 * webhook never fails the job.
 */
import { randomUUID } from 'node:crypto';
import { isServiceError } from '../../errors.ts';
import type { ParseData } from '../../parse/index.ts';
import type { JobKind } from '../../store/crawl-jobs.ts';
import { displayUrl } from '../fetch/fetcher.ts';
import type { Fetcher } from '../fetch/types.ts';
import type { WebhookConfig, WebhookEvent } from './schema.ts';
import { SIGNATURE_HEADER, signWebhookBody } from './signature.ts';

/** Waits before the 2nd, 3rd and 4th attempt (Firecrawl retries too; its delays are longer). */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 15_000];
/** A receiver must answer within this long. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** What the job machinery tells the dispatcher. */
export interface JobEventSink {
  started(jobId: string): void;
  page(jobId: string, data: ParseData): void;
  /** A page that could not be scraped (it is in the job's errors). */
  pageFailed(jobId: string, url: string, error: string): void;
  finished(jobId: string, status: 'completed' | 'failed', error: string | null): void;
}

export interface WebhookTarget {
  /** Crawl and batch jobs, and the agent's jobs (src/agent): the event type's prefix. */
  kind: JobKind | 'agent' | 'extract';
  webhook?: WebhookConfig;
}

export interface WebhookDispatcherDeps {
  fetcher: Fetcher;
  secret: string;
  /** The job's kind and webhook (from its stored request); undefined when the job is gone. */
  lookup(jobId: string): Promise<WebhookTarget | undefined>;
  onError(detail: { jobId: string; event: string; url: string; attempts: number; reason: string }, message: string): void;
  retryDelaysMs?: readonly number[];
}

export interface WebhookDispatcher extends JobEventSink {
  /** Stops retrying; deliveries in flight are aborted. */
  close(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const chains = new Map<string, Promise<void>>();
  const targets = new Map<string, Promise<WebhookTarget | undefined>>();
  const closing = new AbortController();

  const targetOf = (jobId: string) => {
    let t = targets.get(jobId);
    if (!t) {
      t = deps.lookup(jobId).catch(() => undefined);
      targets.set(jobId, t);
    }
    return t;
  };

  const deliver = async (jobId: string, webhook: WebhookConfig, type: string, payload: Record<string, unknown>) => {
    const body = JSON.stringify(payload);
    const headers = { ...webhook.headers, 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhookBody(deps.secret, body) };
    let reason = '';
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1] ?? 0, closing.signal);
      if (closing.signal.aborted) return;
      try {
        const res = await deps.fetcher.fetch({
          url: webhook.url,
          method: 'POST',
          body,
          headers,
          timeoutMs: DELIVERY_TIMEOUT_MS,
          maxBytes: 64 * 1024,
          maxRedirects: 0,
          signal: closing.signal,
        });
        if (res.status >= 200 && res.status < 300) return;
        reason = `the receiver answered HTTP ${res.status}`;
      } catch (err) {
        if (closing.signal.aborted) return;
        reason = isServiceError(err) ? `${err.code}: ${err.message}` : 'unexpected error';
        // The address is refused by the SSRF rules: retrying cannot help.
        if (isServiceError(err) && err.code === 'URL_BLOCKED') {
          deps.onError({ jobId, event: type, url: displayUrl(webhook.url), attempts: attempt + 1, reason }, 'webhook refused');
          return;
        }
      }
    }
    deps.onError({ jobId, event: type, url: displayUrl(webhook.url), attempts: delays.length + 1, reason }, 'webhook delivery failed');
  };

  const enqueue = (jobId: string, event: WebhookEvent, make: () => { data: unknown[]; success?: boolean; error?: string | null }, last = false) => {
    const previous = chains.get(jobId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const target = await targetOf(jobId);
      const webhook = target?.webhook;
      if (!target || !webhook || !webhook.events.includes(event)) return;
      const type = `${target.kind === 'batch' ? 'batch_scrape' : target.kind}.${event}`;
      const { data, success = true, error } = make();
      await deliver(jobId, webhook, type, {
        success,
        type,
        id: jobId,
        webhookId: randomUUID(),
        data,
        metadata: webhook.metadata,
        ...(error ? { error } : {}),
      });
    });
    const settled = next.catch(() => undefined);
    chains.set(jobId, settled);
    void settled.then(() => {
      if (chains.get(jobId) === settled) {
        chains.delete(jobId);
        if (last) targets.delete(jobId);
      }
    });
  };

  return {
    started(jobId) {
      enqueue(jobId, 'started', () => ({ data: [] }));
    },
    page(jobId, data) {
      enqueue(jobId, 'page', () => ({ data: [data] }));
    },
    pageFailed(jobId, url, error) {
      enqueue(jobId, 'page', () => ({ data: [{ metadata: { sourceURL: url } }], success: false, error }));
    },
    finished(jobId, status, error) {
      enqueue(jobId, status, () => ({ data: [], success: status === 'completed', error }), true);
    },
    async close() {
      closing.abort();
      await Promise.all([...chains.values()]);
    },
  };
}
