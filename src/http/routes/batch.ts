/**
 * Batch scrape (Firecrawl v2), on the crawl job machinery and owner-bound like crawl:
 *
 *   POST   /v2/batch/scrape             {urls, …scrape options, ignoreInvalidURLs?, maxConcurrency?,
 *                                        webhook?, appendToId?}  header x-idempotency-key?
 *                                        → {success, id, url, invalidURLs?}
 *   GET    /v2/batch/scrape/:id         → {success, status, total, completed, creditsUsed, expiresAt, next?, data}
 *   DELETE /v2/batch/scrape/:id         → {success, status: 'cancelled'}
 *   GET    /v2/batch/scrape/:id/errors  → {success, errors: [{id, url, error, timestamp}], robotsBlocked: []}
 */
import express, { type Request, type Router } from 'express';
import { ServiceError } from '../../errors.ts';
import { jobRoutes, ownerOf, type CrawlRouteDeps } from './crawl.ts';

export const BATCH_PREFIX = '/v2/batch/scrape';
/** A batch body holds up to 10,000 URLs and the scrape options. */
const BATCH_BODY_LIMIT = '5mb';

function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers['x-idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
    throw new ServiceError('BAD_REQUEST', 'The `x-idempotency-key` header must be 1 to 200 characters.');
  }
  return key;
}

export function batchRoutes(deps: CrawlRouteDeps): Router {
  const router = express.Router();

  router.post(BATCH_PREFIX, express.json({ limit: BATCH_BODY_LIMIT }), async (req, res) => {
    const started = await deps.crawls.startBatch(ownerOf(res), req.body, idempotencyKeyOf(req));
    res.status(200).json({
      success: true,
      id: started.id,
      url: `${deps.urls.base}${BATCH_PREFIX}/${started.id}`,
      ...(started.invalidURLs.length > 0 ? { invalidURLs: started.invalidURLs } : {}),
    });
  });

  jobRoutes(router, deps, 'batch', BATCH_PREFIX);
  return router;
}
