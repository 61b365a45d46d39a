/**
 * Brave Search API adapter (`X-Subscription-Token` header; base `BRAVE_SEARCH_URL`, by default
 * https://api.search.brave.com/res/v1):
 *
 *   web    GET /web/search?q&count≤20&offset≤9&result_filter=web   → web.results[]
 *   news   GET /news/search?q&count≤50&offset≤9                    → results[]
 *   images GET /images/search?q&count≤100                           → results[]
 *
 * `tbs` → `freshness` (pd/pw/pm/py, or `YYYY-MM-DDtoYYYY-MM-DD` for other spans and custom
 * ranges); location/country/lang → `country` and `search_lang`. Read: title, url, description
 * (its `<strong>` marks stripped), age/page_age, thumbnail.src, properties.url/width/height;
 * everything else in the answer (profile, meta_url, extra_snippets, mixed, query, …) is ignored.
 */
import { field, getBackendJson, list, num, str } from './backend-http.ts';
import type { BackendHit, BackendQuery, BackendResult, SearchBackend } from './backend.ts';
import type { SearchSource } from './request.ts';
import type { TimeFilter } from './tbs.ts';
import { absoluteHttpUrl, plainText, spanDays } from './text.ts';

const ENDPOINT: Record<SearchSource, string> = { web: 'web/search', news: 'news/search', images: 'images/search' };
/** Per-request `count` caps of the API. */
const PAGE_SIZE: Record<SearchSource, number> = { web: 20, news: 50, images: 100 };
const MAX_OFFSET = 9;

const SHORT: Partial<Record<string, string>> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function freshness(filter: TimeFilter | undefined, source: SearchSource, warnings: string[], now = Date.now()): string | undefined {
  if (filter === undefined) return undefined;
  if (source === 'images') {
    warnings.push('Brave Search cannot filter images by date; `tbs` was not applied to images.');
    return undefined;
  }
  if (filter.kind === 'range') return `${filter.from ?? '1970-01-01'}to${filter.to ?? isoDay(now)}`;
  if (filter.count === 1 && SHORT[filter.unit]) return SHORT[filter.unit];
  if (filter.unit === 'hour') warnings.push('Brave Search has no range shorter than a day; the past day was searched.');
  const days = Math.max(1, Math.ceil(spanDays(filter)));
  return days === 1 ? 'pd' : `${isoDay(now - days * 86_400_000)}to${isoDay(now)}`;
}

function toHit(source: SearchSource, r: unknown): BackendHit | undefined {
  const url = absoluteHttpUrl(str(r, 'url'));
  if (!url) return undefined;
  const hit: BackendHit = { url, title: plainText(str(r, 'title') ?? ''), description: plainText(str(r, 'description') ?? '') };
  const date = str(r, 'page_age') ?? str(r, 'age');
  if (date) hit.date = date;
  const thumbnail = field(r, 'thumbnail');
  if (source === 'images') {
    const props = field(r, 'properties');
    const image = absoluteHttpUrl(str(props, 'url')) ?? absoluteHttpUrl(str(thumbnail, 'src'));
    if (!image) return undefined;
    hit.imageUrl = image;
    const width = num(props, 'width') ?? num(thumbnail, 'width');
    const height = num(props, 'height') ?? num(thumbnail, 'height');
    if (width !== undefined) hit.imageWidth = width;
    if (height !== undefined) hit.imageHeight = height;
  } else if (source === 'news') {
    const image = absoluteHttpUrl(str(thumbnail, 'src'));
    if (image) hit.imageUrl = image;
  }
  return hit;
}

function explainStatus(status: number): string | undefined {
  if (status === 401 || status === 403) return 'the subscription token was refused; check BRAVE_API_KEY';
  if (status === 429) return 'the plan’s rate limit or quota was reached; retry later';
  if (status === 422) return 'the query parameters were refused';
  return undefined;
}

export function braveBackend(apiKey: string, baseUrl: string): SearchBackend {
  const name = 'Brave Search';
  return {
    name,
    async search(q: BackendQuery): Promise<BackendResult> {
      const warnings: string[] = [];
      const fresh = freshness(q.timeFilter, q.source, warnings);
      const pageSize = Math.min(PAGE_SIZE[q.source], q.count);
      const hits: BackendHit[] = [];
      const seen = new Set<string>();
      for (let offset = 0; offset <= MAX_OFFSET && hits.length < q.count; offset++) {
        const url = new URL(`${baseUrl}/${ENDPOINT[q.source]}`);
        url.searchParams.set('q', q.query);
        url.searchParams.set('count', String(pageSize));
        if (q.source !== 'images') url.searchParams.set('offset', String(offset));
        if (q.source === 'web') url.searchParams.set('result_filter', 'web');
        if (fresh) url.searchParams.set('freshness', fresh);
        if (q.country) url.searchParams.set('country', q.country);
        if (q.language) url.searchParams.set('search_lang', (q.language.split('-')[0] ?? q.language).toLowerCase());
        const body = await getBackendJson({
          backend: name,
          url,
          headers: { 'x-subscription-token': apiKey },
          signal: q.signal,
          explainStatus,
        });
        const results = q.source === 'web' ? list(field(body, 'web'), 'results') : list(body, 'results');
        let added = 0;
        for (const r of results) {
          const hit = toHit(q.source, r);
          if (!hit || seen.has(hit.url)) continue;
          seen.add(hit.url);
          hits.push(hit);
          added++;
        }
        // Images have no offset; a short page means there is no next one.
        if (q.source === 'images' || added === 0 || results.length < pageSize) break;
      }
      return { hits, warnings };
    },
  };
}
