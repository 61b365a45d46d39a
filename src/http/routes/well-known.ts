/**
 * Public discovery documents, served without a credential (mounted before requireApiKey):
 *
 *   GET /.well-known/oauth-protected-resource/v2/mcp-oauth   RFC 9728 metadata of the OAuth tool server
 *   GET /.well-known/jwks.json                               RFC 7517 public keys of the access tokens
 *   GET /.well-known/oauth-authorization-server              RFC 8414 metadata of folio's authorization server
 *
 * Browser-based MCP clients fetch them cross-origin, so GET is open to every origin (no credentials
 * are involved). Every URL inside comes from the configured public URLs, never from the Host header.
 */
import { Router, type RequestHandler, type Response } from 'express';
import { authorizationServerMetadata, authorizationServerMetadataPath, AUTHORIZATION_SERVER_METADATA_PATH } from '../../../.well-known/authorization-server.ts';
import { protectedResourceMetadata, protectedResourceMetadataPath } from '../../../.well-known/protected-resource.ts';
import type { SigningKeys } from '../../../auth/signing-keys.ts';
import type { PublicUrls } from '../../public-urls.ts';

/** The metadata only changes with configuration. */
export const METADATA_CACHE_CONTROL = 'public, max-age=3600';
/** Short, so that a rotated-in key is seen soon (the old one keeps verifying meanwhile). */
export const JWKS_CACHE_CONTROL = 'public, max-age=300';

export interface WellKnownDeps {
  urls: PublicUrls;
  documentationUrl?: string | undefined;
  /** FOLIO_AUTH_METADATA_URL: when set, the RFC 8414 document is also served at its path. */
  authMetadataUrl?: string | undefined;
  /** The token signing keys' public set; without it, no JWKS route. */
  signingKeys?: Pick<SigningKeys, 'jwks'> | undefined;
}

function cors(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
}

/** CORS preflight (a client adding e.g. `MCP-Protocol-Version` to its GET triggers one). */
const preflight: RequestHandler = (_req, res) => {
  cors(res);
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', '*');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.status(204).end();
};

export function wellKnownRoutes(deps: WellKnownDeps): Router {
  const router = Router();
  const document = protectedResourceMetadata({ ...deps.urls, ...(deps.documentationUrl === undefined ? {} : { documentationUrl: deps.documentationUrl }) });
  const body = JSON.stringify(document);

  const servePrm: RequestHandler = (_req, res) => {
    cors(res);
    res.setHeader('Cache-Control', METADATA_CACHE_CONTROL);
    res.type('application/json').send(body);
  };
  // RFC 9728 §3.1: the well-known prefix followed by the resource's path. When `{mcp_url}` has a
  // path of its own (a proxy prefix), the document is also served at that longer path.
  const paths = [...new Set(['/.well-known/oauth-protected-resource/v2/mcp-oauth', protectedResourceMetadataPath(deps.urls.mcp)])];
  for (const p of paths) {
    router.options(p, preflight);
    router.get(p, servePrm);
  }

  // RFC 8414 §3: at the well-known path, the §3.1 path derived from the issuer when the public
  // URL has a path of its own, and FOLIO_AUTH_METADATA_URL's path when configured.
  const asBody = JSON.stringify(authorizationServerMetadata(deps.urls.base));
  const serveAsm: RequestHandler = (_req, res) => {
    cors(res);
    res.setHeader('Cache-Control', METADATA_CACHE_CONTROL);
    res.type('application/json').send(asBody);
  };
  const asPaths = [AUTHORIZATION_SERVER_METADATA_PATH, authorizationServerMetadataPath(deps.urls.base)];
  const configuredPath = deps.authMetadataUrl === undefined ? undefined : new URL(deps.authMetadataUrl).pathname;
  if (configuredPath !== undefined && configuredPath !== '/') asPaths.push(configuredPath);
  for (const p of new Set(asPaths)) {
    router.options(p, preflight);
    router.get(p, serveAsm);
  }

  const keys = deps.signingKeys;
  if (keys) {
    router.options('/.well-known/jwks.json', preflight);
    router.get('/.well-known/jwks.json', async (_req, res) => {
      const set = await keys.jwks();
      cors(res);
      res.setHeader('Cache-Control', JWKS_CACHE_CONTROL);
      res.type('application/jwk-set+json').send(JSON.stringify(set));
    });
  }
  return router;
}
