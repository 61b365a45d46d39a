/**
 * One log line per request: method, path (never the query string), status, duration, team id.
 * Headers, bodies and keys are not logged.
 */
import type { RequestHandler } from 'express';
import { teamOf } from '../../auth/api-keys.ts';
import { pathOnly, type Logger } from '../log.ts';

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = !res.writableFinished;
      logger.info(
        {
          method: req.method,
          path: pathOnly(req.originalUrl),
          status: res.headersSent ? res.statusCode : null,
          ms: Math.round(ms * 10) / 10,
          teamId: teamOf(res)?.teamId ?? null,
          ...(aborted ? { aborted: true } : {}),
        },
        'request',
      );
    };
    res.once('finish', log);
    res.once('close', log);
    next();
  };
}
