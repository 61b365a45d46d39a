/**
 * POST /oauth/token (RFC 6749 §3.2) and POST /oauth/revoke (RFC 7009 §2), mounted before the
 * API-key middleware: the caller is an OAuth client, not an API key holder.
 *
 *   - bodies are application/x-www-form-urlencoded (RFC 6749 §3.2, RFC 7009 §2.1), at most
 *     16 KiB; a parameter sent twice is `invalid_request` (RFC 6749 §3.2);
 *   - token answers carry `Cache-Control: no-store` and `Pragma: no-cache` (§5.1), errors the
 *     §5.2 JSON shape, 400, or 401 with a `WWW-Authenticate` challenge for `invalid_client`;
 *   - both answer any origin (CORS, no credentials): browser-based MCP clients call them
 *     cross-origin, and no cookie is involved.
 */
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { FormParams, TokenEndpoint, TokenErrorCode } from '../../../auth/token-endpoint.ts';

export const OAUTH_FORM_LIMIT_BYTES = 16 * 1024;

function cors(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
}

const preflight: RequestHandler = (_req, res) => {
  cors(res);
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, MCP-Protocol-Version');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.status(204).end();
};

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

/** RFC 6749 §5.2. */
function oauthError(res: Response, error: TokenErrorCode, description: string): void {
  noStore(res);
  if (error === 'invalid_client') {
    res.setHeader('WWW-Authenticate', 'Basic realm="folio", error="invalid_client"');
    res.status(401);
  } else {
    res.status(400);
  }
  res.json({ error, error_description: description });
}

type ParsedForm = { ok: true; params: FormParams } | { ok: false; error: 'invalid_request' | 'invalid_target'; description: string };

function parseForm(req: Request): ParsedForm {
  if (!req.is('application/x-www-form-urlencoded')) {
    return { ok: false, error: 'invalid_request', description: 'The request body must be application/x-www-form-urlencoded (RFC 6749 §3.2).' };
  }
  const text = typeof req.body === 'string' ? req.body : '';
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (params.has(name)) {
      // RFC 8707 §2: several `resource` values are allowed by the RFC, but a folio token is for exactly one.
      if (name === 'resource') return { ok: false, error: 'invalid_target', description: 'Send one resource: a folio token is bound to exactly one resource.' };
      return { ok: false, error: 'invalid_request', description: `The parameter "${name.slice(0, 64)}" is sent more than once (RFC 6749 §3.2).` };
    }
    // RFC 6749 §3.2: parameters sent without a value are treated as omitted.
    if (value !== '') params.set(name, value);
  }
  return { ok: true, params };
}

/** A client that authenticates (Authorization header) is refused: folio's clients are public. */
function authenticated(req: Request): boolean {
  return req.headers.authorization !== undefined;
}

/** Body-parser failures (too large, bad charset) in the OAuth error shape. */
const formErrors: ErrorRequestHandler = (err: unknown, _req, res, next) => {
  if (res.headersSent) return next(err);
  const status = typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number' ? err.status : 500;
  if (status >= 500) return next(err);
  cors(res);
  const description = status === 413 ? `The request body is larger than ${OAUTH_FORM_LIMIT_BYTES} bytes.` : 'The request body could not be read as a form.';
  oauthError(res, 'invalid_request', description);
};

export function oauthTokenRoutes(endpoint: TokenEndpoint): Router {
  const router = Router();
  const body = express.text({ type: 'application/x-www-form-urlencoded', limit: OAUTH_FORM_LIMIT_BYTES });

  router.options('/oauth/token', preflight);
  router.post('/oauth/token', body, async (req, res) => {
    cors(res);
    const form = parseForm(req);
    if (!form.ok) return oauthError(res, form.error, form.description);
    const outcome = await endpoint.token(form.params, authenticated(req));
    if (!outcome.ok) return oauthError(res, outcome.error, outcome.description);
    noStore(res);
    res.status(200).json(outcome.body);
  });

  router.options('/oauth/revoke', preflight);
  router.post('/oauth/revoke', body, async (req, res) => {
    cors(res);
    const form = parseForm(req);
    if (!form.ok) return oauthError(res, form.error, form.description);
    const outcome = await endpoint.revoke(form.params, authenticated(req));
    if (!outcome.ok) return oauthError(res, outcome.error, outcome.description);
    // RFC 7009 §2.2: 200 whether or not anything was revoked; the body is ignored by clients.
    noStore(res);
    res.status(200).end();
  });

  router.use(['/oauth/token', '/oauth/revoke'], formErrors);
  return router;
}
