import express, { type Request, type RequestHandler, type Response } from 'express';
import { CSRF_FIELD, csrfTokenMatches } from '../../../auth/csrf.ts';
import type { Session } from '../../../auth/sessions.ts';
import { errorPage } from './error.ts';

/** application/x-www-form-urlencoded bodies of the pages' forms (small). */
export const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });

/** One text field of a form body, or undefined (absent, repeated, not text). */
export function field(req: Request, name: string): string | undefined {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const v = (body as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

export function sendPage(res: Response, status: number, body: string): void {
  res.status(status).type('html').send(body);
}

/** 403 unless the form carries the session's CSRF token; true when it does. */
export function checkCsrf(req: Request, res: Response, session: Session | undefined): session is Session {
  if (session && csrfTokenMatches(session.csrfToken, field(req, CSRF_FIELD))) return true;
  sendPage(res, 403, errorPage('This form has expired', 'The form was not sent from a current folio page (missing or stale security token). Go back, reload the page and try again.'));
  return false;
}
