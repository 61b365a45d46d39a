/**
 * Firecrawl's `deduplicateSimilarURLs` (on by default): URLs that differ only in the scheme
 * (`http`/`https`), a leading `www.`, a trailing `index.html`/`index.htm` or a trailing slash are
 * one page, crawled once (fragments are already gone: normalizeUrl drops them). The first of them
 * found is the one fetched; the others are recognised by their aliases, which the frontier store
 * checks inside the same transaction that adds a URL.
 */
import ipaddr from 'ipaddr.js';

const INDEX_FILE = /\/index\.html?$/i;

/** The URLs that count as the same page as `url` (an absolute, normalised http(s) URL), itself excluded. */
export function similarUrls(url: string): string[] {
  const u = new URL(url);
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  const bare = u.hostname.toLowerCase().replace(/^www\./, '');
  const port = u.port ? `:${u.port}` : '';
  const hosts = ipaddr.isValid(hostname) || !bare.includes('.') ? [`${u.hostname}${port}`] : [`${bare}${port}`, `www.${bare}${port}`];
  const stem = u.pathname.replace(INDEX_FILE, '/').replace(/\/+$/, '');
  const paths = new Set([stem === '' ? '/' : stem, `${stem}/`, `${stem}/index.html`, `${stem}/index.htm`]);
  const out = new Set<string>();
  for (const scheme of ['http:', 'https:']) {
    for (const host of hosts) {
      for (const path of paths) out.add(`${scheme}//${host}${path}${u.search}`);
    }
  }
  out.delete(u.href);
  return [...out];
}
