/**
 * URLs in the cleaned document.
 *  - Absolute URLs (contracts "Relative URLs"): `a[href]`, `img[src]` and media `src`/`poster`
 *    are resolved against `ReadResult.baseUrl` when there is one; without a base they stay.
 *  - Click-tracking redirects of search engines (Bing `/ck/a?…&u=a1<base64url>`, Google
 *    `/url?q=…`, DuckDuckGo `/l/?uddg=…`) are replaced by their target, so links say where they
 *    go.
 */
import { walkElements } from './dom.ts';

const MEDIA_SRC = new Set(['img', 'video', 'audio', 'source', 'track', 'iframe', 'embed']);

function resolve(value: string, base: string): string {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return value;
  }
}

function httpTarget(candidate: string | null | undefined): string | undefined {
  if (!candidate) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function decodeBase64Url(text: string): string | undefined {
  try {
    return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

/** The target of a known search-engine redirect link, or undefined. */
export function redirectTarget(href: string): string | undefined {
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
    if (u?.startsWith('a1')) return httpTarget(decodeBase64Url(u.slice(2)));
    return undefined;
  }
  if (/(^|\.)google\.[a-z.]+$/.test(host) && url.pathname === '/url') {
    return httpTarget(url.searchParams.get('q') ?? url.searchParams.get('url'));
  }
  if (/(^|\.)duckduckgo\.com$/.test(host) && url.pathname === '/l/') {
    return httpTarget(url.searchParams.get('uddg'));
  }
  return undefined;
}

export function rewriteUrls(body: Element, baseUrl: string | undefined): void {
  walkElements(body, (element) => {
    const tag = element.localName;
    if (tag === 'a') {
      const href = element.getAttribute('href');
      if (href === null) return;
      const target = redirectTarget(href);
      if (target) element.setAttribute('href', target);
      else if (baseUrl) element.setAttribute('href', resolve(href, baseUrl));
      return;
    }
    if (!baseUrl || !MEDIA_SRC.has(tag)) return;
    const src = element.getAttribute('src');
    if (src !== null && src.trim() !== '' && !/^\s*data:/i.test(src)) element.setAttribute('src', resolve(src, baseUrl));
    if (tag === 'video') {
      const poster = element.getAttribute('poster');
      if (poster) element.setAttribute('poster', resolve(poster, baseUrl));
    }
  });
}
