/**
 * Links of a fetched HTML page, for map and crawl discovery: every `a[href]` and `area[href]`,
 * resolved against the page URL (or its `<base href>`, HTML §4.2.3), fragment stripped, http(s)
 * only. Normalisation is shared by map and crawl so that one page is one key in a frontier.
 */
import { parseHTML } from 'linkedom';

export interface FoundLink {
  url: string;
  /** The longest text of the anchors to this URL (or their `title` attribute), collapsed; empty when none. */
  text: string;
}

export interface NormalizeOptions {
  /** Drop the query string (Firecrawl's `ignoreQueryParameters`). */
  ignoreQueryParameters?: boolean;
}

/** Longest URL kept; longer ones are almost always traps (session ids, calendars). */
export const MAX_URL_LENGTH = 2048;

/**
 * The canonical form of an absolute http(s) URL: fragment removed (it never reaches the server,
 * RFC 3986 §3.5), default port and empty query dropped by the WHATWG serializer, query removed
 * when asked. Undefined for other schemes, credentials in the URL, or unparsable input.
 */
export function normalizeUrl(raw: string, base?: string, options: NormalizeOptions = {}): string | undefined {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  url.hash = '';
  if (options.ignoreQueryParameters) url.search = '';
  const out = url.href;
  return out.length > MAX_URL_LENGTH ? undefined : out;
}

function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

export interface HtmlPage {
  title?: string;
  description?: string;
  links: FoundLink[];
}

/** The links of an HTML document, deduplicated by normalised URL, in document order. */
export function extractLinks(html: string, pageUrl: string, options: NormalizeOptions = {}): FoundLink[] {
  return readHtmlPage(html, pageUrl, options).links;
}

/** The page's `<title>`, meta description and links, from one parse. */
export function readHtmlPage(html: string, pageUrl: string, options: NormalizeOptions = {}): HtmlPage {
  const { document } = parseHTML(html);
  let base = pageUrl;
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (baseHref) {
    const resolved = normalizeUrl(baseHref.trim(), pageUrl);
    if (resolved) base = resolved;
  }
  const seen = new Map<string, FoundLink>();
  for (const el of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const href = (el.getAttribute('href') ?? '').replace(/[\t\n\r]/g, '').trim();
    if (href === '' || href.startsWith('#')) continue;
    const url = normalizeUrl(href, base, options);
    if (!url) continue;
    const text = collapse(el.textContent) || collapse(el.getAttribute('title'));
    const known = seen.get(url);
    if (!known) seen.set(url, { url, text });
    else if (text.length > known.text.length) known.text = text;
  }
  const title = collapse(document.querySelector('title')?.textContent);
  const meta = Array.from(document.querySelectorAll('meta[name]')).find((m) => (m.getAttribute('name') ?? '').toLowerCase() === 'description');
  const description = collapse(meta?.getAttribute('content'));
  return { ...(title ? { title } : {}), ...(description ? { description } : {}), links: [...seen.values()] };
}
