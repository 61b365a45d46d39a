/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose
 * `client_id` is an HTTPS URL publishes its metadata (RFC 7591 field names) at that URL. folio
 * fetches it through the SSRF-protected Fetcher (no redirects, 64 KB, 5 s), checks that the
 * `client_id` inside equals the URL exactly, applies the redirect URI rules and the public-client
 * rule, and caches the result per the response's Cache-Control, bounded to [1 min, 24 h].
 */
import { isServiceError } from '../src/errors.ts';
import type { Fetcher } from '../src/web/fetch/types.ts';
import { OAuthClientError, validateClientMetadata, type OAuthClient } from './client-metadata.ts';

export const CIMD_MAX_BYTES = 64 * 1024;
export const CIMD_TIMEOUT_MS = 5_000;
/** Cache lifetime bounds (the draft lets the server bound what HTTP caching asks for). */
export const CIMD_MIN_TTL_SECONDS = 60;
export const CIMD_MAX_TTL_SECONDS = 24 * 60 * 60;
/** Without a Cache-Control max-age. */
export const CIMD_DEFAULT_TTL_SECONDS = 5 * 60;
/** Documents kept in memory at most (the oldest entry goes first). */
export const CIMD_CACHE_ENTRIES = 1000;
export const CIMD_MAX_URL_LENGTH = 2000;

/**
 * Draft §3: the client_id URL MUST use https, MUST contain a path component, MUST NOT contain
 * single- or double-dot path segments, a fragment, or a user name or password.
 */
export function isClientIdMetadataDocumentUrl(clientId: string): boolean {
  if (clientId.length > CIMD_MAX_URL_LENGTH || !clientId.startsWith('https://')) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '' || clientId.includes('#')) return false;
  const rawPath = clientId.slice('https://'.length).replace(/^[^/?]*/, '').replace(/\?.*$/, '');
  if (rawPath === '' || rawPath === '/') return false;
  return !rawPath.split('/').some((segment) => segment === '.' || segment === '..' || /^%2e(%2e)?$/i.test(segment) || /^\.%2e$|^%2e\.$/i.test(segment));
}

/** Seconds to keep a document, from its Cache-Control (RFC 9111 §5.2.2), bounded. */
export function cacheLifetimeSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return CIMD_MIN_TTL_SECONDS;
  const maxAge = directives.map((d) => /^max-age\s*=\s*"?(\d+)"?$/.exec(d)?.[1]).find((v) => v !== undefined);
  const seconds = maxAge === undefined ? CIMD_DEFAULT_TTL_SECONDS : Number(maxAge);
  return Math.min(CIMD_MAX_TTL_SECONDS, Math.max(CIMD_MIN_TTL_SECONDS, seconds));
}

export interface ClientMetadataDocumentOptions {
  now?: () => Date;
}

export interface ClientMetadataDocuments {
  /** The client a metadata document describes (cached). Throws OAuthClientError `invalid_client`. */
  resolve(clientId: string): Promise<OAuthClient>;
}

function invalid(clientId: string, what: string): OAuthClientError {
  return new OAuthClientError('invalid_client', `The client metadata document at ${clientId.slice(0, 300)} ${what}`);
}

async function fetchDocument(fetcher: Fetcher, clientId: string): Promise<{ body: unknown; cacheControl: string | undefined }> {
  let res;
  try {
    // Draft §4: the document is fetched without following redirects (maxRedirects 0).
    res = await fetcher.fetch({ url: clientId, timeoutMs: CIMD_TIMEOUT_MS, maxBytes: CIMD_MAX_BYTES, maxRedirects: 0, headers: { accept: 'application/json' } });
  } catch (err) {
    if (!isServiceError(err)) throw err;
    if (err.code === 'FETCH_FAILED' && / 0 redirects/.test(err.message)) {
      throw invalid(clientId, 'redirects elsewhere; the document must be served at its client_id URL itself.');
    }
    if (err.code === 'FILE_TOO_LARGE') throw invalid(clientId, `is larger than ${CIMD_MAX_BYTES / 1024} KB.`);
    if (err.code === 'SCRAPE_TIMEOUT') throw invalid(clientId, `did not arrive within ${CIMD_TIMEOUT_MS / 1000} s.`);
    throw invalid(clientId, `could not be fetched: ${err.message}`);
  }
  if (res.status !== 200) throw invalid(clientId, `could not be fetched: the server answered HTTP ${res.status}.`);
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw invalid(clientId, 'is not valid JSON.');
  }
  return { body, cacheControl: res.headers['cache-control'] };
}

/** Draft §4.1: the document's own checks, then the rules every client meets. */
function clientFromDocument(clientId: string, body: unknown): OAuthClient {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(clientId, 'is not a JSON object.');
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== clientId) {
    const inside = typeof doc.client_id === 'string' ? `'${doc.client_id.slice(0, 300)}'` : 'no client_id';
    throw invalid(clientId, `names ${inside} as its client_id; it must equal the document's URL exactly.`);
  }
  if (doc.client_secret !== undefined || doc.client_secret_expires_at !== undefined) {
    throw invalid(clientId, 'contains a client_secret; a metadata document must not (draft §4.1), and folio accepts public clients only.');
  }
  try {
    const meta = validateClientMetadata(doc, 'The client metadata document');
    return {
      clientId,
      kind: 'cimd',
      ...(meta.clientName !== undefined ? { clientName: meta.clientName } : {}),
      ...(meta.clientUri !== undefined ? { clientUri: meta.clientUri } : {}),
      redirectUris: meta.redirectUris,
      grantTypes: meta.grantTypes,
      responseTypes: meta.responseTypes,
      tokenEndpointAuthMethod: 'none',
    };
  } catch (err) {
    if (err instanceof OAuthClientError) throw new OAuthClientError('invalid_client', `${err.message} (client_id ${clientId.slice(0, 300)})`);
    throw err;
  }
}

export function createClientMetadataDocuments(options: ClientMetadataDocumentOptions & { fetcher: Fetcher }): ClientMetadataDocuments {
  const now = options.now ?? (() => new Date());
  const cache = new Map<string, { client: OAuthClient; expiresAt: number }>();
  /** One fetch per URL at a time: parallel requests for the same client share it. */
  const inFlight = new Map<string, Promise<OAuthClient>>();

  async function load(clientId: string): Promise<OAuthClient> {
    const { body, cacheControl } = await fetchDocument(options.fetcher, clientId);
    const client = clientFromDocument(clientId, body);
    cache.delete(clientId);
    if (cache.size >= CIMD_CACHE_ENTRIES) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(clientId, { client, expiresAt: now().getTime() + cacheLifetimeSeconds(cacheControl) * 1000 });
    return client;
  }

  return {
    async resolve(clientId) {
      if (!isClientIdMetadataDocumentUrl(clientId)) throw new OAuthClientError('invalid_client', 'This client_id is not a valid Client ID Metadata Document URL.');
      const hit = cache.get(clientId);
      if (hit && hit.expiresAt > now().getTime()) return hit.client;
      let pending = inFlight.get(clientId);
      if (!pending) {
        pending = load(clientId).finally(() => inFlight.delete(clientId));
        inFlight.set(clientId, pending);
      }
      return pending;
    },
  };
}
