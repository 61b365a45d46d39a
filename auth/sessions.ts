/**
 * Browser sessions of the authorization server's pages (sign-in, team choice, consent, account
 * settings). The cookie carries 32 random bytes; the store keeps only their SHA-256, the user
 * (null before sign-in), the session's CSRF token (auth/csrf.ts) and an expiry.
 *
 * Cookie: `__Host-folio_session` when the public URL is https (the `__Host-` prefix pins it to
 * this host, path `/`, Secure: RFC 6265bis §4.1.3.2), else `folio_session`; always HttpOnly and
 * SameSite=Lax (the consent form is POSTed from folio's own page; Lax still sends the cookie on
 * the top-level GET of /oauth/authorize a client redirects the browser to).
 * Signing in replaces the session id and CSRF token (no session fixation).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AccountStore } from '../src/store/accounts.ts';
import { newCsrfToken } from './csrf.ts';

/** A signed-in session lasts this long. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** A session made only to carry an authorization request through sign-in. */
export const ANONYMOUS_SESSION_TTL_MS = 30 * 60 * 1000;

export interface Session {
  idHash: string;
  userId: string | null;
  csrfToken: string;
}

export type SessionStore = Pick<AccountStore, 'createSession' | 'getSession' | 'rotateSession' | 'deleteSession' | 'deleteExpiredSessions'>;

export interface BrowserSessions {
  readonly cookieName: string;
  /** The live session named by the request's Cookie header, if any. */
  read(cookieHeader: string | undefined): Promise<Session | undefined>;
  /** A new session before sign-in; returns it and the Set-Cookie value. */
  startAnonymous(): Promise<{ session: Session; setCookie: string }>;
  /** Signs the user in: the current session (if any) gets a new id and CSRF token; returns the Set-Cookie value. */
  signIn(current: Session | undefined, userId: string): Promise<{ session: Session; setCookie: string }>;
  /** Ends the session; returns the Set-Cookie value that clears the cookie. */
  signOut(session: Session | undefined): Promise<string>;
}

export interface BrowserSessionOptions {
  store: SessionStore;
  /** The public base URL: https → `__Host-` cookie, Secure. */
  publicUrl: string;
  now?: () => Date;
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The value of one cookie in a Cookie header (RFC 6265 §5.4), undefined when absent. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createBrowserSessions(options: BrowserSessionOptions): BrowserSessions {
  const secure = new URL(options.publicUrl).protocol === 'https:';
  const cookieName = secure ? '__Host-folio_session' : 'folio_session';
  const now = options.now ?? (() => new Date());
  const { store } = options;
  let lastSweep = 0;

  const cookie = (value: string, maxAgeSeconds: number): string =>
    [`${cookieName}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');

  const fresh = (userId: string | null) => {
    const id = randomBytes(32).toString('base64url');
    const ttl = userId === null ? ANONYMOUS_SESSION_TTL_MS : SESSION_TTL_MS;
    const session: Session = { idHash: hashSessionId(id), userId, csrfToken: newCsrfToken() };
    return { id, session, ttl, expiresAt: new Date(now().getTime() + ttl) };
  };

  return {
    cookieName,
    async read(cookieHeader) {
      const at = now();
      if (at.getTime() - lastSweep > 60_000) {
        lastSweep = at.getTime();
        await store.deleteExpiredSessions(at);
      }
      const id = readCookie(cookieHeader, cookieName);
      if (!id || id.length > 100) return undefined;
      const stored = await store.getSession(hashSessionId(id));
      if (!stored || Date.parse(stored.expiresAt) <= at.getTime()) return undefined;
      return { idHash: stored.idHash, userId: stored.userId, csrfToken: stored.csrfToken };
    },
    async startAnonymous() {
      const f = fresh(null);
      await store.createSession({ idHash: f.session.idHash, userId: null, csrfToken: f.session.csrfToken, expiresAt: f.expiresAt });
      return { session: f.session, setCookie: cookie(f.id, f.ttl / 1000) };
    },
    async signIn(current, userId) {
      const f = fresh(userId);
      const next = { idHash: f.session.idHash, userId, csrfToken: f.session.csrfToken, expiresAt: f.expiresAt };
      const rotated = current ? await store.rotateSession(current.idHash, next) : false;
      if (!rotated) await store.createSession(next);
      return { session: f.session, setCookie: cookie(f.id, f.ttl / 1000) };
    },
    async signOut(session) {
      if (session) await store.deleteSession(session.idHash);
      return cookie('', 0);
    },
  };
}
