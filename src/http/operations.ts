/**
 * The HTTP side of operations (docs/operations.md, src/ops):
 *
 *   requestMetrics      every answered request counted and timed by operation, format and status
 *   refuseWhileDraining once a stop signal came: 503 SHUTTING_DOWN with Retry-After (probes excepted)
 *   GET /ready          200 {ready:true, checks} or 503 {ready:false, checks} — draining is not ready
 *   GET /metrics        Prometheus text, only with FOLIO_METRICS=on and `Authorization: Bearer <FOLIO_METRICS_TOKEN>`
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler, type Response } from 'express';
import { ServiceError } from '../errors.ts';
import { pathOnly } from '../log.ts';
import { EXPOSITION_CONTENT_TYPE, formatOf, operationOf, type Drain, type FolioMetrics, type Readiness } from '../ops/index.ts';

/** Operations that are probes or scrapes: always answered, never counted as work in flight. */
const PROBES = new Set(['health', 'ready', 'metrics']);

/** The `format` label of this request's metrics: the uploaded file's extension (parse). */
export function noteFormat(res: Response, filename: string | undefined): void {
  res.locals.metricsFormat = formatOf(filename);
}

export function requestMetrics(metrics: FolioMetrics, drain: Drain): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const operation = operationOf(pathOnly(req.originalUrl));
    const leave = PROBES.has(operation) ? () => undefined : drain.enter();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      leave();
      const format: unknown = res.locals.metricsFormat;
      const labels = {
        operation,
        format: typeof format === 'string' ? format : 'none',
        // A client gone before the answer: no status was sent.
        status: res.headersSent ? String(res.statusCode) : 'aborted',
      };
      metrics.requests.inc(labels);
      metrics.requestSeconds.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

export function refuseWhileDraining(drain: Drain): RequestHandler {
  return (req, res, next) => {
    if (!drain.draining || PROBES.has(operationOf(pathOnly(req.originalUrl)))) {
      next();
      return;
    }
    const err = new ServiceError('SHUTTING_DOWN', `This folio instance is shutting down and takes no new requests. Retry in ${drain.retryAfterSeconds} s: another instance, or this one once restarted, will answer.`);
    res.setHeader('Retry-After', String(drain.retryAfterSeconds));
    res.setHeader('Connection', 'close');
    res.status(err.status).json(err.toBody());
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export interface OperationsRouteDeps {
  readiness: Readiness;
  drain: Drain;
  metrics: FolioMetrics;
  /** FOLIO_METRICS_TOKEN; undefined: /metrics is not served (404 like any unknown path). */
  metricsToken: string | undefined;
}

export function operationsRoutes(deps: OperationsRouteDeps): Router {
  const router = Router();
  router.get('/ready', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (deps.drain.draining) {
      res.setHeader('Retry-After', String(deps.drain.retryAfterSeconds));
      res.status(503).json({ ready: false, checks: { shutdown: 'draining: this instance is stopping' } });
      return;
    }
    const report = await deps.readiness.check();
    res.status(report.ready ? 200 : 503).json(report);
  });
  const token = deps.metricsToken;
  if (token !== undefined) {
    const expected = digest(`Bearer ${token}`);
    router.get('/metrics', (req, res) => {
      const given = req.headers.authorization;
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="folio-metrics"');
        const err = new ServiceError('UNAUTHORIZED', 'GET /metrics needs `Authorization: Bearer <FOLIO_METRICS_TOKEN>` (the token set in the server\'s environment).');
        res.status(err.status).json(err.toBody());
        return;
      }
      res.setHeader('Cache-Control', 'no-store');
      res.type(EXPOSITION_CONTENT_TYPE).send(deps.metrics.registry.render());
    });
  }
  return router;
}
