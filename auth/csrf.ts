/**
 * CSRF protection of the account and authorization forms: a random token per browser session,
 * kept with the session in the store (synchronizer token pattern), placed in a hidden field of
 * every form and compared in constant time on every POST. It is replaced when the session is
 * (sign-in), so a token seen before sign-in is useless after it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_FIELD = 'csrf_token';

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time comparison (both sides hashed first, so the lengths match). */
export function csrfTokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 200) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
