/**
 * Every outbound fetch of the web operations (scrape, map, crawl, CIMD documents) goes through
 * one Fetcher, which enforces the SSRF rules at resolve time, after every redirect and at
 * connect time, and the size and time limits.
 */

export interface FetchRequest {
  url: string;
  method?: 'GET' | 'HEAD' | 'POST';
  /** A POST body (webhook deliveries); POSTs should set maxRedirects: 0. */
  body?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Body cap; the fetch fails with FILE_TOO_LARGE past it. Default 50 MB. */
  maxBytes?: number;
  /** Redirects followed (each hop re-checked); default 10. */
  maxRedirects?: number;
  skipTlsVerification?: boolean;
  proxy?: 'basic' | 'auto';
  signal?: AbortSignal;
}

export interface FetchResponse {
  /** The final URL after redirects. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  contentType?: string;
  body: Buffer;
  /** The URLs redirected from, in order. */
  redirects: string[];
}

export interface Fetcher {
  /**
   * Throws ServiceError: URL_BLOCKED (SSRF rules, non-http scheme), FETCH_FAILED (DNS, connect,
   * TLS, too many redirects), SCRAPE_TIMEOUT, FILE_TOO_LARGE. An upstream 4xx/5xx is a response.
   */
  fetch(request: FetchRequest): Promise<FetchResponse>;
}
