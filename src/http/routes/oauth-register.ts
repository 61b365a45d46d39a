/**
 * RFC 7591 Dynamic Client Registration: `POST /oauth/register`, open (no credential, §3), JSON in
 * and out, public clients only. Errors use the RFC 7591 §3.2.2 shape `{error, error_description}`
 * (not folio's `{success, code, error}`), since OAuth client libraries read them.
 *
 * Limits: a 16 KB body, 20 redirect URIs, and a fixed-window rate limit per client IP (in memory,
 * or shared by the instances in Redis with REDIS_URL: the `counter` handed in).
 * Browser-based clients register cross-origin, so the route answers CORS for every origin.
 */
import express, { Router, type ErrorRequestHandler, type RequestHandler, type Response } from 'express';
import { OAuthClientError, type ClientRegistry } from '../../../auth/clients.ts';
import { ServiceError } from '../../errors.ts';
import { memoryWindowCounter, type WindowCount, type WindowCounter } from '../../limits/window-counter.ts';
import type { Logger } from '../../log.ts';

export const REGISTER_PATH = '/oauth/register';
export const REGISTER_BODY_LIMIT_BYTES = 16 * 1024;
export const REGISTER_RATE_DEFAULT = { max: 20, windowMs: 60_000 };

export interface OAuthRegisterDeps {
  clients: Pick<ClientRegistry, 'register'>;
  logger: Logger;
  /** Registrations per client IP per window (fixed window). */
  rate?: { max: number; windowMs: number };
  /** Where registrations are counted; default in memory, this process. */
  counter?: WindowCounter;
}

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error, error_description: description });
}

export function oauthRegisterRoutes(deps: OAuthRegisterDeps): Router {
  const router = Router();
  const rate = deps.rate ?? REGISTER_RATE_DEFAULT;
  const counter = deps.counter ?? memoryWindowCounter();

  const cors: RequestHandler = (_req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    next();
  };
  router.options(REGISTER_PATH, cors, (_req, res) => {
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  });

  const limit: RequestHandler = async (req, res, next) => {
    let counted: WindowCount;
    try {
      counted = await counter.add(`register:ip:${req.ip ?? 'unknown'}`, rate.windowMs);
    } catch (err) {
      next(err);
      return;
    }
    if (counted.count <= rate.max) {
      next();
      return;
    }
    const retryAfter = Math.max(1, Math.ceil(counted.resetInMs / 1000));
    res.setHeader('Retry-After', String(retryAfter));
    oauthError(res, 429, 'too_many_requests', `Too many client registrations from this address; at most ${rate.max} per ${rate.windowMs / 1000} s. Retry after ${retryAfter} s.`);
  };

  const register: RequestHandler = async (req, res, next) => {
    if (!req.is('application/json')) {
      oauthError(res, 400, 'invalid_client_metadata', 'Send the client metadata as a JSON object with Content-Type: application/json (RFC 7591 §3.1).');
      return;
    }
    try {
      const body = await deps.clients.register(req.body);
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json(body);
    } catch (err) {
      next(err);
    }
  };

  // Errors of this route only: body parsing (too large, bad JSON) and refused metadata.
  const errors: ErrorRequestHandler = (err: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof OAuthClientError) {
      oauthError(res, err.status, err.error, err.message);
      return;
    }
    if (err instanceof ServiceError && err.code === 'LIMITS_UNAVAILABLE') {
      // The shared registration count (Redis) cannot be read: no registration goes uncounted.
      res.setHeader('Retry-After', String(err.retryAfterSeconds ?? 5));
      oauthError(res, 503, 'temporarily_unavailable', err.message);
      return;
    }
    const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
    if (type === 'entity.too.large') {
      res.setHeader('Connection', 'close');
      oauthError(res, 413, 'invalid_client_metadata', `The registration request is larger than ${REGISTER_BODY_LIMIT_BYTES / 1024} KB.`);
      return;
    }
    if (type === 'entity.parse.failed') {
      oauthError(res, 400, 'invalid_client_metadata', 'The request body is not valid JSON.');
      return;
    }
    if (typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number' && (err as { status: number }).status < 500) {
      oauthError(res, 400, 'invalid_client_metadata', 'The registration request is malformed.');
      return;
    }
    deps.logger.error({ err }, 'client registration failed');
    oauthError(res, 500, 'server_error', 'The client could not be registered because of an error on the server; try again later.');
  };

  router.post(REGISTER_PATH, cors, limit, express.json({ limit: REGISTER_BODY_LIMIT_BYTES, strict: false }), register, errors);
  return router;
}
