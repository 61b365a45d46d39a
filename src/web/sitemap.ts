/**
 * Sitemaps (sitemaps.org protocol) for map and crawl: the `Sitemap:` lines of robots.txt and
 * `/sitemap.xml`, XML `<urlset>` and `<sitemapindex>` documents (an index is followed, nested at
 * most MAX_INDEX_DEPTH deep and at most `maxSitemaps` files in all), gzip-compressed files
 * (detected by their magic bytes, whatever the name or content type), and plain-text sitemaps
 * (one URL per line). A sitemap that cannot be fetched or read is skipped: sitemaps are hints.
 */
import { gunzipSync } from 'node:zlib';
import type { Fetcher } from './fetch/types.ts';
import { isServiceError } from '../errors.ts';

/** sitemaps.org: a sitemap is at most 50 MB uncompressed. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Index → index → … nesting followed. */
export const MAX_INDEX_DEPTH = 3;
export const DEFAULT_MAX_SITEMAPS = 50;

export interface SitemapOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sitemap files fetched in all (indexes included). */
  maxSitemaps?: number;
  /** Stop once this many page URLs were found. */
  maxUrls: number;
}

export interface SitemapResult {
  /** Page URLs in sitemap order, deduplicated. */
  urls: string[];
  /** Sitemap files read. */
  sitemapsRead: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(raw: string): string {
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(raw);
  if (cdata) return (cdata[1] ?? '').trim();
  return raw
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .trim();
}

export interface ParsedSitemap {
  kind: 'index' | 'urlset' | 'text';
  locations: string[];
}

/** The bytes of a sitemap file, gunzipped when they are gzip (magic 1f 8b). */
export function sitemapText(body: Buffer): string {
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    return gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES }).toString('utf8');
  }
  return body.toString('utf8');
}

/** The `<loc>` values of an XML sitemap or index, or the URL lines of a text sitemap. */
export function parseSitemap(text: string): ParsedSitemap {
  const head = text.slice(0, 4096);
  if (/<(?:[\w-]+:)?(?:sitemapindex|urlset)\b/i.test(text)) {
    const kind = /<(?:[\w-]+:)?sitemapindex\b/i.test(text) ? 'index' : 'urlset';
    const locations = [...text.matchAll(/<(?:[\w-]+:)?loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/gi)].map((m) => decodeXmlText(m[1] ?? ''));
    return { kind, locations: locations.filter((l) => l !== '') };
  }
  if (/^\s*</.test(head)) return { kind: 'urlset', locations: [] };
  const locations = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^https?:\/\//i.test(l));
  return { kind: 'text', locations };
}

function absolute(raw: string, base: string): string | undefined {
  try {
    const url = new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the sitemaps at `seeds` (and the sitemaps their indexes name), breadth first, and
 * returns the page URLs. Fetch failures and unreadable files are skipped; an abort is thrown.
 */
export async function collectSitemapUrls(fetcher: Fetcher, seeds: readonly string[], options: SitemapOptions): Promise<SitemapResult> {
  const maxSitemaps = options.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
  const queue: { url: string; depth: number }[] = [];
  const queued = new Set<string>();
  for (const seed of seeds) {
    if (!queued.has(seed)) {
      queued.add(seed);
      queue.push({ url: seed, depth: 0 });
    }
  }
  const urls = new Set<string>();
  let sitemapsRead = 0;
  while (queue.length > 0 && sitemapsRead < maxSitemaps && urls.size < options.maxUrls) {
    options.signal?.throwIfAborted();
    const next = queue.shift() as { url: string; depth: number };
    let parsed: ParsedSitemap;
    let finalUrl: string;
    try {
      const res = await fetcher.fetch({
        url: next.url,
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_SITEMAP_BYTES,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      sitemapsRead += 1;
      if (res.status < 200 || res.status >= 300) continue;
      finalUrl = res.url;
      parsed = parseSitemap(sitemapText(res.body));
    } catch (err) {
      options.signal?.throwIfAborted();
      if (isServiceError(err) || err instanceof Error) continue;
      throw err;
    }
    for (const loc of parsed.locations) {
      const url = absolute(loc, finalUrl);
      if (!url) continue;
      if (parsed.kind === 'index') {
        if (next.depth + 1 <= MAX_INDEX_DEPTH && !queued.has(url)) {
          queued.add(url);
          queue.push({ url, depth: next.depth + 1 });
        }
      } else {
        urls.add(url);
        if (urls.size >= options.maxUrls) break;
      }
    }
  }
  return { urls: [...urls], sitemapsRead };
}

/** Where a site's sitemaps are: its robots.txt `Sitemap:` lines and `/sitemap.xml`. */
export function sitemapSeeds(origin: string, robotsSitemaps: readonly string[]): string[] {
  const fallback = new URL('/sitemap.xml', origin).href;
  const seeds = robotsSitemaps.map((s) => absolute(s, origin)).filter((s): s is string => s !== undefined);
  return seeds.includes(fallback) ? seeds : [...seeds, fallback];
}
