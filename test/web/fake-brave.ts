/**
 * A fake Brave Search API on loopback (`{url}/res/v1`), speaking its real JSON: web search
 * (`type: "search"`, `query{…}`, `mixed{…}`, `web.results[]` with title, url, description holding
 * `<strong>` marks, page_age, age, profile, meta_url, thumbnail, extra_snippets…), news search
 * (`type: "news"`, `results[]` with thumbnail.src, age, breaking) and image search
 * (`type: "images"`, `results[]` with properties.url/width/height, thumbnail.src, source).
 * A wrong `X-Subscription-Token` gets Brave's 401 error body. `count` and `offset` page the
 * results (web: 45 in all; news: 30; images: 12).
 */
import type http from 'node:http';
import { sendJson, slug, startJsonServer, type FakeServer, type RecordedRequest } from './fake-searxng.ts';

export const BRAVE_TEST_KEY = 'BSA-test-subscription-token-1234567890';

function metaUrl(url: string) {
  const u = new URL(url);
  return { scheme: 'https', netloc: u.host, hostname: u.hostname, favicon: `https://imgs.search.brave.com/fav/${u.host}`, path: ` › ${u.pathname.slice(1)}` };
}

function queryBlock(q: string, country: string | undefined) {
  return {
    original: q,
    show_strict_warning: false,
    is_navigational: false,
    is_news_breaking: false,
    spellcheck_off: true,
    country: (country ?? 'us').toLowerCase(),
    bad_results: false,
    should_fallback: false,
    postal_code: '',
    city: '',
    header_country: '',
    more_results_available: true,
    state: '',
  };
}

export function braveWebUrl(q: string, n: number): string {
  return `https://brave${n}.example.com/${slug(q)}`;
}

function window(req: RecordedRequest, total: number, cap: number): number[] {
  const count = Math.min(cap, Number(req.params.count ?? '20'));
  const offset = Number(req.params.offset ?? '0');
  const first = offset * count + 1;
  return Array.from({ length: count }, (_, i) => first + i).filter((n) => n <= total);
}

function web(req: RecordedRequest, res: http.ServerResponse) {
  const q = req.params.q ?? '';
  const results = window(req, 45, 20).map((n) => {
    const url = braveWebUrl(q, n);
    return {
      title: `Brave <strong>${q}</strong> ${n}`,
      url,
      is_source_local: false,
      is_source_both: false,
      description: `Description <strong>${n}</strong> for ${q} &#39;quoted&#39;`,
      page_age: '2024-01-12T00:00:00',
      profile: { name: `Brave ${n}`, url, long_name: `brave${n}.example.com`, img: 'https://imgs.search.brave.com/p.png' },
      language: 'en',
      family_friendly: true,
      type: 'search_result',
      subtype: 'generic',
      meta_url: metaUrl(url),
      thumbnail: { src: 'https://imgs.search.brave.com/t.jpg', original: 'https://o.example.com/t.jpg', logo: false },
      age: 'January 12, 2024',
      extra_snippets: ['An extra snippet the adapter ignores.'],
    };
  });
  sendJson(res, 200, {
    type: 'search',
    query: queryBlock(q, req.params.country),
    mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }], top: [], side: [] },
    web: { type: 'search', results, family_friendly: true },
  });
}

function news(req: RecordedRequest, res: http.ServerResponse) {
  const q = req.params.q ?? '';
  const results = window(req, 30, 50).map((n) => {
    const url = `https://bravenews${n}.example.com/${slug(q)}`;
    return {
      type: 'news_result',
      title: `Brave news ${n}`,
      url,
      description: `News <strong>${q}</strong> ${n}`,
      age: `${n} hours ago`,
      page_age: `2024-06-0${Math.min(9, n)}T08:00:00`,
      breaking: false,
      meta_url: metaUrl(url),
      thumbnail: { src: `https://imgs.search.brave.com/news-${n}.jpg`, original: `https://o.example.com/news-${n}.jpg` },
      extra_snippets: [],
    };
  });
  sendJson(res, 200, { type: 'news', query: queryBlock(q, req.params.country), results });
}

function images(req: RecordedRequest, res: http.ServerResponse) {
  const q = req.params.q ?? '';
  const count = Math.min(100, Number(req.params.count ?? '50'));
  const results = Array.from({ length: Math.min(count, 12) }, (_, i) => i + 1).map((n) => {
    const url = `https://bravephotos.example.com/${slug(q)}/${n}`;
    return {
      type: 'image_result',
      title: `Brave image ${n}`,
      url,
      source: 'bravephotos.example.com',
      page_fetched: '2024-02-01T00:00:00Z',
      thumbnail: { src: `https://imgs.search.brave.com/thumb-${n}.jpg`, width: 200, height: 150 },
      properties: { url: `https://bravephotos.example.com/full-${n}.png`, placeholder: 'https://imgs.search.brave.com/ph.jpg', width: 1600 + n, height: 1200 + n },
      meta_url: metaUrl(url),
      confidence: 'high',
    };
  });
  sendJson(res, 200, { type: 'images', query: queryBlock(q, req.params.country), results, extra: { might_be_offensive: false } });
}

export function startFakeBrave(): Promise<FakeServer> {
  return startJsonServer((req, res, fake) => {
    if (fake.mode === 'slow') return;
    if (fake.mode === 'error') return sendJson(res, 503, { type: 'ErrorResponse', error: { status: 503, code: 'UNAVAILABLE', detail: 'Service unavailable' } });
    if (req.headers['x-subscription-token'] !== BRAVE_TEST_KEY) {
      return sendJson(res, 401, {
        type: 'ErrorResponse',
        error: { id: 'c1d2e3', status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', meta: { component: 'authentication' } },
        time: 1717171717,
      });
    }
    if (req.path === '/res/v1/web/search') return web(req, res);
    if (req.path === '/res/v1/news/search') return news(req, res);
    if (req.path === '/res/v1/images/search') return images(req, res);
    sendJson(res, 404, { type: 'ErrorResponse', error: { status: 404, code: 'NOT_FOUND', detail: 'Unknown endpoint' } });
  });
}
