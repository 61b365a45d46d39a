/**
 * Transport hygiene for the tool server (MCP 2025-11-25 "Transports › Streamable HTTP ›
 * Security Warning" and "Security Best Practices"):
 *
 * - Origin validation: a present Origin that is neither this server's public origin nor listed in
 *   FOLIO_ALLOWED_ORIGINS → 403 (a web page must not drive a user's tool server).
 * - DNS-rebinding protection when bound to a loopback address: the Host header must be a
 *   loopback name (any port) or listed in FOLIO_ALLOWED_HOSTS → 403.
 * - CORS (Fetch standard) for allowed origins: preflight, the MCP request headers allowed, the
 *   headers a browser client must read (WWW-Authenticate, Mcp-Session-Id) exposed.
 */
import type { RequestHandler, Response } from 'express';
import { ServiceError } from '../errors.ts';

export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID'];
export const CORS_EXPOSE_HEADERS = ['WWW-Authenticate', 'Mcp-Session-Id'];
export const CORS_ALLOW_METHODS = ['POST', 'OPTIONS'];

const LOOPBACK_BINDS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface HygieneOptions {
  /** The address the server is bound to (config.host). */
  bindHost: string;
  /** Origins of the public URLs (API base and `{mcp_url}`). */
  ownOrigins: readonly string[];
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[];
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** `host:port` → host (lower case), `[::1]:3002` → `[::1]`. */
function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host.toLowerCase());
}

function send(res: Response, err: ServiceError): void {
  res.status(err.status).json(err.toBody());
}

export function transportHygiene(options: HygieneOptions): RequestHandler {
  const allowedOrigins = new Set([...options.ownOrigins, ...options.allowedOrigins].map((o) => originOf(o) ?? o));
  const allowedHosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const checkHost = isLoopbackBind(options.bindHost);
  return (req, res, next) => {
    if (checkHost) {
      const host = req.headers.host ?? '';
      const ok = LOOPBACK_HOSTNAMES.has(hostnameOf(host)) || allowedHosts.has(host.toLowerCase()) || allowedHosts.has(hostnameOf(host));
      if (!ok) {
        send(
          res,
          new ServiceError(
            'FORBIDDEN',
            'The Host header is not allowed: this server listens on a loopback address and accepts only localhost names (DNS-rebinding protection). Add the name to FOLIO_ALLOWED_HOSTS if it is yours.',
          ),
        );
        return;
      }
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!allowedOrigins.has(origin.replace(/\/+$/, ''))) {
        send(res, new ServiceError('FORBIDDEN', `Requests from the origin '${origin}' are not allowed. The server operator can allow it with FOLIO_ALLOWED_ORIGINS.`));
        return;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS.join(', '));
      res.append('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      // Preflight (Fetch standard §3.2.2): no credential is sent with it, so it is answered here.
      res.setHeader('Access-Control-Allow-Methods', CORS_ALLOW_METHODS.join(', '));
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', '600');
      res.setHeader('Allow', 'POST, OPTIONS');
      res.status(204).end();
      return;
    }
    next();
  };
}
