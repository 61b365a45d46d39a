/**
 * POST /v2/map (Firecrawl v2): `{url, search, sitemap, includeSubdomains, limit,
 * ignoreQueryParameters, timeout}` → `{success: true, links: [{url, title?, description?}],
 * warning?}` (`warning` names fields folio does not know, which it ignored).
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Fetcher } from '../../web/fetch/types.ts';
import { map, parseMapRequest } from '../../web/map.ts';

export interface MapRouteDeps {
  fetcher: Fetcher;
}

export function mapRoutes(deps: MapRouteDeps): Router {
  const router = express.Router();
  router.post('/v2/map', express.json({ limit: '1mb' }), async (req: Request, res: Response) => {
    const { request, warning } = parseMapRequest(req.body);
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort();
    };
    res.on('close', onClose);
    try {
      const result = await map(request, { fetcher: deps.fetcher }, { signal: clientGone.signal });
      res.status(200).json({ success: true, links: result.links, ...(warning ? { warning } : {}) });
    } finally {
      res.off('close', onClose);
    }
  });
  return router;
}
