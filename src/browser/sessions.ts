/**
 * Browser sessions (`/v2/browser`, and the page of a scrape driven by interact): each session is
 * a Chromium of its own (engine.launchDedicated: the same guarded proxy and switches as renders,
 * a throw-away profile), so a client holding its DevTools connection sees nothing of any other
 * team or request. A session belongs to the team and the API key that created it:
 *
 *   - it ends at `ttl` after creation, or `activityTtl` after its last use (a request about it,
 *     a DevTools message), whichever comes first; a sweep every few seconds closes it;
 *   - it ends when its key is revoked (checked on every use and by the sweep);
 *   - a team has at most `maxPerTeam` sessions open, the process `maxTotal` (429 RATE_LIMITED);
 *   - a `/v2/browser` session holds one of its team's concurrent places (plan maxConcurrent)
 *     while open (`teamPlace`): at the team's limit, 429 RATE_LIMITED saying what is open.
 *
 * The DevTools endpoint of the session's Chromium listens on loopback only; clients reach it
 * through folio's WebSocket door (cdp-door.ts) with the session's capability token.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ServiceError } from '../errors.ts';

export type SessionKind = 'session' | 'interact';

export interface SessionOwner {
  teamId: string;
  /** The id of the API key that created the session (checked for revocation on use); absent for OAuth callers. */
  keyId?: string;
  /** The OAuth client (and user) of an access token, named on the session's charges; absent for API keys. */
  oauthClient?: string;
}

export interface BrowserSessionRecord {
  readonly id: string;
  readonly kind: SessionKind;
  readonly owner: SessionOwner;
  /** The capability of the DevTools door (never logged; masked in paths by src/log.ts). */
  readonly token: string;
  readonly createdAt: Date;
  lastActivity: Date;
  readonly expiresAt: Date;
  readonly activityTtlMs: number;
  readonly context: BrowserContext;
  /** The session's first page (the `page` handle of execute). */
  readonly page: Page;
  /** ws://127.0.0.1:{port}/devtools/browser/{id}: Chromium's own endpoint, loopback only. */
  readonly devtoolsUrl: string;
  /** For interact sessions: the scrape. */
  readonly scrapeId?: string;
  /** Credits charged when it ended (its minutes; `/v2/browser` sessions only). */
  creditsBilled?: number;
}

/** Credits of browser time (docs/billing.md): refused before (402), charged after. */
export interface BrowserBilling {
  /** 402 PAYMENT_REQUIRED when the team cannot afford one browser minute. */
  admit(owner: SessionOwner, what: 'browser' | 'interact'): Promise<void>;
  /** Charges `durationMs` of browser time (every started minute); the credits charged. */
  charge(owner: SessionOwner, what: 'browser' | 'interact', durationMs: number): Promise<number>;
}

export interface SessionLimits {
  maxPerTeam: number;
  maxTotal: number;
  /** Upper bound of `ttl` (seconds). */
  maxTtlSeconds: number;
}

export interface SessionManagerOptions {
  launch: (userDataDir: string) => Promise<BrowserContext>;
  limits: SessionLimits;
  /** Whether the owner's key is still valid (not revoked). */
  keyValid: (owner: SessionOwner) => Promise<boolean>;
  now?: () => Date;
  sweepMs?: number;
  onClosed?: (session: BrowserSessionRecord, why: string) => void;
  /**
   * A place among the team's concurrent jobs (its plan's maxConcurrent), held while a `/v2/browser`
   * session is open; `sessionsOpen` is the team's open sessions (for the refusal's message).
   * Absent: sessions take no place.
   */
  teamPlace?: (teamId: string, sessionsOpen: number) => Promise<{ release(): void }>;
  /** Sessions cost their minutes; absent: free. */
  billing?: BrowserBilling;
  onChargeError?: (err: unknown) => void;
}

export interface CreateSession {
  kind: SessionKind;
  ttlSeconds: number;
  activityTtlSeconds: number;
  scrapeId?: string;
}

