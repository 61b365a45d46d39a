/**
 * The HTTP side of the connection cap: on a connection taken in over the cap, `GET /health` is
 * answered and anything else gets 429 with `Retry-After`; either way the connection is closed
 * after the answer, so the reserve frees up at once.
 */
import type { RequestHandler } from 'express';
import { ServiceError } from '../../errors.ts';
import type { ConnectionCap } from './connection-cap.ts';

/** A busy server frees connections within seconds (a request, or an idle timeout). */
export const CONNECTION_RETRY_AFTER_SECONDS = 5;

export function connectionAdmission(cap: Pick<ConnectionCap, 'isReserved' | 'max'>): RequestHandler {
  return (req, res, next) => {
    if (!cap.isReserved(req.socket)) {
      next();
      return;
    }
    res.setHeader('Connection', 'close');
    if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/health') {
      next();
      return;
    }
    throw new ServiceError(
      'RATE_LIMITED',
      `The server is at its limit of ${cap.max} concurrent connections. Retry in ${CONNECTION_RETRY_AFTER_SECONDS} seconds.`,
      { retryAfterSeconds: CONNECTION_RETRY_AFTER_SECONDS },
    );
  };
}
