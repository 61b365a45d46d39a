/**
 * SearXNG adapter: `GET {SEARXNG_ENDPOINT}/search?q=…&format=json` (SearXNG "Search API").
 * The instance must list `json` in `search.formats` of its settings.yml, else it answers 403.
 *
 *   sources web/news/images → categories general/news/images
 *   tbs qdr:* → time_range day|week|month|year (the smallest that covers the asked span)
 *   location/country/lang → language (e.g. de-DE)
 *
 * From each answer only `results[]` is read (url, title, content, publishedDate, img_src,
 * thumbnail_src, thumbnail, resolution); `answers`, `infoboxes`, `suggestions`, engine scores and
 * the rest are ignored. SearXNG pages its results (about 10–20 a page); the adapter asks for more
 * pages until it has `count` distinct URLs, a page brings none, or five pages were read.
 */
import { getBackendJson, list, str } from './backend-http.ts';
import type { BackendHit, BackendQuery, BackendResult, SearchBackend } from './backend.ts';
import type { SearchSource } from './request.ts';
import type { TimeFilter } from './tbs.ts';
import { absoluteHttpUrl, plainText, spanDays, withinRange } from './text.ts';

const CATEGORY: Record<SearchSource, string> = { web: 'general', news: 'news', images: 'images' };
const MAX_PAGES = 5;

/** SearXNG's time ranges, smallest first, with the days each covers. */
const RANGES: [string, number][] = [
  ['day', 1],
  ['week', 7],
  ['month', 31],
  ['year', 366],
];

function timeRange(filter: TimeFilter | undefined, warnings: string[]): string | undefined {
  if (filter === undefined) return undefined;
  if (filter.kind === 'range') {
    warnings.push('SearXNG has no custom date range: results dated outside it were dropped, undated results kept.');
    return undefined;
  }
  const days = spanDays(filter);
  const range = RANGES.find(([, d]) => d >= days);
  if (!range) {
    warnings.push(`SearXNG's longest time range is a year; results were not limited to the past ${filter.count} ${filter.unit}s.`);
    return undefined;
  }
  const exact = filter.count === 1 && filter.unit === range[0];
  if (!exact) warnings.push(`SearXNG has no range of ${filter.count} ${filter.unit}(s); the past ${range[0]} was searched.`);
  return range[0];
}

function toHit(source: SearchSource, r: unknown): BackendHit | undefined {
  const url = absoluteHttpUrl(str(r, 'url'));
  if (!url) return undefined;
  const hit: BackendHit = { url, title: plainText(str(r, 'title') ?? ''), description: plainText(str(r, 'content') ?? '') };
  const date = str(r, 'publishedDate') ?? str(r, 'pubdate');
  if (date) hit.date = date;
  if (source === 'images') {
    const image = absoluteHttpUrl(str(r, 'img_src')) ?? absoluteHttpUrl(str(r, 'thumbnail_src'));
    if (!image) return undefined;
    hit.imageUrl = image;
    const m = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(str(r, 'resolution') ?? '');
    if (m) {
      hit.imageWidth = Number(m[1]);
      hit.imageHeight = Number(m[2]);
    }
  } else if (source === 'news') {
    const image = absoluteHttpUrl(str(r, 'thumbnail')) ?? absoluteHttpUrl(str(r, 'img_src'));
    if (image) hit.imageUrl = image;
  }
  return hit;
}

export function searxngBackend(endpoint: string): SearchBackend {
  const name = 'SearXNG';
  return {
    name,
    async search(q: BackendQuery): Promise<BackendResult> {
      const warnings: string[] = [];
      const range = timeRange(q.timeFilter, warnings);
      const hits: BackendHit[] = [];
      const seen = new Set<string>();
      const pages = Math.min(MAX_PAGES, Math.ceil(q.count / 10) + 1);
      for (let page = 1; page <= pages && hits.length < q.count; page++) {
        const url = new URL(`${endpoint}/search`);
        url.searchParams.set('q', q.query);
        url.searchParams.set('format', 'json');
        url.searchParams.set('categories', CATEGORY[q.source]);
        url.searchParams.set('pageno', String(page));
        if (q.language) url.searchParams.set('language', q.language);
        if (range) url.searchParams.set('time_range', range);
        const body = await getBackendJson({
          backend: name,
          url,
          signal: q.signal,
          explainStatus: (status) =>
            status === 403 ? 'enable the JSON API by adding `json` to `search.formats` in its settings.yml' : undefined,
        });
        let added = 0;
        for (const r of list(body, 'results')) {
          const hit = toHit(q.source, r);
          if (!hit || seen.has(hit.url)) continue;
          if (q.timeFilter?.kind === 'range' && !withinRange(hit.date, q.timeFilter)) continue;
          seen.add(hit.url);
          hits.push(hit);
          added++;
        }
        if (added === 0) break;
      }
      return { hits, warnings };
    },
  };
}
