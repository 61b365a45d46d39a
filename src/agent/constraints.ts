/**
 * Where an agent job may go. With `strictConstrainToURLs`, only the request's `urls` and the pages
 * under them (same origin, the path starting with the listed path); without it, any http(s) URL.
 * Either way every fetch then passes the Fetcher's SSRF rules (private, loopback, link-local and
 * metadata addresses refused, FOLIO_FETCH_ALLOW aside): a page cannot talk the loop past either.
 */
import { normalizeUrl } from '../web/links.ts';

export interface UrlConstraints {
  strict: boolean;
  allowed: readonly string[];
}

/** The normalized URL, or undefined when it is not an absolute http(s) URL without credentials. */
export function cleanUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return undefined;
  return normalizeUrl(raw);
}

function under(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false;
  if (url.pathname === base.pathname) return true;
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return url.pathname.startsWith(prefix);
}

/** Why `url` is outside the job's constraints, or undefined when it may be visited. */
export function refusal(url: string, c: UrlConstraints): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'only http:// and https:// URLs can be visited';
  if (!c.strict) return undefined;
  const ok = c.allowed.some((a) => {
    try {
      return under(parsed, new URL(a));
    } catch {
      return false;
    }
  });
  return ok ? undefined : 'strictConstrainToURLs is on and this URL is not one of the request\'s `urls` (or a page under one)';
}
