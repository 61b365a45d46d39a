/**
 * Interact (`/v2/scrape/{scrapeId}/interact`): the page of a scrape, driven afterwards.
 *
 *   - A RENDERED scrape's own page stays open (held-pages.ts): interact drives that live page, so
 *     whatever the scrape, or an earlier interact, did to it (text typed into a form) is there.
 *     Once it is closed (idle, the cap, DELETE, a revoked key) the scrape answers `410 GONE`.
 *   - A scrape the plain fetch engine answered has no page: every scrape of the HTTP door is
 *     remembered (its team, final URL and `actions`) for FOLIO_INTERACT_TTL_SECONDS; the first
 *     interact opens a browser session of the `interact` kind (sessions.ts: a Chromium of its
 *     own), loads the page and replays the scrape's actions that change the page (wait, click,
 *     write, press, scroll, executeJavascript). Later interacts reuse that session until it is idle
 *     for the same time, or DELETE ends it.
 *
 * A scrape of another team, unknown, or too old is a 404 alike.
 */
import { ServiceError } from '../errors.ts';
import { runActions } from './actions.ts';
import type { Action } from './schema.ts';
import type { HeldPage, HeldPages } from './held-pages.ts';
import type { BrowserSessionRecord, SessionManager, SessionOwner } from './sessions.ts';

/** What an interact runs on: the scrape's held page, or a session that reopened it. */
export type InteractTarget = { kind: 'held'; held: HeldPage } | { kind: 'session'; session: BrowserSessionRecord };

/** Scrapes remembered at once (the oldest are forgotten first). */
const MAX_REMEMBERED = 10_000;
const REPLAYED = new Set<Action['type']>(['wait', 'click', 'write', 'press', 'scroll', 'executeJavascript']);
const OPEN_TIMEOUT_MS = 60_000;

interface Remembered {
  teamId: string;
  url: string;
  actions: readonly Action[];
  at: number;
}

export interface InteractPages {
  remember(scrapeId: string, teamId: string, url: string, actions: readonly Action[]): void;
  /** The scrape's held page, or the team's interact session of it, opened (and the page loaded) on first use. */
  open(scrapeId: string, owner: SessionOwner): Promise<InteractTarget>;
  /** What is open, if anything (for DELETE); undefined when the page was already closed. */
  current(scrapeId: string, teamId: string): Promise<InteractTarget | undefined>;
}

function gone(scrapeId: string, why: string, at: Date): ServiceError {
  return new ServiceError('GONE', `The page of scrape ${scrapeId.slice(0, 64)} was closed at ${at.toISOString()}: ${why}. A scrape's page is kept open only for a while; scrape the page again (with the same \`actions\` to reach the same state) and interact with the new metadata.scrapeId.`);
}

function notFound(scrapeId: string, ttlSeconds: number): ServiceError {
  return new ServiceError('NOT_FOUND', `No scrape ${scrapeId.slice(0, 64)} of your team can be interacted with: a rendered scrape's page stays open until ${ttlSeconds} s after its last use (FOLIO_INTERACT_TTL_SECONDS), a plain-fetch scrape can be interacted with for ${ttlSeconds} s (not under zeroDataRetention), both on the folio process that scraped them. Scrape the page again and use the new metadata.scrapeId.`);
}

export function createInteractPages(sessions: SessionManager, held: HeldPages, ttlSeconds: number, now: () => number = Date.now): InteractPages {
  const scrapes = new Map<string, Remembered>();
  const opening = new Map<string, Promise<BrowserSessionRecord>>();

  const recall = (scrapeId: string, teamId: string): Remembered | undefined => {
    const r = scrapes.get(scrapeId);
    if (!r || r.teamId !== teamId) return undefined;
    if (now() - r.at > ttlSeconds * 1000) {
      scrapes.delete(scrapeId);
      return undefined;
    }
    return r;
  };

  const load = async (scrapeId: string, owner: SessionOwner, r: Remembered): Promise<BrowserSessionRecord> => {
    const session = await sessions.create(owner, { kind: 'interact', ttlSeconds: 86_400, activityTtlSeconds: ttlSeconds, scrapeId });
    try {
      const started = Date.now();
      const remaining = () => Math.max(0, OPEN_TIMEOUT_MS - (Date.now() - started));
      await session.page.goto(r.url, { waitUntil: 'load', timeout: OPEN_TIMEOUT_MS });
      const replay = r.actions.filter((a) => REPLAYED.has(a.type));
      if (replay.length > 0) await runActions(session.page, replay, { remaining, save: () => Promise.resolve('') }, () => remaining() < 50);
      return session;
    } catch (err) {
      await sessions.end(session, 'its page could not be loaded');
      if (err instanceof ServiceError) throw err;
      throw new ServiceError('FETCH_FAILED', `Could not open the page of scrape ${scrapeId} for interaction: ${err instanceof Error ? (err.message.split('\n')[0] ?? '').slice(0, 200) : 'unknown error'}.`, { cause: err });
    }
  };

  return {
    remember(scrapeId, teamId, url, actions) {
      if (scrapes.size >= MAX_REMEMBERED) {
        const oldest = scrapes.keys().next().value;
        if (oldest !== undefined) scrapes.delete(oldest);
      }
      scrapes.set(scrapeId, { teamId, url, actions, at: now() });
    },
    async open(scrapeId, owner) {
      const page = await held.use(scrapeId, owner.teamId);
      if (page) return { kind: 'held', held: page };
      const ended = held.ended(scrapeId, owner.teamId);
      if (ended) throw gone(scrapeId, ended.why, ended.at);
      const open = await sessions.interactOf(scrapeId, owner.teamId);
      if (open) return { kind: 'session', session: open };
      const r = recall(scrapeId, owner.teamId);
      if (!r) throw notFound(scrapeId, ttlSeconds);
      const key = `${owner.teamId}\n${scrapeId}`;
      let pending = opening.get(key);
      if (!pending) {
        pending = load(scrapeId, owner, r).finally(() => opening.delete(key));
        opening.set(key, pending);
      }
      return { kind: 'session', session: await pending };
    },
    async current(scrapeId, teamId) {
      const page = await held.use(scrapeId, teamId);
      if (page) return { kind: 'held', held: page };
      if (held.ended(scrapeId, teamId)) return undefined;
      const open = await sessions.interactOf(scrapeId, teamId);
      if (open) return { kind: 'session', session: open };
      if (!recall(scrapeId, teamId)) throw notFound(scrapeId, ttlSeconds);
      return undefined;
    },
  };
}
