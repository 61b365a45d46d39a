/**
 * GET /v2/captures/:name — a screenshot or PDF made by the browser (docs/browser.md). No API
 * key: the URL is the capability (an unguessable token), as the spec's `data.screenshot` is a
 * plain link. Expired or unknown → 404 NOT_FOUND (an expired one is deleted on the way).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { BrowserService } from '../../browser/index.ts';
import { ServiceError } from '../../errors.ts';

export function capturesRoute(browser: Pick<BrowserService, 'openCapture'>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const name = String(req.params.name ?? '');
    browser.openCapture(name).then(
      (capture) => {
        if (!capture) {
          next(new ServiceError('NOT_FOUND', 'This capture does not exist or has expired (screenshots and PDFs are kept 24 hours). Scrape the page again for a new one.'));
          return;
        }
        res.status(200);
        res.setHeader('content-type', capture.contentType);
        res.setHeader('content-length', String(capture.bytes.length));
        res.setHeader('cache-control', 'private, no-store');
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('referrer-policy', 'no-referrer');
        res.end(capture.bytes);
      },
      (err: unknown) => next(err),
    );
  };
}
