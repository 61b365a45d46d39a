/**
 * Reads a JSON request body under a size limit, inside a route (express.json() as a promise), for
 * routes that accept JSON beside another body type. Parse failures reach the error handler as
 * body-parser's 4xx errors and are answered 400 BAD_REQUEST.
 */
import express, { type Request, type Response } from 'express';

export function isJsonRequest(req: Request): boolean {
  const mime = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mime === 'application/json' || /^application\/[^/]+\+json$/.test(mime);
}

export function readJsonBody(req: Request, res: Response, limitBytes: number): Promise<unknown> {
  const parser = express.json({ limit: limitBytes, strict: false, type: () => true });
  return new Promise((resolve, reject) => {
    parser(req, res, (err?: unknown) => {
      if (err) reject(err);
      else resolve(req.body as unknown);
    });
  });
}
