/**
 * folio's metrics (docs/operations.md): every family it exposes, and the small fixed label sets
 * they use. Paths become an `operation` (a fixed list: an API key in a `/{API_KEY}/v2/mcp` path
 * never becomes a label), file names a `format` (known extensions only).
 */
import { ACCEPTED_EXTENSIONS } from '../parse/detect.ts';
import { createMetricsRegistry, type Counter, type Histogram, type MetricsRegistry } from './metrics.ts';

/** What the parse pool reports at scrape time (src/limits/parse-pool.ts `stats()`). */
export interface PoolStats {
  size: number;
  ready: number;
  running: number;
  queued: number;
  restarts: number;
  kills: Readonly<Record<string, number>>;
}

export interface FolioMetrics {
  registry: MetricsRegistry;
  requests: Counter;
  requestSeconds: Histogram;
  creditsCharged: Counter;
  llmTokens: Counter;
  /** Where the pool's numbers are read from (serve attaches it once the pool exists). */
  readPool(read: () => PoolStats | undefined): void;
  /** Where the number of requests in flight is read from. */
  readInFlight(read: () => number): void;
}

/** Seconds: parses run from milliseconds (HTML) to minutes (OCR of a long PDF). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const;

const OPERATIONS: readonly (readonly [RegExp, string])[] = [
  [/^\/v2\/parse$/, 'parse'],
  [/^\/v2\/scrape$/, 'scrape'],
  [/^\/v2\/batch\/scrape(\/|$)/, 'batch'],
  [/^\/v2\/crawl(\/|$)/, 'crawl'],
  [/^\/v2\/map$/, 'map'],
  [/^\/v2\/search$/, 'search'],
  [/^\/v2\/uploads(\/|$)/, 'uploads'],
  [/^\/v2\/captures\//, 'captures'],
  [/^\/v2\/team\//, 'team'],
  [/^(\/[^/]+)?\/v2\/mcp(-oauth)?(\/|$)/, 'mcp'],
  [/^\/oauth\//, 'oauth'],
  [/^\/account(\/|$)/, 'account'],
  [/^\/\.well-known\//, 'well-known'],
  [/^\/health$/, 'health'],
  [/^\/ready$/, 'ready'],
  [/^\/metrics$/, 'metrics'],
];

/** The operation of a request path (query string already removed): a fixed name, `other` else. */
export function operationOf(path: string): string {
  for (const [pattern, name] of OPERATIONS) if (pattern.test(path)) return name;
  return 'other';
}

/** The extensions folio reads (src/parse/detect.ts ACCEPTED_EXTENSIONS); anything else is `other`. */
const FORMATS = new Set(ACCEPTED_EXTENSIONS.map((e) => e.slice(1)));

/** The `format` label of a file name: its extension when folio knows it. */
export function formatOf(filename: string | undefined): string {
  if (!filename) return 'none';
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return 'other';
  const ext = filename.slice(dot + 1).toLowerCase();
  return FORMATS.has(ext) ? ext : 'other';
}

export function createFolioMetrics(): FolioMetrics {
  const registry = createMetricsRegistry();
  let pool: () => PoolStats | undefined = () => undefined;
  let inFlight: () => number = () => 0;
  const requests = registry.counter('folio_http_requests_total', 'HTTP requests answered, by operation, format (parse: the file extension) and status.');
  const requestSeconds = registry.histogram('folio_http_request_duration_seconds', 'Time from a request to its answer, by operation, format and status.', LATENCY_BUCKETS);
  registry.gauge('folio_http_requests_in_flight', 'Requests being answered now.', () => [[{}, inFlight()]]);
  registry.gauge('folio_parse_queue_depth', 'Parses waiting for a parse process.', () => {
    const s = pool();
    return s ? [[{}, s.queued]] : [];
  });
  registry.gauge('folio_parse_running', 'Parses running in a parse process.', () => {
    const s = pool();
    return s ? [[{}, s.running]] : [];
  });
  registry.gauge('folio_parse_workers', 'Parse processes: `ready` have loaded every reader.', () => {
    const s = pool();
    return s ? [[{ state: 'configured' }, s.size], [{ state: 'ready' }, s.ready]] : [];
  });
  registry.counterFrom('folio_parse_worker_restarts_total', 'Parse processes started to replace one (killed, recycled or crashed), since start.', () => {
    const s = pool();
    return s ? [[{}, s.restarts]] : [];
  });
  registry.counterFrom('folio_parse_worker_kills_total', 'Parse processes killed by the pool, by reason (timeout, memory, recycle), since start.', () => {
    const s = pool();
    return s ? Object.entries(s.kills).map(([reason, n]) => [{ reason }, n] as const) : [];
  });
  const creditsCharged = registry.counter('folio_credits_charged_total', 'Credits charged to teams, by operation.');
  const llmTokens = registry.counter('folio_llm_tokens_total', 'LLM tokens spent, by direction (input, output).');
  return {
    registry,
    requests,
    requestSeconds,
    creditsCharged,
    llmTokens,
    readPool(read) {
      pool = read;
    },
    readInFlight(read) {
      inFlight = read;
    },
  };
}
