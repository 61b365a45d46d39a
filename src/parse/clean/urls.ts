/**
 * URLs in the cleaned document.
 *  - Absolute URLs (contracts "Relative URLs"): `a[href]`, `img[src]` and media `src`/`poster`
 *    are resolved against `ReadResult.baseUrl` when there is one; without a base they stay.
 *  - Click-tracking redirects of search engines (Bing `/ck/a?…&u=a1<base64url>`, Google
 *    `/url?q=…`, DuckDuckGo `/l/?uddg=…`) are replaced by their target, so links say where they
 *    go; a redirect to nowhere (`javascript:void(0)`) loses its `href`.
 */
import type { PageIndex } from './page-index.ts';

const MEDIA_SRC = new Set(['img', 'video', 'audio', 'source', 'track', 'iframe', 'embed']);

function resolve(value: string, base: string): string {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return value;
  }
}

/**
 * The redirect's target as an absolute http(s) URL (relative targets are on the redirector's
 * site); null when it leads nowhere a reader can follow (`javascript:void(0)`, garbage).
 */
function httpTarget(candidate: string | null | undefined, redirector: URL): string | null {
  if (!candidate) return null;
  try {
    const url = new URL(candidate, redirector.origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function decodeBase64Url(text: string): string {
  return Buffer.from(text, 'base64url').toString('utf8');
}

/**
 * The target of a known search-engine redirect link; null for a redirect to nowhere; undefined
 * when the link is not such a redirect.
 */
export function redirectTarget(href: string): string | null | undefined {
  if (!/\/ck\/a\?|\/url\?|uddg=/.test(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href, 'https://relative.invalid/');
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  if (/(^|\.)bing\.com$/.test(host) && url.pathname === '/ck/a') {
    const u = url.searchParams.get('u');
    return u?.startsWith('a1') ? httpTarget(decodeBase64Url(u.slice(2)), url) : undefined;
  }
  if (/(^|\.)google\.[a-z.]+$/.test(host) && url.pathname === '/url') {
    return httpTarget(url.searchParams.get('q') ?? url.searchParams.get('url'), url);
  }
  if (/(^|\.)duckduckgo\.com$/.test(host) && url.pathname === '/l/') {
    return httpTarget(url.searchParams.get('uddg'), url);
  }
  return undefined;
}

export function rewriteUrls(index: PageIndex, baseUrl: string | undefined): void {
  for (let i = 1; i < index.size; i++) {
    const tag = index.tags[i] as string;
    if (tag !== 'a' && (!baseUrl || !MEDIA_SRC.has(tag))) continue;
    if (index.isRemoved(i)) continue;
    const element = index.element(i);
    if (tag === 'a') {
      const href = element.getAttribute('href');
      if (href === null) continue;
      const target = redirectTarget(href);
      if (target) element.setAttribute('href', target);
      else if (target === null) element.removeAttribute('href');
      else if (baseUrl) element.setAttribute('href', resolve(href, baseUrl));
      continue;
    }
    if (!baseUrl) continue;
    const src = element.getAttribute('src');
    if (src !== null && src.trim() !== '' && !/^\s*data:/i.test(src)) element.setAttribute('src', resolve(src, baseUrl));
    if (tag === 'video') {
      const poster = element.getAttribute('poster');
      if (poster) element.setAttribute('poster', resolve(poster, baseUrl));
    }
  }
}
