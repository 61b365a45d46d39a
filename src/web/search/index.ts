/**
 * The search operation's public face: validate a request, pick the backends from config, run.
 * Doors (the HTTP route, the MCP tool) use only what is exported here.
 */
import type { Config } from '../../config.ts';
import type { SearchBackend } from './backend.ts';
import { braveBackend } from './brave.ts';
import { parseSearchRequest } from './request.ts';
import { runSearch, type SearchDeps, type SearchResponse } from './search.ts';
import { searxngBackend } from './searxng.ts';

export type { BackendHit, BackendQuery, BackendResult, SearchBackend } from './backend.ts';
export { createRemoteSearch, type RemoteSearchOptions } from './remote.ts';
export { parseSearchRequest, SearchRequestSchema, type SearchRequest, type SearchRequestInput } from './request.ts';
export {
  NOT_CONFIGURED_MESSAGE,
  runSearch,
  SCRAPE_CONCURRENCY,
  type ImageResult,
  type NewsResult,
  type ResultScraper,
  type SearchData,
  type SearchDeps,
  type SearchResponse,
  type WebResult,
} from './search.ts';

/** SearXNG first, Brave Search second (DESIGN: SearXNG's JSON API is the self-hosted default). */
export function searchBackendsFromConfig(config: Pick<Config, 'searxngEndpoint' | 'braveApiKey' | 'braveSearchUrl'>): SearchBackend[] {
  const backends: SearchBackend[] = [];
  if (config.searxngEndpoint) backends.push(searxngBackend(config.searxngEndpoint));
  if (config.braveApiKey) backends.push(braveBackend(config.braveApiKey, config.braveSearchUrl));
  return backends;
}

/** One call for the doors: validates the body (400 naming the field), then searches. */
export interface SearchOperation {
  (body: unknown, run?: { signal?: AbortSignal }): Promise<SearchResponse>;
  /** The configured backends' names, in order; empty → every call is NOT_CONFIGURED. */
  readonly backends: readonly string[];
}

export function createSearch(deps: SearchDeps): SearchOperation {
  const operation = (body: unknown, run: { signal?: AbortSignal } = {}) => runSearch(parseSearchRequest(body, deps.browserPages === true), deps, run);
  return Object.assign(operation, { backends: Object.freeze(deps.backends.map((b) => b.name)) });
}
