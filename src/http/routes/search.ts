/**
 * POST /v2/search (Firecrawl v2): JSON body → the search operation → `{ success, data, warning? }`.
 * Thin: parse JSON, hand the body over (it validates), answer.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { ServiceError } from '../../errors.ts';
import type { SearchOperation } from '../../web/search/index.ts';
import { ClientAbortedError } from '../multipart.ts';

/** A search body is a query and a few options; scrapeOptions with a JSON schema fits easily. */
const MAX_BODY = '1mb';

export function searchRoute(search: SearchOperation): RequestHandler[] {
  const handler = async (req: Request, res: Response): Promise<void> => {
    if (!req.is('application/json')) {
      throw new ServiceError('BAD_REQUEST', 'Invalid search request: send a JSON body with `Content-Type: application/json`, e.g. {"query": "…"}.');
    }
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort(new ClientAbortedError());
    };
    res.on('close', onClose);
    try {
      const result = await search(req.body, { signal: clientGone.signal });
      res.status(200).json(result);
    } finally {
      res.off('close', onClose);
    }
  };
  return [express.json({ limit: MAX_BODY }), handler];
}
