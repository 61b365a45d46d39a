/**
 * API keys (DESIGN.md "Auth decisions"): random, shown once, stored as SHA-256, presented as
 * `Authorization: Bearer <key>` and never in a URL, a log line or an error.
 *
 * This module depends on no store: it states what it needs from one (`ApiKeyDirectory`) and the
 * store implements that.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ServiceError } from '../src/errors.ts';

export const API_KEY_PREFIX = 'folio_';
/** Characters of a key shown in listings (`folio_` and six more). */
export const DISPLAY_PREFIX_LENGTH = 12;
/** Query parameters that look like a credential: refused even when the key in them is valid. */
export const QUERY_KEY_PARAMS = ['api_key', 'apiKey', 'key', 'token', 'access_token'] as const;
/** `last_used_at` is written at most this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;
export const REALM = 'folio';

const KEY_PATTERN = /^folio_[A-Za-z0-9_-]{43}$/;

/** A new key: `folio_` + 32 random bytes, base64url. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** What the middleware needs from a key store. */
export interface StoredApiKey {
  id: string;
  teamId: string;
  teamName: string;
  keyHash: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface ApiKeyDirectory {
  findApiKeyByHash(keyHash: string): Promise<StoredApiKey | undefined>;
  touchApiKey(id: string, at: Date): Promise<void>;
}

/** The authenticated caller, in `res.locals.auth`. */
export interface AuthenticatedTeam {
  keyId: string;
  teamId: string;
  teamName: string;
}

/** Checks a presented key; undefined for unknown, malformed or revoked keys. */
export async function verifyApiKey(directory: ApiKeyDirectory, presented: string): Promise<StoredApiKey | undefined> {
  if (!KEY_PATTERN.test(presented)) return undefined;
  const hash = hashApiKey(presented);
  const stored = await directory.findApiKeyByHash(hash);
  if (!stored) return undefined;
  const a = Buffer.from(hash, 'hex');
  const b = Buffer.from(stored.keyHash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
  if (stored.revokedAt !== null) return undefined;
  return stored;
}

/** Records a use of a key (`last_used_at`), at most once per LAST_USED_RESOLUTION_MS; never waits. */
export function recordApiKeyUse(directory: ApiKeyDirectory, stored: StoredApiKey, at: Date, onError?: (err: unknown) => void): void {
  const last = stored.lastUsedAt === null ? 0 : Date.parse(stored.lastUsedAt);
  if (at.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  directory.touchApiKey(stored.id, at).catch((err: unknown) => onError?.(err));
}

export function teamOf(res: Response): AuthenticatedTeam | undefined {
  const value: unknown = res.locals.auth;
  if (typeof value !== 'object' || value === null) return undefined;
  const { keyId, teamId, teamName } = value as Record<string, unknown>;
  if (typeof keyId !== 'string' || typeof teamId !== 'string' || typeof teamName !== 'string') return undefined;
  return { keyId, teamId, teamName };
}

class UnauthorizedError extends ServiceError {
  readonly challenge: string;
  constructor(message: string, challenge: string) {
    super('UNAUTHORIZED', message);
    this.challenge = challenge;
  }
}

/** A 401 carries its RFC 6750 §3 challenge; the error handler copies it to the response. */
export function challengeOf(err: unknown): string | undefined {
  return err instanceof UnauthorizedError ? err.challenge : undefined;
}

function queryKeyParam(req: Request): string | undefined {
  const q = req.url.indexOf('?');
  if (q === -1) return undefined;
  const params = new URLSearchParams(req.url.slice(q + 1));
  return QUERY_KEY_PARAMS.find((name) => params.has(name));
}

/** `Bearer <token>`: the scheme is case-insensitive (RFC 9110 §11.1). */
function bearerToken(header: string | undefined): { scheme: string; token: string } | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(\S+)(?:\s+(\S*))?\s*$/.exec(header);
  if (!match) return undefined;
  return { scheme: (match[1] ?? '').toLowerCase(), token: match[2] ?? '' };
}

export interface RequireApiKeyOptions {
  /** Clock, for tests of the `last_used_at` throttle. */
  now?: () => Date;
  /** Called when recording a key's use fails (the request still goes on). */
  onTouchError?: (err: unknown) => void;
}

/**
 * Express middleware: the caller must present a valid key as a Bearer token. Sets
 * `res.locals.auth` (AuthenticatedTeam). Errors go to the error handler as ServiceErrors.
 */
export function requireApiKey(directory: ApiKeyDirectory, options: RequireApiKeyOptions = {}): RequestHandler {
  const now = options.now ?? (() => new Date());
  return async (req: Request, res: Response, next: NextFunction) => {
    const param = queryKeyParam(req);
    if (param !== undefined) {
      throw new ServiceError(
        'BAD_REQUEST',
        `API keys are not accepted in the URL (query parameter '${param}'): URLs end up in logs and browser history. Send the key in the Authorization header as 'Authorization: Bearer <API_KEY>', and consider rotating the key you sent.`,
      );
    }
    const credentials = bearerToken(req.headers.authorization);
    if (!credentials || credentials.scheme !== 'bearer') {
      throw new UnauthorizedError(
        "Missing API key. Send it in the Authorization header as 'Authorization: Bearer <API_KEY>'.",
        `Bearer realm="${REALM}"`,
      );
    }
    const stored = credentials.token ? await verifyApiKey(directory, credentials.token) : undefined;
    if (!stored) {
      throw new UnauthorizedError(
        'Invalid API key: it is unknown, malformed or revoked. Check the key, or create a new one with `folio keys create --team <name>`.',
        `Bearer realm="${REALM}", error="invalid_token", error_description="The API key is unknown, malformed or revoked"`,
      );
    }
    recordApiKeyUse(directory, stored, now(), options.onTouchError);
    const auth: AuthenticatedTeam = { keyId: stored.id, teamId: stored.teamId, teamName: stored.teamName };
    res.locals.auth = auth;
    next();
  };
}
