import type { RequestHandler } from 'express';

/**
 * Headers of every page of the sign-in / consent flow and the account settings: no framing
 * (clickjacking of the Approve button), same-origin resources only, never cached (the pages carry
 * CSRF tokens and account data), no referrer leaking the request to other sites.
 * `form-action` is deliberately not restricted: the consent answer redirects to the client.
 */
export function pageSecurityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', "frame-ancestors 'none'; default-src 'self'");
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}
