/**
 * Which discovered URLs a crawl follows (Firecrawl v2 crawl options):
 *
 * - host: the start URL's host (a leading `www.` ignored on both sides); `allowSubdomains` adds
 *   its subdomains; `allowExternalLinks` any host.
 * - path: without `crawlEntireDomain`, only the start URL's path and what lies below it
 *   (`/docs` → `/docs`, `/docs/…`); with it, the whole site.
 * - `includePaths` (any must match) and `excludePaths` (none may match): regexes on the path, or
 *   on the whole URL with `regexOnFullURL`. The start URL itself is always crawled.
 * - `maxDiscoveryDepth`: the start URL and sitemap URLs are depth 0; a link found on a page of
 *   depth d is d + 1 and is followed only when d + 1 ≤ maxDiscoveryDepth.
 */

export interface ScopeRules {
  startUrl: string;
  includePaths: readonly RegExp[];
  excludePaths: readonly RegExp[];
  regexOnFullURL: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  crawlEntireDomain: boolean;
}

export function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}

/** Same host, or a subdomain of it when allowed (hostnames compared without `www.`). */
export function hostInScope(candidate: URL, start: URL, allowSubdomains: boolean): boolean {
  const a = bareHost(candidate.hostname);
  const b = bareHost(start.hostname);
  if (a === b) return true;
  return allowSubdomains && a.endsWith(`.${b}`);
}

/** The start path as a prefix: `/docs/` for `/docs` and `/docs/`; `/` for the root. */
function pathPrefix(start: URL): string {
  return start.pathname.endsWith('/') ? start.pathname : `${start.pathname}/`;
}

export type ScopeVerdict = 'ok' | 'host' | 'path' | 'include' | 'exclude';

export function checkScope(candidate: string, rules: ScopeRules): ScopeVerdict {
  const url = new URL(candidate);
  const start = new URL(rules.startUrl);
  if (!rules.allowExternalLinks && !hostInScope(url, start, rules.allowSubdomains)) return 'host';
  const sameSite = hostInScope(url, start, true);
  if (!rules.crawlEntireDomain && sameSite) {
    const prefix = pathPrefix(start);
    if (url.pathname !== start.pathname && !url.pathname.startsWith(prefix)) return 'path';
  }
  const subject = rules.regexOnFullURL ? url.href : url.pathname;
  if (rules.includePaths.length > 0 && !rules.includePaths.some((r) => r.test(subject))) return 'include';
  if (rules.excludePaths.some((r) => r.test(subject))) return 'exclude';
  return 'ok';
}
