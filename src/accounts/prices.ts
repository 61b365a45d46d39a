/**
 * What an operation costs, in credits (docs/billing.md). The defaults follow Firecrawl's published
 * table: 1 credit per scraped page or parsed document, 1 per PDF page processed, +4 per page for
 * the `json` format, +4 per page for `redactPII`, +1 per page under Zero Data Retention, 1 per map
 * call, 2 per 10 search results (each scraped result also costs its page price), 2 per browser
 * minute (a `/v2/browser` session's life, an interact call's run; every started minute).
 *
 * Prices are computed from the request's options and the answer that was sent: a PDF's pages are
 * known only once it was read (`metadata.numPages`, the pages processed).
 */

export interface Prices {
  /** A scraped page or a parsed document that is not a PDF. */
  page: number;
  /** Per PDF page processed. */
  pdfPage: number;
  /** Surcharges per billed page. */
  json: number;
  redactPii: number;
  zdr: number;
  /** One map call. */
  map: number;
  /** Per block of 10 search results (rounded up). */
  searchPer10: number;
  /** Per started minute of a browser session's life, or of an interact call's run (Firecrawl: 2 / browser minute). */
  browserMinute: number;
}

/** Operations that cost credits; MCP tool calls are billed as the operation they run. */
export type Operation = 'parse' | 'scrape' | 'search' | 'map' | 'crawl' | 'batch_scrape' | 'agent' | 'extract' | 'browser' | 'interact';

/** Browser time: every started minute (at least one) at the browser-minute price. */
export function browserMinutesPrice(prices: Prices, durationMs: number): number {
  return Math.max(1, Math.ceil(Math.max(0, durationMs) / 60_000)) * prices.browserMinute;
}

/** The options that change a page's price. */
export interface PageFactors {
  json: boolean;
  redactPii: boolean;
  zdr: boolean;
}

export const NO_SURCHARGE: PageFactors = Object.freeze({ json: false, redactPii: false, zdr: false });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function asksForJson(formats: unknown): boolean {
  if (!Array.isArray(formats)) return false;
  return formats.some((f) => f === 'json' || (isRecord(f) && f.type === 'json'));
}

/**
 * The factors of an options object as the client sent it (a parse's options, a scrape body, a
 * crawl's `scrapeOptions`); `zeroDataRetention` may also sit one level up (crawl, batch).
 */
export function factorsOf(options: unknown, outer?: unknown): PageFactors {
  const o = isRecord(options) ? options : {};
  const up = isRecord(outer) ? outer : {};
  const pii = o.redactPII;
  return {
    json: asksForJson(o.formats),
    redactPii: pii === true || isRecord(pii),
    zdr: o.zeroDataRetention === true || up.zeroDataRetention === true,
  };
}

function surcharge(prices: Prices, f: PageFactors): number {
  return (f.json ? prices.json : 0) + (f.redactPii ? prices.redactPii : 0) + (f.zdr ? prices.zdr : 0);
}

/** A parsed document or scraped page: `pdfPages` is the PDF's pages processed, undefined for other kinds. */
export function documentPrice(prices: Prices, f: PageFactors, pdfPages?: number): number {
  if (pdfPages === undefined) return prices.page + surcharge(prices, f);
  return Math.max(1, pdfPages) * (prices.pdfPage + surcharge(prices, f));
}

/** The price of a document from a response's `data` (its `metadata.numPages` marks a PDF). */
export function priceOfData(prices: Prices, f: PageFactors, data: unknown): number {
  const metadata = isRecord(data) && isRecord(data.metadata) ? data.metadata : {};
  const pages = typeof metadata.numPages === 'number' ? metadata.numPages : undefined;
  return documentPrice(prices, f, pages);
}

/** Search: the result blocks, plus each web result that was scraped (it carries content). */
export function searchPrice(prices: Prices, f: PageFactors, data: unknown): number {
  const d = isRecord(data) ? data : {};
  const lists = [d.web, d.news, d.images].map((l) => (Array.isArray(l) ? (l as unknown[]) : []));
  const results = lists.reduce((n, l) => n + l.length, 0);
  const blocks = Math.max(1, Math.ceil(results / 10));
  const scraped = (lists[0] ?? []).filter((r) => isRecord(r) && (typeof r.markdown === 'string' || typeof r.html === 'string' || typeof r.rawHtml === 'string'));
  return blocks * prices.searchPer10 + scraped.reduce((n: number, r) => n + priceOfData(prices, f, r), 0);
}

/** What a successful answer of the operation costs. */
export function priceOf(prices: Prices, operation: Operation, f: PageFactors, data: unknown): number {
  switch (operation) {
    case 'map':
      return prices.map;
    case 'search':
      return searchPrice(prices, f, data);
    case 'browser':
    case 'interact':
      // Charged by time (browserMinutesPrice), not from an answer.
      return prices.browserMinute;
    default:
      return priceOfData(prices, f, data);
  }
}

/** The least the operation can cost: a team below it is refused before any work (402). */
export function minimumPrice(prices: Prices, operation: Operation, f: PageFactors): number {
  switch (operation) {
    case 'map':
      return prices.map;
    case 'search':
      return prices.searchPer10;
    case 'browser':
    case 'interact':
      return prices.browserMinute;
    default:
      return Math.min(prices.page, prices.pdfPage) + surcharge(prices, f);
  }
}