export interface SessionManager {
  create(owner: SessionOwner, request: CreateSession): Promise<BrowserSessionRecord>;
  /** The team's session, its key checked and its activity recorded; undefined when unknown, foreign or ended. */
  use(id: string, teamId: string): Promise<BrowserSessionRecord | undefined>;
  /** The team's interact session of a scrape. */
  interactOf(scrapeId: string, teamId: string): Promise<BrowserSessionRecord | undefined>;
  /** The session a DevTools token opens (key checked, activity recorded). */
  byToken(token: string): Promise<BrowserSessionRecord | undefined>;
  touch(session: BrowserSessionRecord): void;
  list(teamId: string, kind?: SessionKind): BrowserSessionRecord[];
  /** Ends a session; false when it was not open. */
  end(session: BrowserSessionRecord, why: string): Promise<boolean>;
  /** Ends expired sessions and those of revoked keys; the count ended. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/** Reads Chromium's DevTools port and path from its profile (written once it listens). */
async function devtoolsUrl(userDataDir: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(path.join(userDataDir, 'DevToolsActivePort'), 'utf8').catch(() => '');
    const [port, wsPath] = text.split('\n');
    if (port && wsPath) return `ws://127.0.0.1:${port.trim()}${wsPath.trim()}`;
    if (Date.now() > until) throw new Error('Chromium did not open its DevTools endpoint');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const now = options.now ?? (() => new Date());
  const sessions = new Map<string, BrowserSessionRecord>();
  const dirs = new Map<string, string>();
  /** The team places of open sessions, given back when they end. */
  const places = new Map<string, { release(): void }>();
  /** Sessions by the SHA-256 of their token: a lookup compares no secret byte by byte. */
  const byTokenHash = new Map<string, BrowserSessionRecord>();
  const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
  let opening = 0;
  const openingByTeam = new Map<string, number>();
  let closed = false;

  const expired = (s: BrowserSessionRecord, at: Date): string | undefined => {
    if (at >= s.expiresAt) return 'its ttl ran out';
    if (at.getTime() - s.lastActivity.getTime() >= s.activityTtlMs) return 'it was idle longer than its activityTtl';
    return undefined;
  };

  const end = async (s: BrowserSessionRecord, why: string): Promise<boolean> => {
    if (sessions.get(s.id) !== s) return false;
    sessions.delete(s.id);
    byTokenHash.delete(tokenHash(s.token));
    places.get(s.id)?.release();
    places.delete(s.id);
    await s.context.close().catch(() => undefined);
    if (s.kind === 'session' && options.billing) {
      // Its whole life, every started minute, whoever ended it (DELETE, ttl, idle, a revoked key).
      s.creditsBilled = await options.billing.charge(s.owner, 'browser', now().getTime() - s.createdAt.getTime()).catch((err: unknown) => {
        options.onChargeError?.(err);
        return 0;
      });
    }
    const dir = dirs.get(s.id);
    dirs.delete(s.id);
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    options.onClosed?.(s, why);
    return true;
  };

  /** The session if still alive (not expired, key not revoked), activity recorded. */
  const alive = async (s: BrowserSessionRecord | undefined): Promise<BrowserSessionRecord | undefined> => {
    if (!s) return undefined;
    const at = now();
    const why = expired(s, at);
    if (why) {
      await end(s, why);
      return undefined;
    }
    if (!(await options.keyValid(s.owner))) {
      await end(s, 'its API key was revoked');
      return undefined;
    }
    s.lastActivity = at;
    return s;
  };

  const timer = setInterval(() => void manager.sweep().catch(() => undefined), options.sweepMs ?? 5000);
  timer.unref();

  const manager: SessionManager = {
    async create(owner, request) {
      if (closed) throw new ServiceError('NOT_CONFIGURED', 'The browser engine is shutting down.');
      // Sessions still starting count too, so that concurrent requests cannot pass the bound together.
      const mine = [...sessions.values()].filter((s) => s.owner.teamId === owner.teamId).length + (openingByTeam.get(owner.teamId) ?? 0);
      if (mine >= options.limits.maxPerTeam) {
        throw new ServiceError('RATE_LIMITED', `Your team already has ${mine} browser sessions open (at most ${options.limits.maxPerTeam}, FOLIO_BROWSER_SESSIONS_PER_TEAM; interact pages count too). Delete one (DELETE /v2/browser/{id}, or DELETE /v2/scrape/{id}/interact) or wait for one to expire.`, { retryAfterSeconds: 5 });
      }
      if (sessions.size + opening >= options.limits.maxTotal) {
        throw new ServiceError('RATE_LIMITED', `This server has ${options.limits.maxTotal} browser sessions open, its limit (FOLIO_BROWSER_MAX_SESSIONS). Try again when one has ended.`, { retryAfterSeconds: 10 });
      }
      // Counted as opening before the first await: requests arriving together see each other.
      opening++;
      openingByTeam.set(owner.teamId, (openingByTeam.get(owner.teamId) ?? 0) + 1);
      let context: BrowserContext | undefined;
      let place: { release(): void } | undefined;
      let dir: string | undefined;
      try {
        if (request.kind === 'session') await options.billing?.admit(owner, 'browser');
        if (request.kind === 'session' && options.teamPlace) place = await options.teamPlace(owner.teamId, [...sessions.values()].filter((x) => x.owner.teamId === owner.teamId && x.kind === 'session').length);
        dir = await mkdtemp(path.join(os.tmpdir(), 'folio-session-'));
        context = await options.launch(dir);
        const url = await devtoolsUrl(dir, 10_000);
        const page = context.pages()[0] ?? (await context.newPage());
        const at = now();
        const session: BrowserSessionRecord = {
          id: randomUUID(),
          kind: request.kind,
          owner,
          token: randomBytes(32).toString('base64url'),
          createdAt: at,
          lastActivity: at,
          expiresAt: new Date(at.getTime() + Math.min(request.ttlSeconds, options.limits.maxTtlSeconds) * 1000),
          activityTtlMs: request.activityTtlSeconds * 1000,
          context,
          page,
          devtoolsUrl: url,
          ...(request.scrapeId ? { scrapeId: request.scrapeId } : {}),
        };
        sessions.set(session.id, session);
        byTokenHash.set(tokenHash(session.token), session);
        dirs.set(session.id, dir);
        if (place) places.set(session.id, place);
        place = undefined;
        context.on('close', () => void end(session, 'its browser closed'));
        if (closed) await end(session, 'the server is shutting down');
        return session;
      } catch (err) {
        place?.release();
        await context?.close().catch(() => undefined);
        if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
        throw err instanceof ServiceError ? err : new ServiceError('FETCH_FAILED', `Could not open a browser session: ${err instanceof Error ? (err.message.split('\n')[0] ?? '').slice(0, 200) : 'unknown error'}.`, { cause: err });
      } finally {
        opening--;
        const left = (openingByTeam.get(owner.teamId) ?? 1) - 1;
        if (left > 0) openingByTeam.set(owner.teamId, left);
        else openingByTeam.delete(owner.teamId);
      }
    },
    async use(id, teamId) {
      const s = sessions.get(id);
      return s && s.owner.teamId === teamId ? alive(s) : undefined;
    },
    async interactOf(scrapeId, teamId) {
      const s = [...sessions.values()].find((x) => x.kind === 'interact' && x.scrapeId === scrapeId && x.owner.teamId === teamId);
      return alive(s);
    },
    async byToken(token) {
      return alive(byTokenHash.get(tokenHash(token)));
    },
    touch(s) {
      s.lastActivity = now();
    },
    list(teamId, kind) {
      const at = now();
      return [...sessions.values()].filter((s) => s.owner.teamId === teamId && (kind === undefined || s.kind === kind) && expired(s, at) === undefined);
    },
    end,
    async sweep() {
      let count = 0;
      const at = now();
      for (const s of [...sessions.values()]) {
        const why = expired(s, at) ?? ((await options.keyValid(s.owner).catch(() => true)) ? undefined : 'its API key was revoked');
        if (why && (await end(s, why))) count++;
      }
      return count;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await Promise.all([...sessions.values()].map((s) => end(s, 'the server is shutting down')));
    },
  };
  return manager;
}

/** A session's `cdpUrl`: folio's DevTools door (src/http/cdp-door.ts) under the public URL, http → ws. */
export function cdpUrlOf(publicUrl: string, session: Pick<BrowserSessionRecord, 'token'>): string {
  return `${publicUrl.replace(/^http/i, 'ws').replace(/\/+$/, '')}/v2/browser/cdp/${session.token}`;
}

export const DEFAULT_SESSION_TTL_SECONDS = 600;
export const DEFAULT_ACTIVITY_TTL_SECONDS = 300;
