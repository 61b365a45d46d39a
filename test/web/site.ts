/**
 * A local test web site, served on 127.0.0.1 by the test itself, for scrape, map and crawl.
 *
 *   /                      home: links to the articles, the documents and the page graph
 *   /article.html          an article with nav, header, footer, meta tags, relative links
 *   /about.html            a short page; /private/secret.html (disallowed by robots.txt)
 *   /pages/N.html          a page graph of `pages` pages (default 30): each links to N+1, 2N, 2N+1
 *   /docs/paper.pdf        a corpus PDF (application/pdf)
 *   /docs/report.docx      a corpus DOCX
 *   /download/paper        the same PDF without an extension (type from Content-Type only)
 *   /download/octet        the same PDF as application/octet-stream, no extension (bytes decide)
 *   /robots.txt            Disallow: /private/, Sitemap: /sitemap-index.xml
 *   /sitemap-index.xml     sitemap index → /sitemap-pages.xml.gz (gzip file) and /sitemap-docs.xml
 *   /redirect              302 → /article.html;  /redirect-chain/N → … → /article.html
 *   /redirect-loop         redirects to itself forever
 *   /redirect-to?url=U     302 → U (any URL: another port, a private address, file:)
 *   /missing               404 with an HTML page;  /error → 500
 *   /slow?ms=N             waits N ms before answering;  /slow-body?ms=N sends half, then stalls
 *   /huge                  60 MB streamed (no Content-Length);  /huge-declared announces 60 MB
 *   /gzip.html             a page sent with Content-Encoding: gzip
 *   /echo-headers          an HTML page listing the request headers it received
 *   /app-shell             an empty JavaScript app shell (root div + scripts)
 *   /image.png, /notes.txt content types parse cannot read
 *   /similar/              one page under five names (/similar/, /similar/index.html, /similar/index.htm,
 *                          and /similar/child, /similar/child/ for its child), linked under each name
 *                          and with a #fragment: crawl's deduplicateSimilarURLs
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { readCorpus } from '../helpers/corpus.ts';

export interface TestSite {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  host: string;
  port: number;
  /** `127.0.0.1:PORT`, the FOLIO_FETCH_ALLOW entry for this site only. */
  hostPort: string;
  /** Paths requested so far, in order (with query strings). */
  requests: string[];
  /** Request headers of every request, in order. */
  requestHeaders: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

export interface SiteOptions {
  /** Size of the /pages/N.html graph. */
  pages?: number;
}

export const PDF_FILE = ['pdf', 'pdfjs', 'basicapi.pdf'] as const;
export const DOCX_FILE = ['office', 'docx', 'kreuzberg-extraction_test.docx'] as const;
export const HUGE_BYTES = 60 * 1024 * 1024;

const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const NAV = '<nav><a href="/">Home</a> | <a href="/about.html">About</a> | <a href="/article.html">Article</a></nav>';
const FOOTER = '<footer><p>Copyright Folio Test Site. <a href="/privacy.html">Privacy</a></p></footer>';

const ARTICLE = page(
  'Tidal Energy in Small Harbours',
  `<header>${NAV}</header>
<main><article>
<h1>Tidal Energy in Small Harbours</h1>
<p>Small harbours see two tides a day, and each tide moves a predictable volume of water through a narrow mouth.</p>
<h2>Measured output</h2>
<table><thead><tr><th>Harbour</th><th>Peak kW</th></tr></thead>
<tbody><tr><td>Aberdyfi</td><td>120</td></tr><tr><td>Porthleven</td><td>85</td></tr></tbody></table>
<p>See the <a href="/docs/paper.pdf">full paper</a>, the <a href="docs/report.docx">field report</a> and <a href="https://example.org/tides">the tide tables</a>.</p>
<img src="/img/turbine.png" alt="A turbine">
</article></main>
${FOOTER}`,
  '<meta name="description" content="How small harbours can generate power from the tide."><meta name="keywords" content="tidal, energy"><meta property="og:title" content="Tidal Energy (OG)"><script>window.tracking = 1;</script>',
);

const APP_SHELL = page(
  'Dashboard',
  '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.4f3a.js"></script><script src="/static/js/vendor.91c2.js"></script>',
);

function graphPage(n: number, total: number): string {
  const links = [n + 1, 2 * n, 2 * n + 1].filter((m) => m >= 1 && m <= total);
  return page(
    `Page ${n}`,
    `<main><h1>Page ${n}</h1><p>This is page number ${n} of the test graph; it talks about topic ${n % 7}.</p><ul>${links
      .map((m) => `<li><a href="/pages/${m}.html">Page ${m}</a></li>`)
      .join('')}</ul></main>`,
  );
}

function sitemap(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u}</loc></url>`)
    .join('')}</urlset>`;
}

