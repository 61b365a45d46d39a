/**
 * What the compatibility tests run against: one folio (in-process parse runner) with the local
 * test site opened to its fetcher and a SearXNG stand-in as its search backend, plus the README's
 * verdicts on folio's clear errors. One per test file.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { startFakeSearxng, type FakeServer } from '../web/fake-searxng.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { startSite, type TestSite } from '../web/site.ts';

export interface World {
  service: TestService;
  site: TestSite;
  searxng: FakeServer;
  /** The LLM of agent and extract: answers every turn at once with one JSON object (no tool calls). */
  llm: FakeOpenAi;
  stop(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const site = await startSite({ pages: 10 });
  const searxng = await startFakeSearxng();
  // Search results point at the local site, so search with scrapeOptions fetches real pages.
  searxng.webUrls = [`${site.url}/article.html`, `${site.url}/about.html`];
  const llm = await startFakeOpenAi();
  llm.respond(() => ({ content: '{"harbour": "Porthleven", "peakKw": 42}' }));
  const service = await startTestService(
    { runner: inProcessRunner() },
    { FOLIO_FETCH_ALLOW: site.hostPort, SEARXNG_ENDPOINT: searxng.url, FOLIO_CRAWL_CONCURRENCY: '4', OPENAI_BASE_URL: llm.baseUrl, MODEL_NAME: 'fake-model', LLM_STRUCTURED_OUTPUT: 'json_schema' },
  );
  return {
    service,
    site,
    searxng,
    llm,
    async stop() {
      await service.stop();
      await llm.close();
      await searxng.close();
      await site.close();
    },
  };
}

/** The README's verdict for something folio does not serve, and how folio's answer reads. */
export const VERDICTS = {
  /** Planned, not built yet: 400 NOT_YET_SUPPORTED (src/http/routes/not-yet-supported.ts). */
  'not yet': { codes: ['NOT_YET_SUPPORTED'], message: /is planned for folio but not in this build yet|not supported by this folio build yet|valid but not supported/ },
  /**
   * A Firecrawl cloud service folio does not provide: 404 NOT_FOUND naming it on its own paths,
   * 400 BAD_REQUEST when it rides on a path folio has (`alexandria` in a scrape body).
   */
  'not in folio': { codes: ['NOT_FOUND', 'BAD_REQUEST'], message: /is a Firecrawl cloud service that folio does not provide|Firecrawl's hosted [^.]*, which folio does not have/ },
} as const;

/** `refused by firecrawl-mcp`: the client answers itself (a deprecated tool), folio is not asked. */
export type Verdict = 'works' | 'refused by firecrawl-mcp' | keyof typeof VERDICTS;

/** The generic 404 of a path folio has no route for: never an acceptable answer to a real client. */
export const NO_ROUTE = /No route matches/;

export interface Exchange {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  status: number;
  /** folio's `code` and `error` when the answer was an error body. */
  code?: string;
  error?: string;
}

export interface Recorder {
  /** http://127.0.0.1:PORT: give this to the client instead of folio's URL. */
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/**
 * A transparent HTTP recorder in front of folio: every request is passed on unchanged and folio's
 * answer sent back unchanged; method, path, status and an error body's `code`/`error` are
 * recorded, so a test sees what folio answered however the client relays it. (WebSocket
 * upgrades are not relayed; the clients under test use plain HTTP here.)
 */
export async function startRecorder(target: string): Promise<Recorder> {
  const exchanges: Exchange[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers.host;
      const upstream = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const buf = Buffer.concat(body);
          const exchange: Exchange = { method: req.method ?? 'GET', path: req.url ?? '/', status: answer.statusCode ?? 0 };
          if (exchange.status >= 400) {
            try {
              const parsed = JSON.parse(buf.toString('utf8')) as { code?: unknown; error?: unknown };
              if (typeof parsed.code === 'string') exchange.code = parsed.code;
              if (typeof parsed.error === 'string') exchange.error = parsed.error;
            } catch {
              // not JSON: recorded without code and error
            }
          }
          exchanges.push(exchange);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(buf);
        });
      });
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
