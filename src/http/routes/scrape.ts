/**
 * POST /v2/scrape (interface-v2 "POST {base_url}/v2/scrape"; body shape Firecrawl v2's):
 * JSON `{ url, …options }` → scrape() → `{ success: true, data }`, data being the same object
 * parse returns. Thin: validate, call, shape.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { teamOf } from '../../../auth/api-keys.ts';
import { ClientAbortedError } from '../multipart.ts';
import { scrape, type ScrapeDeps } from '../../web/scrape.ts';
import { parseScrapeRequest } from '../../web/scrape-options.ts';

/** A scrape body is a URL and options: anything bigger is not one. */
export const SCRAPE_BODY_LIMIT = '1mb';

export function scrapeRoute(deps: ScrapeDeps): RequestHandler[] {
  const handler = async (req: Request, res: Response): Promise<void> => {
    const request = parseScrapeRequest(req.body);
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort(new ClientAbortedError());
    };
    res.on('close', onClose);
    try {
      const team = teamOf(res);
      // A rendered page stays open for interact, owned by this team and key (src/browser/held-pages.ts).
      const data = await scrape(request, deps, { signal: clientGone.signal, ...(team ? { teamId: team.teamId, ...(deps.browser ? { holdFor: { teamId: team.teamId, keyId: team.keyId } } : {}) } : {}) });
      // Its page can be driven afterwards (POST /v2/scrape/{scrapeId}/interact), by this team only;
      // not under zeroDataRetention (nothing of the request, its typed text included, is kept).
      const scrapeId = data.metadata.scrapeId;
      if (deps.browser && team && typeof scrapeId === 'string' && request.zeroDataRetention !== true) deps.browser.interact.remember(scrapeId, team.teamId, String(data.metadata.url ?? request.url), request.actions ?? []);
      res.status(200).json({ success: true, data });
    } finally {
      res.off('close', onClose);
    }
  };
  return [express.json({ limit: SCRAPE_BODY_LIMIT }), handler];
}
