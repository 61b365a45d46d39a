/**
 * Crawl (Firecrawl v2), owner-bound (a team sees only its own jobs: another's id is a 404):
 *
 *   POST   /v2/crawl              → {success, id, url}
 *   GET    /v2/crawl/active       → {success, crawls: [{id, teamId, url, options}]}
 *   GET    /v2/crawl/:id          → {success, status, total, completed, creditsUsed, expiresAt, next?, data}
 *                                   paged: ?skip=N&limit=M; `next` is the absolute URL of the next page
 *   DELETE /v2/crawl/:id          → {success, status: 'cancelled'}
 *   GET    /v2/crawl/:id/errors   → {success, errors: [{id, url, error, timestamp}], robotsBlocked: [url]}
 *   POST   /v2/crawl/params-preview → {success, data: {url, …options read from the prompt}, warning}
 *
 * The status, cancel and errors handlers are shared with batch scrape (routes/batch.ts).
 */
import express, { type Request, type Response, type Router } from 'express';
import { teamOf } from '../../../auth/api-keys.ts';
import { ServiceError } from '../../errors.ts';
import type { PublicUrls } from '../../public-urls.ts';
import type { CrawlService } from '../../web/crawl/index.ts';
import { crawlParamsPreview } from '../../web/crawl/params-preview.ts';
import type { JobKind } from '../../store/crawl-jobs.ts';

export interface CrawlRouteDeps {
  crawls: CrawlService;
  urls: PublicUrls;
}

export function ownerOf(res: Response): string {
  const team = teamOf(res);
  if (!team) throw new ServiceError('UNAUTHORIZED', 'An API key is required: send `Authorization: Bearer <API_KEY>`.');
  return `team:${team.teamId}`;
}

function intParam(req: Request, name: string): number | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) {
    throw new ServiceError('BAD_REQUEST', `Query parameter \`${name}\` must be a non-negative integer.`);
  }
  return Number(raw);
}

function idParam(req: Request): string {
  const id = req.params.id;
  return typeof id === 'string' ? id : '';
}

/** GET …/:id, DELETE …/:id and GET …/:id/errors of a job kind, under `prefix` (`/v2/crawl`). */
export function jobRoutes(router: Router, deps: CrawlRouteDeps, kind: JobKind, prefix: string): void {
  const jobUrl = (id: string) => `${deps.urls.base}${prefix}/${id}`;

  router.get(`${prefix}/:id`, async (req, res) => {
    const skip = intParam(req, 'skip');
    const limit = intParam(req, 'limit');
    const page = await deps.crawls.status(
      ownerOf(res),
      idParam(req),
      {
        ...(skip !== undefined ? { skip } : {}),
        ...(limit !== undefined ? { limit } : {}),
      },
      kind,
    );
    const { nextSkip, ...rest } = page;
    const next = nextSkip === undefined ? undefined : `${jobUrl(idParam(req))}?skip=${nextSkip}${limit !== undefined ? `&limit=${limit}` : ''}`;
    res.status(200).json({ success: true, ...rest, ...(next ? { next } : {}) });
  });

  router.delete(`${prefix}/:id`, async (req, res) => {
    const status = await deps.crawls.cancel(ownerOf(res), idParam(req), kind);
    res.status(200).json({ success: true, status });
  });

  router.get(`${prefix}/:id/errors`, async (req, res) => {
    const errors = await deps.crawls.errors(ownerOf(res), idParam(req), kind);
    res.status(200).json({ success: true, ...errors });
  });
}

export function crawlRoutes(deps: CrawlRouteDeps): Router {
  const router = express.Router();
  const jobUrl = (id: string) => `${deps.urls.base}/v2/crawl/${id}`;

  router.post('/v2/crawl/params-preview', express.json({ limit: '1mb' }), (req, res) => {
    ownerOf(res);
    res.status(200).json({ success: true, ...crawlParamsPreview(req.body) });
  });

  router.post('/v2/crawl', express.json({ limit: '1mb' }), async (req, res) => {
    const { id, warning } = await deps.crawls.start(ownerOf(res), req.body);
    res.status(200).json({ success: true, id, url: jobUrl(id), ...(warning ? { warning } : {}) });
  });

  router.get('/v2/crawl/active', async (_req, res) => {
    const owner = ownerOf(res);
    const team = teamOf(res);
    const crawls = await deps.crawls.active(owner);
    res.status(200).json({ success: true, crawls: crawls.map((c) => ({ id: c.id, teamId: team?.teamId, url: c.url, options: c.options })) });
  });

  jobRoutes(router, deps, 'crawl', '/v2/crawl');

  return router;
}
