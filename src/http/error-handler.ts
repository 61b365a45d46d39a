/**
 * Every error leaves as the spec's shape `{ success: false, code, error }`. ServiceErrors carry
 * their status and message; framework 4xx errors (bad JSON, bad URL encoding) become 400
 * BAD_REQUEST; anything else is a 500 with a fixed message and one log line with the error (the
 * log line never holds request bodies, keys or file bytes).
 */
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { challengeOf } from '../../auth/api-keys.ts';
import { isServiceError, ServiceError, unknownErrorBody } from '../errors.ts';
import type { Logger } from '../log.ts';
import { asksZeroRetention, errorForLog, pathOnly } from '../log.ts';
import { ClientAbortedError } from './multipart.ts';

/** body-parser and http-errors style: a numeric 4xx `status` and `expose`. */
function clientHttpError(err: unknown): { message: string } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode, expose, message, type } = err as Record<string, unknown>;
  const code = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : undefined;
  if (code === undefined || code < 400 || code >= 500) return undefined;
  if (type === 'entity.parse.failed') return { message: 'The request body is not valid JSON.' };
  return { message: expose === true && typeof message === 'string' ? message : 'The request is malformed.' };
}

/** How long a connection whose request body was left unread stays half-open after the answer. */
export const UNREAD_BODY_LINGER_MS = 2_000;

/**
 * When the answer goes out before the body was read (a refused upload), the rest of the body is
 * not read: the response says `Connection: close`, the socket is half-closed once the response is
 * flushed, and destroyed shortly after. Not at once: closing a socket that still has unread input
 * makes the kernel send a reset, which can overtake the response at the client, so the client
 * gets a moment (while its sending is stalled, as nothing reads) to see the answer and stop.
 */
function closeAfterUnreadBody(req: Request, res: Response): void {
  if (req.complete) return;
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  // Node's server calls destroySoon() after a `Connection: close` response: end, then destroy.
  socket.destroySoon = function lingerThenDestroy(this: typeof socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), UNREAD_BODY_LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof ClientAbortedError || req.socket.destroyed) {
      // Nobody is listening; the request log line records the abort.
      res.locals.clientAborted = true;
      req.socket.destroy();
      return;
    }
    closeAfterUnreadBody(req, res);
    if (isServiceError(err)) {
      const challenge = challengeOf(err);
      if (challenge) res.setHeader('WWW-Authenticate', challenge);
      if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
      if (err.status >= 500) {
        // Under zeroDataRetention the message stays out of the log (it may quote the document).
        const zdr = res.locals.zeroDataRetention === true || asksZeroRetention(req.body);
        logger.error({ code: err.code, method: req.method, path: pathOnly(req.originalUrl) }, zdr ? `${err.code} (message withheld: zeroDataRetention)` : err.message);
      }
      res.status(err.status).json(err.toBody());
      return;
    }
    const client = clientHttpError(err);
    if (client) {
      res.status(400).json(new ServiceError('BAD_REQUEST', client.message).toBody());
      return;
    }
    const zdr = res.locals.zeroDataRetention === true || asksZeroRetention(req.body);
    logger.error({ err: errorForLog(err, zdr), method: req.method, path: pathOnly(req.originalUrl) }, 'unexpected error');
    res.status(500).json(unknownErrorBody());
  };
}

export function notFound(): RequestHandler {
  return (req, res) => {
    // The path is not echoed: a misplaced credential in it must not come back in a body.
    const message = `No route matches ${req.method} on this path. folio serves POST /v2/parse, /v2/scrape, /v2/search, /v2/map, /v2/crawl (GET/DELETE /v2/crawl/{id}), /v2/uploads, the MCP endpoints /v2/mcp and /v2/mcp-oauth, the OAuth endpoints under /oauth/ with their discovery documents under /.well-known/, /account, and GET /health.`;
    res.status(404).json(new ServiceError('NOT_FOUND', message).toBody());
  };
}
