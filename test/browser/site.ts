/**
 * A local site whose pages need a browser, served on 127.0.0.1 by the test itself, and a
 * "forbidden" server on another loopback port that the SSRF test must never reach.
 *
 *   /js.html          its text is written by an inline script
 *   /shell.html       an app shell (empty #root, scripts) filled by /static/app.js
 *   /click.html       the content appears behind a button
 *   /form.html        a form: type a name, submit, the page greets it
 *   /scroll.html      infinite scroll: 10 items, 10 more each time the bottom is reached
 *   /styled.html      a page to screenshot (a coloured block)
 *   /ssrf.html?p=P    scripts fetch, iframe, redirect and open WebSockets to loopback port P,
 *                     localhost, 10.0.0.1 and 169.254.169.254; it writes what happened
 *   /redirect-to?url  302 → url
 *   /cross.html       images from other.test, ads.doubleclick.net and rebind.test on this port
 *                     (the test's DNS answers 127.0.0.1 for them): third-party headers, blockAds,
 *                     a name resolving to loopback
 *   /pixel.png        a 1×1 PNG;  /hold.html loads /hold?ms=N, which answers after N ms
 *                     (`holdMax`: the most /hold requests in flight at once)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrowserSite {
  url: string;
  hostPort: string;
  requests: string[];
  /** Request headers of every request, in order. */
  requestHeaders: http.IncomingHttpHeaders[];
  /** The most /hold requests in flight at once. */
  holdMax(): number;
  close(): Promise<void>;
}

export interface Forbidden {
  port: number;
  /** Requests (and upgrade attempts) that reached it: must stay empty. */
  hits: string[];
  close(): Promise<void>;
}

const page = (title: string, body: string, head = '') => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const JS_PAGE = page(
  'Written by script',
  `<main id="out"></main><script>
document.getElementById('out').innerHTML = '<h1>Rendered Harbour Report</h1><p>' + ['Tides', 'rise', 'twice', 'daily'].join(' ') + ' at Aberdyfi.</p>';
</script>`,
);

const SHELL = page('Dashboard', '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/app.js"></script><script src="/static/vendor.js"></script>');
const APP_JS = `document.getElementById('root').innerHTML = '<h1>Shell Dashboard</h1><p>The application filled this root element with ' + (6 * 7) + ' widgets of tidal data, measured every hour at each harbour.</p>';`;

const CLICK = page(
  'Behind a click',
  `<h1>Teaser</h1><button id="more" onclick="document.getElementById('hidden').innerHTML = '<p>The secret harbour is Porthleven.</p>'">Show more</button><div id="hidden"></div>`,
);

const FORM = page(
  'A form',
  `<form id="f"><input id="name" name="name" autocomplete="off"><button id="send" type="submit">Send</button></form><p id="greeting"></p>
<script>document.getElementById('f').addEventListener('submit', (e) => { e.preventDefault(); document.getElementById('greeting').textContent = 'Hello, ' + document.getElementById('name').value + '!'; });</script>`,
);

const SCROLL = page(
  'Infinite scroll',
  `<ul id="list"></ul><script>
let n = 0;
function more() { const ul = document.getElementById('list'); for (let i = 0; i < 10; i++) { n++; const li = document.createElement('li'); li.textContent = 'Item ' + n; li.style.height = '120px'; ul.appendChild(li); } }
more();
window.addEventListener('scroll', () => { if (window.innerHeight + window.scrollY >= document.body.scrollHeight - 50) more(); });
</script>`,
);

const STYLED = page('Styled', '<div style="width:200px;height:100px;background:#c00">Red block</div><p>A page to screenshot.</p>', '<style>body{margin:0;background:#fff}</style>');

function ssrfPage(port: number): string {
  const targets = {
    loopback: `http://127.0.0.1:${port}/secret`,
    localhost: `http://localhost:${port}/secret`,
    private: 'http://10.0.0.1/secret',
    metadata: 'http://169.254.169.254/latest/meta-data/',
    redirected: `/redirect-to?url=${encodeURIComponent(`http://127.0.0.1:${port}/redirected`)}`,
  };
  return page(
    'SSRF probe',
    `<h1>Probe</h1><ul id="results"></ul>
<iframe src="http://169.254.169.254/latest/meta-data/iam/"></iframe>
<iframe src="/redirect-to?url=${encodeURIComponent(`http://127.0.0.1:${port}/framed`)}"></iframe>
<script>
const results = document.getElementById('results');
const note = (name, what) => { const li = document.createElement('li'); li.textContent = name + ': ' + what; results.appendChild(li); };
const targets = ${JSON.stringify(targets)};
for (const [name, url] of Object.entries(targets)) {
  fetch(url).then((r) => r.text()).then((t) => note(name, 'GOT ' + t.slice(0, 40)), () => note(name, 'failed'));
}
const ws = new WebSocket('ws://127.0.0.1:${port}/socket');
ws.onopen = () => note('websocket', 'OPEN');
ws.onerror = () => note('websocket', 'failed');
</script>`,
  );
}

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function crossPage(port: number): string {
  return page(
    'Third parties',
    `<h1>Cross</h1><img src="http://other.test:${port}/pixel.png?via=cross"><img src="http://ads.doubleclick.net:${port}/pixel.png?via=ad"><img src="http://rebind.test:${port}/pixel.png?via=rebind">`,
  );
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startBrowserSite(forbiddenPort = 1): Promise<BrowserSite> {
  const requests: string[] = [];
  const requestHeaders: http.IncomingHttpHeaders[] = [];
  let holding = 0;
  let holdMax = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.invalid');
    requests.push(`${url.pathname}${url.search}`);
    requestHeaders.push(req.headers);
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    switch (url.pathname) {
      case '/js.html':
        return html(JS_PAGE);
      case '/shell.html':
        return html(SHELL);
      case '/static/app.js':
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end(APP_JS);
      case '/static/vendor.js':
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end('window.vendor = true;');
      case '/click.html':
        return html(CLICK);
      case '/form.html':
        return html(FORM);
      case '/scroll.html':
        return html(SCROLL);
      case '/styled.html':
        return html(STYLED);
      case '/ssrf.html':
        return html(ssrfPage(Number(url.searchParams.get('p') ?? forbiddenPort)));
      case '/cross.html':
        return html(crossPage(req.socket.localPort ?? 0));
      case '/pixel.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(PIXEL);
      case '/hold.html':
        return html(page('Held', `<h1>Held page</h1><img src="/hold?ms=${Number(url.searchParams.get('ms') ?? 500)}&n=${Math.random()}">`));
      case '/hold': {
        holding++;
        holdMax = Math.max(holdMax, holding);
        setTimeout(() => {
          holding--;
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(PIXEL);
        }, Number(url.searchParams.get('ms') ?? 500));
        return;
      }
      case '/redirect-to':
        res.writeHead(302, { location: url.searchParams.get('url') ?? '/' });
        return res.end();
      default:
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end(page('Not found', '<p>Not found</p>'));
    }
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    requests,
    requestHeaders,
    holdMax: () => holdMax,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback server that must never be reached: it records every request and upgrade. */
export async function startForbidden(): Promise<Forbidden> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.end('forbidden secret');
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`upgrade ${req.url ?? ''}`);
    socket.destroy();
  });
  server.on('connection', () => hits.push('connection'));
  const port = await listen(server);
  return {
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
