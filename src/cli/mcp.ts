/**
 * `folio mcp`: the MCP tool server over stdio for a client on this machine (docs/mcp-stdio.md).
 * Parses in this process, or — with FOLIO_API_URL — on that folio server's
 * /v2/parse with FOLIO_API_KEY. Logs go to stderr; stdout carries protocol messages only.
 *
 * Scrape, map, crawl (and search, when a backend is configured here, else on FOLIO_API_URL's
 * server when that is set) run here with the same
 * SSRF-protected fetcher as `serve`. Crawl jobs live
 * in a SQLite file in a temp directory of this process (removed when it stops): a local server
 * has no DATA_DIR to rely on (clients start it in any directory, often `/`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { createRemoteRunner } from '../limits/remote-runner.ts';
import { inProcessRunner, type ParseRunner } from '../limits/runner.ts';
import { createLogger } from '../log.ts';
import { reserveStdoutForProtocol, startStdioServer } from '../mcp/stdio.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { startCrawling } from '../web/crawl/index.ts';
import { createFetcher } from '../web/fetch/fetcher.ts';
import { createRemoteSearch, createSearch, searchBackendsFromConfig } from '../web/search/index.ts';
import { scrape } from '../web/scrape.ts';
import { CliFailure, EXIT_OK, UsageError } from './io.ts';

export async function runMcp(args: string[], config: Config, cwd: string = process.cwd()): Promise<number> {
  if (args.length > 0) {
    throw new UsageError('mcp takes no arguments (configure it with FOLIO_ALLOWED_DIRS, FOLIO_API_URL and FOLIO_API_KEY)');
  }
  if (config.apiUrl !== undefined && config.apiKey === undefined) {
    throw new CliFailure(
      `FOLIO_API_URL is set (${config.apiUrl}) but FOLIO_API_KEY is not: set FOLIO_API_KEY to an API key of that server ` +
        "(in your MCP client's env settings, from an environment variable), or unset FOLIO_API_URL to parse on this machine.",
    );
  }

  // First: nothing but protocol messages may reach stdout from here on.
  const protocol = reserveStdoutForProtocol();
  const logger = createLogger({ level: config.logLevel, destination: pino.destination({ dest: 2, sync: true }) });

  let runner: ParseRunner;
  if (config.apiUrl !== undefined && config.apiKey !== undefined) {
    runner = createRemoteRunner({ apiUrl: config.apiUrl, apiKey: config.apiKey });
    logger.info({ apiUrl: config.apiUrl }, 'parsing on the folio server at FOLIO_API_URL');
  } else {
    // In this process: one user's client needs no pool, and starts in a second instead of several.
    // The timeout is enforced through the abort signal, between pages and sheets.
    runner = inProcessRunner({ ocr: { languages: config.ocrLanguages }, limits: config.sourceLimits, ...(config.llm ? { llm: config.llm } : {}) });
  }

  // A malformed FOLIO_FETCH_ALLOW fails here, before the client is answered.
  const fetcher = createFetcher({ allow: config.fetchAllow, ...(config.fetchProxy ? { proxyUrl: config.fetchProxy } : {}) });
  const crawlDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-mcp-'));
  const store = openSqliteStore(crawlDir);
  const crawls = await startCrawling({
    store,
    fetcher,
    scrapePage: (pageUrl, opts, run) => scrape({ ...opts, url: pageUrl }, { fetcher, runner }, { signal: run.signal }),
    concurrency: config.crawlConcurrency,
    onError: (detail, message) => logger.error(detail, message),
  });

  const fallbackRoots = config.allowedDirs.length > 0 ? [...config.allowedDirs] : [cwd];
  // Search is offered when a backend is configured here (SEARXNG_ENDPOINT or BRAVE_API_KEY), as on
  // /v2/mcp; without one, with FOLIO_API_URL, it runs on that server (whose backends answer).
  const local = createSearch({
    backends: searchBackendsFromConfig(config),
    scrape: (url, scrapeOptions, run) => scrape({ ...scrapeOptions, url }, { fetcher, runner }, run),
  });
  const search =
    local.backends.length > 0 ? local : config.apiUrl !== undefined && config.apiKey !== undefined ? createRemoteSearch({ apiUrl: config.apiUrl, apiKey: config.apiKey }) : undefined;
  if (search) logger.info({ search: search.backends }, 'search tool offered');
  else logger.info('search tool not offered: no SEARXNG_ENDPOINT, BRAVE_API_KEY or FOLIO_API_URL');
  const tools = { runner, fetcher, crawls, ...(search ? { search } : {}) };
  const server = await startStdioServer({ tools, logger, fallbackRoots, stdout: protocol });
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'stop signal received');
    void server.close();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await server.closed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await crawls.close();
    await fetcher.close();
    await store.close();
    fs.rmSync(crawlDir, { recursive: true, force: true });
    logger.info('stopped');
  }
  return EXIT_OK;
}
