/**
 * A fake SearXNG instance on loopback speaking SearXNG's real JSON format (`/search?format=json`):
 * `results[]` with url, title, content, engine, engines, positions, parsed_url, template, score,
 * category, publishedDate, thumbnail, img_src, thumbnail_src, resolution, img_format; plus the
 * top-level `number_of_results`, `answers`, `corrections`, `infoboxes`, `suggestions` and
 * `unresponsive_engines` that the adapter must ignore. Results are made from the query, ten per
 * page, three pages; page 2 repeats a page-1 URL and a fragment variant of another (dedupe).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  params: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** 'ok' answers; 'forbidden' is SearXNG without the json format; 'error' a 500; 'slow' never answers. */
  mode: 'ok' | 'forbidden' | 'error' | 'slow' | 'html';
  /** When set, the general results of every query are exactly these URLs (one page). */
  webUrls?: string[];
  close(): Promise<void>;
}

export async function startJsonServer(handle: (req: RecordedRequest, res: http.ServerResponse, server: FakeServer) => void): Promise<FakeServer> {
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    const recorded: RecordedRequest = { path: u.pathname, params: Object.fromEntries(u.searchParams), headers: req.headers };
    fake.requests.push(recorded);
    handle(recorded, res, fake);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    mode: 'ok',
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return fake;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The query's words, without the operators an engine interprets (site:, filetype:, OR). */
export function slug(q: string): string {
  const words = q
    .replace(/[()]/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 0 && t !== 'OR' && !/^-?(site|filetype):/.test(t));
  return words.join(' ').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function parsedUrl(url: string): string[] {
  const u = new URL(url);
  return [u.protocol.replace(':', ''), u.host, u.pathname, '', u.search.slice(1), u.hash.slice(1)];
}

/** The URL of general result n (1-based) for a query. */
export function searxngWebUrl(q: string, n: number): string {
  return `https://site${n}.example.org/${slug(q)}/page-${n}`;
}

function generalResult(q: string, n: number, url = searxngWebUrl(q, n)) {
  return {
    url,
    title: `Result ${n} about ${q}`,
    content: `Snippet ${n} &amp; more about ${q}.`,
    thumbnail: '',
    engine: 'duckduckgo',
    template: 'default.html',
    parsed_url: parsedUrl(url),
    img_src: '',
    priority: '',
    engines: ['duckduckgo', 'wikipedia'],
    positions: [n, n + 1],
    score: 10 / n,
    category: 'general',
    publishedDate: null,
  };
}

function newsResult(q: string, n: number) {
  const url = `https://news${n}.example.net/${slug(q)}`;
  return {
    url,
    title: `News ${n}: ${q}`,
    content: `News snippet ${n}.`,
    publishedDate: `2024-05-0${Math.min(9, n)}T10:00:00`,
    thumbnail: `//img.example.net/news-${n}.jpg`,
    engine: 'bing news',
    template: 'default.html',
    parsed_url: parsedUrl(url),
    engines: ['bing news'],
    positions: [n],
    score: 1 / n,
    category: 'news',
  };
}

function imageResult(q: string, n: number) {
  const url = `https://photos.example.com/${slug(q)}/${n}`;
  return {
    template: 'images.html',
    url,
    title: `Image ${n} of ${q}`,
    content: '',
    img_src: `https://cdn.example.com/${slug(q)}-${n}.jpg`,
    thumbnail_src: `https://cdn.example.com/thumbs/${slug(q)}-${n}.jpg`,
    resolution: `${800 + n} x ${600 + n}`,
    img_format: 'jpeg',
    source: 'photos.example.com',
    engine: 'bing images',
    parsed_url: parsedUrl(url),
    engines: ['bing images'],
    positions: [n],
    score: 1 / n,
    category: 'images',
    publishedDate: null,
  };
}

const PER_PAGE = 10;
const PAGES = 3;

/** Answers for a query starting with "mixed": hosts of every kind, for filters and categories. */
export const MIXED_URLS = [
  'https://github.com/folio/folio',
  'http://localhost:8080/admin',
  'https://10.0.0.5/internal',
  'https://user:secret@example.com/private',
  'https://papers.example.com/paper.pdf',
  'https://arxiv.org/abs/2401.00001',
  'https://intranet/home',
  'https://[::1]/x',
];

function page(q: string, category: string, pageno: number, webUrls?: string[]) {
  if (pageno > PAGES) return [];
  if (webUrls && category === 'general') return pageno === 1 ? webUrls.map((url, i) => generalResult(q, i + 1, url)) : [];
  if (q.startsWith('mixed')) return pageno === 1 ? MIXED_URLS.map((url, i) => generalResult(q, i + 1, url)) : [];
  const first = (pageno - 1) * PER_PAGE + 1;
  const ns = Array.from({ length: PER_PAGE }, (_, i) => first + i);
  if (category === 'news') return ns.map((n) => newsResult(q, n));
  if (category === 'images') return ns.map((n) => imageResult(q, n));
  const results = ns.map((n) => generalResult(q, n));
  if (pageno === 2) {
    // A URL page 1 already had, and a fragment variant of another: one page each after dedupe.
    results[0] = generalResult(q, 11, searxngWebUrl(q, 2));
    results[1] = generalResult(q, 12, `${searxngWebUrl(q, 3)}#section`);
  }
  // A result without a URL (SearXNG answers can carry these) must be skipped.
  if (pageno === 1) results.splice(4, 0, { ...generalResult(q, 99), url: null as unknown as string });
  return results;
}

export function startFakeSearxng(): Promise<FakeServer> {
  return startJsonServer((req, res, fake) => {
    if (req.path !== '/search') return sendJson(res, 404, { error: 'not found' });
    if (fake.mode === 'slow') return; // never answers
    if (fake.mode === 'error') return sendJson(res, 500, { error: 'Internal Server Error' });
    if (fake.mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>SearXNG</title>');
      return;
    }
    if (req.params.format !== 'json' || fake.mode === 'forbidden') {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<h1>403 Forbidden</h1>');
      return;
    }
    const q = req.params.q ?? '';
    const results = page(q, req.params.categories ?? 'general', Number(req.params.pageno ?? '1'), fake.webUrls);
    sendJson(res, 200, {
      query: q,
      number_of_results: 123000,
      results,
      answers: [{ answer: '42', url: null, engine: 'wikidata' }],
      corrections: [],
      infoboxes: [{ infobox: q, id: 'https://en.wikipedia.org/wiki/X', content: 'An infobox the adapter ignores.', img_src: null, urls: [], engine: 'wikipedia', engines: ['wikipedia'] }],
      suggestions: [`${q} tutorial`],
      unresponsive_engines: [['google', 'timeout']],
    });
  });
}
