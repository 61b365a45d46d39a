/**
 * Firecrawl v2 paths the official clients (the JS SDK, firecrawl-mcp) call and folio does not
 * serve: a clear answer naming the feature and its status instead of the generic 404 "No route
 * matches". Two kinds (README "Firecrawl clients: what works", docs/compat.md):
 *
 *   planned, not built yet   400 NOT_YET_SUPPORTED   agent threads and snapshots
 *   not part of folio        404 NOT_FOUND           Firecrawl's hosted services: monitors, the
 *                                                    research and developer indexes, feedback
 *                                                    refunds, the Alexandria catalogue
 *
 * (Alexandria execution and discovery also ride on POST /v2/scrape as `{alexandria: …}`: the
 * scrape request validation answers that one, a 400 on a path that exists.)
 *
 * Mounted after the API-key check for /v2 (a keyless caller gets the 401 every /v2 path gives),
 * before the routes that are built, so a real route added later must be mounted before these or
 * remove its entry here. `/exchange/*` (firecrawl-mcp's Alexandria discovery, outside /v2) needs
 * no key: it only says what folio does not have.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ServiceError } from '../../errors.ts';

interface Unbuilt {
  /** Express 5 path patterns. */
  paths: string[];
  error: () => ServiceError;
}

const planned = (feature: string, instead: string) => () =>
  new ServiceError('NOT_YET_SUPPORTED', `${feature} is planned for folio but not in this build yet. ${instead}`);

const notProvided = (feature: string, instead: string) => () =>
  new ServiceError('NOT_FOUND', `${feature} is a Firecrawl cloud service that folio does not provide. ${instead}`);

/** Every method on these paths. */
export const UNBUILT_PATHS: readonly Unbuilt[] = [
  {
    paths: ['/v2/agent/threads', '/v2/agent/threads/*rest', '/v2/agent/:id/snapshots', '/v2/agent/:id/snapshots/*rest'],
    error: planned(
      'Agent threads and snapshots (`/v2/agent/threads`, `/v2/agent/{id}/snapshots`)',
      'Each agent run stands alone: read its answer with GET /v2/agent/{id} and its steps with GET /v2/agent/{id}/trace.',
    ),
  },
  {
    paths: ['/v2/monitor', '/v2/monitor/*rest'],
    error: notProvided('Monitors (`/v2/monitor`, scheduled change checks)', 'Schedule scrapes or crawls yourself.'),
  },
  {
    paths: ['/v2/search/research/*rest'],
    error: notProvided('The research paper index (`/v2/search/research`)', 'Use POST /v2/search for web results.'),
  },
  {
    paths: ['/v2/search/developer'],
    error: notProvided('The developer index (`/v2/search/developer`)', 'Use POST /v2/search for web results.'),
  },
  {
    paths: ['/v2/feedback', '/v2/search/:id/feedback'],
    error: notProvided('Result feedback and credit refunds (`/v2/feedback`)', 'Credits are charged per request as documented in docs/billing.md; folio takes no per-result ratings and makes no refunds.'),
  },
];

const ALEXANDRIA = notProvided('The Alexandria data-provider catalogue', 'Scrape the pages themselves with `url`, or search with `sources: ["web"]`.');

function refuse(make: () => ServiceError) {
  return (_req: Request, _res: Response, next: NextFunction) => next(make());
}

/** Under /v2, after the API-key check. */
export function notYetSupportedRoutes(): Router {
  const router = express.Router();
  for (const entry of UNBUILT_PATHS) router.all(entry.paths, refuse(entry.error));
  return router;
}

/** Outside /v2, no key needed: firecrawl-mcp's Alexandria category discovery. */
export function exchangeRoutes(): Router {
  const router = express.Router();
  router.all(['/exchange', '/exchange/*rest'], refuse(ALEXANDRIA));
  return router;
}
