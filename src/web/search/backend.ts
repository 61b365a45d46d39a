/**
 * One interface in front of every search engine folio can ask (SearXNG, Brave Search). An
 * adapter turns a backend query into its engine's request and maps the engine's JSON back to
 * plain hits; everything Firecrawl-shaped (positions, dedupe, limits, scraping) happens above.
 */
import type { SearchSource } from './request.ts';
import type { TimeFilter } from './tbs.ts';

export interface BackendQuery {
  /** The query as sent to the engine: category and domain operators already added. */
  query: string;
  source: SearchSource;
  /** Hits wanted; an adapter pages until it has them or the engine has no more. */
  count: number;
  timeFilter?: TimeFilter;
  /** BCP 47 language tag (`en`, `de-DE`) derived from `lang`, `location` or `country`. */
  language?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  /** Aborted at the search's deadline or the backend's own time limit. */
  signal: AbortSignal;
}

export interface BackendHit {
  /** The page (web, news) or the page that holds the image (images). */
  url: string;
  title: string;
  /** Snippet text. */
  description: string;
  /** Publication date as the engine gave it (ISO 8601 or a relative "2 days ago"). */
  date?: string;
  /** images: the image itself; news: a picture of the story. */
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
}

export interface BackendResult {
  hits: BackendHit[];
  /** What the engine could not do as asked (e.g. a time range it has no equivalent for). */
  warnings: string[];
}

export interface SearchBackend {
  /** Shown in errors and warnings: `SearXNG`, `Brave Search`. */
  readonly name: string;
  /**
   * Throws ServiceError FETCH_FAILED (unreachable, timed out, non-2xx, not JSON) naming the
   * backend, never its credentials or its configured URL.
   */
  search(query: BackendQuery): Promise<BackendResult>;
}
