/**
 * MCP tool calls with a key or an OAuth token are billed as the operation they run
 * (docs/billing.md). Reading a kept result (`parse` with `resultId`) and the status tools cost
 * nothing; `crawl` and `batch_scrape` cost nothing themselves: their pages are charged as they
 * are stored (job-pages.ts); `agent` and `extract` neither: their jobs' credits are charged when
 * they end (src/agent). `interact` is charged by its run time through the browser's billing; an
 * `interact` given a `url` scrapes that page first, and that scrape is billed as one.
 */
import { NO_SURCHARGE, priceOf, type Operation, type PageFactors, type Prices } from './prices.ts';
import { requestFactors } from './requests.ts';

export interface ToolBilling {
  operation: Operation;
  factors: PageFactors;
  /** Starts a job whose pages are charged later: the call itself records a 0-credit row naming the job. */
  startsJob: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toolBilling(toolName: string, input: unknown): ToolBilling | undefined {
  const factors = requestFactors(input);
  switch (toolName) {
    case 'parse':
      return isRecord(input) && input.resultId !== undefined ? undefined : { operation: 'parse', factors, startsJob: false };
    case 'scrape':
    case 'search':
    case 'map':
      return { operation: toolName, factors, startsJob: false };
    case 'interact':
      // Its own scrape of `url` (markdown only: no surcharge); the run itself is browser time.
      return isRecord(input) && typeof input.url === 'string' && input.url.trim() !== '' ? { operation: 'scrape', factors: NO_SURCHARGE, startsJob: false } : undefined;
    case 'crawl':
    case 'batch_scrape':
    case 'agent':
    case 'extract':
      return { operation: toolName, factors, startsJob: true };
    default:
      return undefined;
  }
}

/** What a successful call costs, from its structured result. */
export function toolPrice(prices: Prices, billing: ToolBilling, structured: unknown): number {
  return billing.startsJob ? 0 : priceOf(prices, billing.operation, billing.factors, structured);
}

/** The job a `crawl` / `batch_scrape` call started (its structured result's `id`). */
export function startedJobId(structured: unknown): string | undefined {
  return isRecord(structured) && typeof structured.id === 'string' ? structured.id : undefined;
}
