/**
 * folio's own operations as the agent and extract jobs call them: search, map and scrape (plain,
 * or rendered with actions; a document URL is parsed like any scrape), each with its price in
 * credits from the operator's price table (docs/billing.md).
 */
import type { Prices } from '../accounts/index.ts';
import { NO_SURCHARGE, priceOf, priceOfData } from '../accounts/index.ts';
import type { BrowserService } from '../browser/index.ts';
import type { ParseRunner } from '../limits/runner.ts';
import type { Fetcher } from '../web/fetch/types.ts';
import { map, parseMapRequest } from '../web/map.ts';
import { scrape, type ScrapeData } from '../web/scrape.ts';
import { parseScrapeRequest, type ScrapeOptions } from '../web/scrape-options.ts';
import type { SearchOperation } from '../web/search/index.ts';

export interface Found {
  url: string;
  title?: string;
  description?: string;
}

export interface Priced<T> {
  value: T;
  credits: number;
}

export interface AgentOperations {
  /** Undefined when no search backend is configured. */
  search?: (query: string, limit: number, signal: AbortSignal) => Promise<Priced<Found[]>>;
  map(url: string, search: string | undefined, limit: number, signal: AbortSignal): Promise<Priced<Found[]>>;
  /** `creditsLeft` bounds a PDF's pages to what is left to pay for them (parsers[pdf].maxPages). */
  scrape(url: string, opts: { actions?: unknown[]; scrapeOptions?: ScrapeOptions; creditsLeft?: number; teamId?: string; zeroDataRetention?: boolean }, signal: AbortSignal): Promise<Priced<ScrapeData>>;
  /** The least a call of each costs: a tool whose least price exceeds what is left is not run. */
  minimum: { search: number; map: number; scrape: number };
}

export interface OperationDeps {
  fetcher: Fetcher;
  runner: ParseRunner;
  browser?: BrowserService;
  search?: SearchOperation;
  prices: Prices;
}

/** Per-fetch bound of the agent's scrapes (the job's own wall-clock limit also applies). */
const SCRAPE_TIMEOUT_MS = 60_000;

export function createOperations(deps: OperationDeps): AgentOperations {
  const { prices } = deps;
  const searchOp = deps.search && deps.search.backends.length > 0 ? deps.search : undefined;
  return {
    ...(searchOp
      ? {
          search: async (query: string, limit: number, signal: AbortSignal) => {
            const res = await searchOp({ query, limit, sources: ['web'] }, { signal });
            const web = (res.data.web ?? []) as { url?: unknown; title?: unknown; description?: unknown }[];
            const value: Found[] = web
              .filter((r) => typeof r.url === 'string')
              .map((r) => ({ url: r.url as string, ...(typeof r.title === 'string' ? { title: r.title } : {}), ...(typeof r.description === 'string' ? { description: r.description } : {}) }));
            return { value, credits: priceOf(prices, 'search', NO_SURCHARGE, res.data) };
          },
        }
      : {}),
    async map(url, search, limit, signal) {
      const { request } = parseMapRequest({ url, limit, ...(search ? { search } : {}) });
      const res = await map(request, { fetcher: deps.fetcher }, { signal });
      return { value: res.links, credits: prices.map };
    },
    async scrape(url, opts, signal) {
      const base: Record<string, unknown> = { ...(opts.scrapeOptions ?? {}), url, formats: ['markdown', 'links'], timeout: opts.scrapeOptions?.timeout ?? SCRAPE_TIMEOUT_MS };
      delete base.ignoredFields;
      if (opts.actions && opts.actions.length > 0) base.actions = opts.actions;
      // A zeroDataRetention job's pages are scraped under it (docs/zdr.md: nothing kept, logs without content).
      if (opts.zeroDataRetention) base.zeroDataRetention = true;
      if (opts.creditsLeft !== undefined && prices.pdfPage > 0) {
        const affordable = Math.max(1, Math.floor(opts.creditsLeft / prices.pdfPage));
        const parsers = (opts.scrapeOptions?.parsers ?? [{ type: 'pdf', mode: 'auto' }]) as { type: string; maxPages?: number }[];
        base.parsers = parsers.map((p) => (p.type === 'pdf' ? { ...p, maxPages: Math.min(p.maxPages ?? affordable, affordable) } : p));
      }
      const request = parseScrapeRequest(base);
      // The job's team: its parses take their turn in that team's fair queue (docs/limits.md).
      const data = await scrape(request, { fetcher: deps.fetcher, runner: deps.runner, ...(deps.browser ? { browser: deps.browser } : {}) }, { signal, ...(opts.teamId ? { teamId: opts.teamId } : {}) });
      // Under zeroDataRetention each page carries the ZDR surcharge (FOLIO_PRICE_ZDR), as a ZDR scrape does.
      return { value: data, credits: priceOfData(prices, opts.zeroDataRetention ? { ...NO_SURCHARGE, zdr: true } : NO_SURCHARGE, data) };
    },
    minimum: { search: prices.searchPer10, map: prices.map, scrape: Math.min(prices.page, prices.pdfPage) },
  };
}
