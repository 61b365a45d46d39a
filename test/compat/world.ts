/**
 * What the compatibility tests run against: one folio (in-process parse runner) with the local
 * test site opened to its fetcher and a SearXNG stand-in as its search backend, plus the README's
 * verdicts on folio's clear errors. One per test file.
 */
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { startFakeSearxng, type FakeServer } from '../web/fake-searxng.ts';
import { startSite, type TestSite } from '../web/site.ts';

export interface World {
  service: TestService;
  site: TestSite;
  searxng: FakeServer;
  stop(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const site = await startSite({ pages: 10 });
  const searxng = await startFakeSearxng();
  // Search results point at the local site, so search with scrapeOptions fetches real pages.
  searxng.webUrls = [`${site.url}/article.html`, `${site.url}/about.html`];
  const service = await startTestService({ runner: inProcessRunner() }, { FOLIO_FETCH_ALLOW: site.hostPort, SEARXNG_ENDPOINT: searxng.url, FOLIO_CRAWL_CONCURRENCY: '4' });
  return {
    service,
    site,
    searxng,
    async stop() {
      await service.stop();
      await searxng.close();
      await site.close();
    },
  };
}

/** The README's verdict for something folio does not serve, and how folio's answer reads. */
export const VERDICTS = {
  /** Planned, not built yet: 400 NOT_YET_SUPPORTED (src/http/routes/not-yet-supported.ts). */
  'not yet': { code: 'NOT_YET_SUPPORTED', message: /is planned for folio but not in this build yet|not supported by this folio build yet|valid but not supported/ },
  /** A Firecrawl cloud service folio does not provide: 404 NOT_FOUND naming it. */
  'not in folio': { code: 'NOT_FOUND', message: /is a Firecrawl cloud service that folio does not provide/ },
} as const;

export type Verdict = 'works' | keyof typeof VERDICTS;

/** The generic 404 of a path folio has no route for: never an acceptable answer to a real client. */
export const NO_ROUTE = /No route matches/;
