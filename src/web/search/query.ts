/**
 * What is sent to the engines and how hits are judged afterwards: Firecrawl's `categories` and
 * `includeDomains`/`excludeDomains` become search operators (`site:`, `filetype:`), which both
 * SearXNG's engines and Brave understand; the domain rules are also enforced on the hits, since
 * an engine may ignore an operator. Each web hit is labelled with the category it matches.
 */
import ipaddr from 'ipaddr.js';
import type { SearchCategory, SearchRequest } from './request.ts';

/** Sites Firecrawl's `research` category covers (academic publishers and preprint servers). */
export const RESEARCH_SITES = [
  'arxiv.org', 'scholar.google.com', 'semanticscholar.org', 'pubmed.ncbi.nlm.nih.gov', 'ncbi.nlm.nih.gov',
  'nature.com', 'sciencedirect.com', 'springer.com', 'ieeexplore.ieee.org', 'dl.acm.org',
  'researchgate.net', 'biorxiv.org', 'medrxiv.org', 'jstor.org',
];

function hostMatches(host: string, domain: string): boolean {
  const d = domain.replace(/^\*\./, '');
  return host === d || host.endsWith(`.${d}`);
}

const OPERATOR: Record<SearchCategory, string> = {
  github: 'site:github.com',
  pdf: 'filetype:pdf',
  research: RESEARCH_SITES.slice(0, 6).map((s) => `site:${s}`).join(' OR '),
};

function group(parts: string[]): string {
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' OR ')})`;
}

/** The query text with operators for categories and domains. */
export function engineQuery(req: SearchRequest): string {
  const parts = [req.query];
  if (req.categories.length > 0) parts.push(group(req.categories.map((c) => OPERATOR[c])));
  if (req.includeDomains.length > 0) parts.push(group(req.includeDomains.map((d) => `site:${d.replace(/^\*\./, '')}`)));
  for (const d of req.excludeDomains) parts.push(`-site:${d.replace(/^\*\./, '')}`);
  return parts.join(' ');
}

/** The category a web hit belongs to, among those asked for. */
export function categoryOf(url: string, categories: readonly SearchCategory[]): SearchCategory | undefined {
  const u = new URL(url);
  const host = u.hostname.toLowerCase();
  for (const c of categories) {
    if (c === 'github' && hostMatches(host, 'github.com')) return c;
    if (c === 'research' && RESEARCH_SITES.some((s) => hostMatches(host, s))) return c;
    if (c === 'pdf' && u.pathname.toLowerCase().endsWith('.pdf')) return c;
  }
  return undefined;
}

/** Hits outside `includeDomains`, or inside `excludeDomains`, are dropped. */
export function domainAllowed(url: string, req: SearchRequest): boolean {
  const host = new URL(url).hostname.toLowerCase();
  if (req.includeDomains.length > 0 && !req.includeDomains.some((d) => hostMatches(host, d))) return false;
  return !req.excludeDomains.some((d) => hostMatches(host, d));
}

/**
 * `ignoreInvalidURLs`: Firecrawl drops results that its other endpoints would refuse. Here: URLs
 * with credentials, hosts that are not public names (no dot, `localhost`, `.local`, `.internal`)
 * and IP literals outside public unicast space, which scrape's SSRF rules would block anyway.
 */
export function validForScrape(url: string): boolean {
  const u = new URL(url);
  if (u.username || u.password) return false;
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const addr = ipaddr.process(host);
    return addr.range() === 'unicast';
  }
  if (!host.includes('.') || host === 'localhost' || /\.(localhost|local|internal|home\.arpa)$/.test(host)) return false;
  return true;
}

/** The key two hits are the same page by: no fragment, no trailing slash. */
export function dedupeKey(url: string): string {
  const u = new URL(url);
  u.hash = '';
  if (u.pathname.length > 1 && u.pathname.endsWith('/')) u.pathname = u.pathname.slice(0, -1);
  return u.href;
}
