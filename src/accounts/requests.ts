/**
 * What the accounting reads from a request as the client sent it (before the door validates it):
 * whether it asks for Zero Data Retention, and the options that change its price. The shapes are
 * Firecrawl's: options at the top (parse, scrape, batch scrape), under `scrapeOptions` (crawl,
 * search) or `options` (the MCP batch_scrape tool); `zeroDataRetention` at the top for crawl and
 * batch scrape too.
 */
import { factorsOf, type PageFactors } from './prices.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The per-page options of a request body or tool input. */
function pageOptions(body: Record<string, unknown>): unknown {
  if (isRecord(body.scrapeOptions)) return body.scrapeOptions;
  if (isRecord(body.options)) return body.options;
  return body;
}

export function wantsZdr(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const options = pageOptions(body);
  return body.zeroDataRetention === true || (isRecord(options) && options.zeroDataRetention === true);
}

export function requestFactors(body: unknown): PageFactors {
  if (!isRecord(body)) return factorsOf(undefined);
  return factorsOf(pageOptions(body), body);
}