export async function startSite(options: SiteOptions = {}): Promise<TestSite> {
  const total = options.pages ?? 30;
  const pdf = readCorpus(...PDF_FILE);
  const docx = readCorpus(...DOCX_FILE);
  const requests: string[] = [];
  const requestHeaders: http.IncomingHttpHeaders[] = [];
  let origin = '';

  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', origin);
    requests.push(`${u.pathname}${u.search}`);
    requestHeaders.push(req.headers);
    const send = (status: number, type: string, body: string | Buffer, extra: http.OutgoingHttpHeaders = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const html = (body: string, status = 200) => send(status, 'text/html; charset=utf-8', body);
    const redirect = (to: string, status = 302) => {
      res.writeHead(status, { location: to, 'content-length': 0 });
      res.end();
    };
    const p = u.pathname;
    const graph = /^\/pages\/(\d+)\.html$/.exec(p);
    const chain = /^\/redirect-chain\/(\d+)$/.exec(p);
    if (p === '/') {
      return html(
        page(
          'Folio Test Site',
          `${NAV}<main><h1>Folio Test Site</h1><ul><li><a href="/article.html">Tidal energy</a></li><li><a href="/about.html">About us</a></li><li><a href="/docs/paper.pdf">Paper (PDF)</a></li><li><a href="/docs/report.docx">Report (DOCX)</a></li><li><a href="/pages/1.html">Page graph</a></li><li><a href="/private/secret.html">Staff only</a></li></ul></main>${FOOTER}`,
        ),
      );
    }
    if (p === '/article.html' || p === '/index.html') return html(ARTICLE);
    if (p === '/similar/' || p === '/similar/index.html' || p === '/similar/index.htm') {
      const links = ['/similar/', '/similar/index.html', '/similar/index.htm', '/similar/#top', '/similar/child', '/similar/child/', '/similar/child#part'];
      return html(page('Similar', `<main><h1>Similar</h1><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></main>`));
    }
    if (p === '/similar/child' || p === '/similar/child/') return html(page('Similar child', '<main><h1>Child</h1><p><a href="/similar/index.html">Up</a></p></main>'));
    if (p === '/about.html') return html(page('About', `${NAV}<main><h1>About</h1><p>A site that exists only for tests.</p></main>${FOOTER}`));
    if (p === '/privacy.html') return html(page('Privacy', '<main><h1>Privacy</h1><p>No data is kept.</p></main>'));
    if (p === '/private/secret.html') return html(page('Secret', '<main><h1>Secret</h1><p>Robots should not see this.</p></main>'));
    if (graph) {
      const n = Number(graph[1]);
      if (n >= 1 && n <= total) return html(graphPage(n, total));
    }
    if (p === '/docs/paper.pdf') return send(200, 'application/pdf', pdf);
    if (p === '/docs/report.docx') return send(200, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx);
    if (p === '/download/paper') return send(200, 'application/pdf', pdf);
    if (p === '/download/octet') return send(200, 'application/octet-stream', pdf);
    if (p === '/robots.txt') return send(200, 'text/plain', `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap-index.xml\n`);
    if (p === '/sitemap-index.xml') {
      return send(
        200,
        'application/xml',
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap><sitemap><loc>${origin}/sitemap-docs.xml</loc></sitemap></sitemapindex>`,
      );
    }
    if (p === '/sitemap-pages.xml.gz') {
      const urls = Array.from({ length: total }, (_, i) => `${origin}/pages/${i + 1}.html`);
      return send(200, 'application/gzip', zlib.gzipSync(sitemap([`${origin}/`, `${origin}/article.html`, ...urls])));
    }
    if (p === '/sitemap-docs.xml') return send(200, 'application/xml', sitemap([`${origin}/docs/paper.pdf`, `${origin}/docs/report.docx`, `${origin}/about.html`]));
    if (p === '/redirect') return redirect('/article.html');
    if (chain) {
      const n = Number(chain[1]);
      return redirect(n <= 1 ? '/article.html' : `/redirect-chain/${n - 1}`, 301);
    }
    if (p === '/redirect-loop') return redirect('/redirect-loop');
    if (p === '/redirect-to') return redirect(u.searchParams.get('url') ?? '/', Number(u.searchParams.get('status') ?? 302));
    if (p === '/missing') return html(page('Not Found', '<main><h1>Not Found</h1><p>There is no page here.</p></main>'), 404);
    if (p === '/error') return html(page('Server Error', '<main><h1>Oops</h1><p>Something broke.</p></main>'), 500);
    if (p === '/slow') {
      const timer = setTimeout(() => html(page('Slow', '<p>Finally.</p>')), Number(u.searchParams.get('ms') ?? 5000));
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (p === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><p>First half');
      const timer = setTimeout(() => res.end('</p></body></html>'), Number(u.searchParams.get('ms') ?? 5000));
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (p === '/huge' || p === '/huge-declared') {
      const chunk = Buffer.from(`<p>${'x'.repeat(65_530)}</p>`);
      res.writeHead(200, { 'content-type': 'text/html', ...(p === '/huge-declared' ? { 'content-length': HUGE_BYTES } : {}) });
      let sent = 0;
      const pump = () => {
        while (sent < HUGE_BYTES) {
          const piece = chunk.subarray(0, Math.min(chunk.length, HUGE_BYTES - sent));
          sent += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => (sent = HUGE_BYTES));
      pump();
      return;
    }
    if (p === '/gzip.html') {
      const body = zlib.gzipSync(page('Compressed', '<main><h1>Compressed page</h1><p>This page travelled gzip-encoded.</p></main>'));
      return send(200, 'text/html', body, { 'content-encoding': 'gzip' });
    }
    if (p === '/echo-headers') {
      const rows = Object.entries(req.headers)
        .map(([k, v]) => `<li>${k}: ${String(v)}</li>`)
        .join('');
      return html(page('Headers', `<main><h1>Headers</h1><ul>${rows}</ul></main>`));
    }
    if (p === '/app-shell') return html(APP_SHELL);
    if (p === '/image.png') return send(200, 'image/png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    if (p === '/notes.txt') return send(200, 'text/plain', 'Just some notes.');
    return html(page('Not Found', '<p>No such page.</p>'), 404);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    host: '127.0.0.1',
    port,
    hostPort: `127.0.0.1:${port}`,
    requests,
    requestHeaders,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
