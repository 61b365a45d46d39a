/**
 * The pages of rendered scrapes, kept open for interact (`/v2/scrape/{scrapeId}/interact`): when
 * a rendered scrape answers, its page and its own browser context stay open in the shared
 * Chromium, in memory only, under the scrape's id and team:
 *
 *   - until FOLIO_INTERACT_TTL_SECONDS after its last use (the scrape, an interact, a DevTools
 *     message of interact's code); a sweep every few seconds closes idle ones;
 *   - at most `maxHeld` (FOLIO_INTERACT_MAX_PAGES) in the process: holding one more closes the
 *     oldest idle one first; when every held page is busy the new one is not held (closed now);
 *   - each keeps its page slot of the engine (FOLIO_BROWSER_MAX_PAGES): a render that waits for a
 *     slot closes the oldest idle held page (engine.setReclaimer), so held pages never starve renders;
 *   - an idle held page holds no place of the team's concurrency (only an interact running on it does);
 *   - it ends with its owner's API key (checked on use and by the sweep), on DELETE, or when
 *     Chromium dies.
 *
 * A closed page's scrape id is remembered (team, why, when) so interact can answer `410 GONE`
 * saying why, rather than a bare 404.
 */
import type { Page } from 'playwright-core';
import type { ContextLease } from './engine.ts';
import type { SessionOwner } from './sessions.ts';

/** Ended pages remembered for their 410 (the oldest forgotten first). */
const MAX_ENDED = 10_000;

export interface HeldPage {
  readonly scrapeId: string;
  readonly owner: SessionOwner;
  readonly page: Page;
  readonly lease: ContextLease;
  /** Chromium's id of the page's context (the scope of interact's DevTools relay). */
  readonly browserContextId: string;
  readonly createdAt: Date;
  lastUsed: number;
  /** Interacts running on it now (a busy page is never closed for the cap). */
  busy: number;
}

export interface EndedPage {
  teamId: string;
  why: string;
  at: Date;
}

export interface HeldPagesOptions {
  maxHeld: number;
  idleTtlSeconds: number;
  keyValid: (owner: SessionOwner) => Promise<boolean>;
  now?: () => number;
  sweepMs?: number;
  onClosed?: (held: HeldPage, why: string) => void;
}

export interface HeldPages {
  /** Keeps a rendered scrape's page; false when it could not be held (the lease is released then). */
  hold(scrapeId: string, owner: SessionOwner, page: Page, lease: ContextLease): Promise<boolean>;
  /** The team's live held page of the scrape (key checked, use recorded), or undefined. */
  use(scrapeId: string, teamId: string): Promise<HeldPage | undefined>;
  /** Why the team's held page of this scrape was closed, if it was (for the 410). */
  ended(scrapeId: string, teamId: string): EndedPage | undefined;
  touch(held: HeldPage): void;
  /** Closes it now; false when it was not held. */
  release(held: HeldPage, why: string): Promise<boolean>;
  /** Closes the oldest idle held page (a render waits for its slot); whether one was closed. */
  reclaimOne(): boolean;
  readonly size: number;
  sweep(): Promise<number>;
  close(): Promise<void>;
}

export function createHeldPages(options: HeldPagesOptions): HeldPages {
  const now = options.now ?? Date.now;
  const held = new Map<string, HeldPage>();
  const endedPages = new Map<string, EndedPage>();
  let closed = false;

  const idleFor = (h: HeldPage) => now() - h.lastUsed;
  const expired = (h: HeldPage): string | undefined => {
    if (h.page.isClosed() || !h.lease.browser.isConnected()) return 'the browser closed it';
    if (h.busy === 0 && idleFor(h) >= options.idleTtlSeconds * 1000) return `it was idle for ${options.idleTtlSeconds} s (FOLIO_INTERACT_TTL_SECONDS)`;
    return undefined;
  };

  const release = async (h: HeldPage, why: string): Promise<boolean> => {
    if (held.get(h.scrapeId) !== h) return false;
    held.delete(h.scrapeId);
    if (endedPages.size >= MAX_ENDED) {
      const oldest = endedPages.keys().next().value;
      if (oldest !== undefined) endedPages.delete(oldest);
    }
    endedPages.set(h.scrapeId, { teamId: h.owner.teamId, why, at: new Date(now()) });
    await h.lease.release();
    options.onClosed?.(h, why);
    return true;
  };

  /** The idle page unused the longest, if any. */
  const oldestIdle = (): HeldPage | undefined => {
    let oldest: HeldPage | undefined;
    for (const h of held.values()) if (h.busy === 0 && (!oldest || h.lastUsed < oldest.lastUsed)) oldest = h;
    return oldest;
  };

  const timer = setInterval(() => void pages.sweep().catch(() => undefined), options.sweepMs ?? 5000);
  timer.unref();

  const pages: HeldPages = {
    async hold(scrapeId, owner, page, lease) {
      if (closed || options.maxHeld <= 0) {
        await lease.release();
        return false;
      }
      while (held.size >= options.maxHeld) {
        const oldest = oldestIdle();
        if (!oldest) {
          await lease.release();
          return false;
        }
        await release(oldest, `FOLIO_INTERACT_MAX_PAGES (${options.maxHeld}) pages were held and it was the one idle the longest`);
      }
      let browserContextId: string;
      try {
        const cdp = await lease.context.newCDPSession(page);
        try {
          const { targetInfo } = await cdp.send('Target.getTargetInfo');
          browserContextId = targetInfo.browserContextId ?? '';
        } finally {
          await cdp.detach().catch(() => undefined);
        }
      } catch {
        browserContextId = '';
      }
      if (!browserContextId) {
        await lease.release();
        return false;
      }
      const at = now();
      held.set(scrapeId, { scrapeId, owner, page, lease, browserContextId, createdAt: new Date(at), lastUsed: at, busy: 0 });
      return true;
    },
    async use(scrapeId, teamId) {
      const h = held.get(scrapeId);
      if (!h || h.owner.teamId !== teamId) return undefined;
      const why = expired(h) ?? ((await options.keyValid(h.owner)) ? undefined : 'its API key was revoked');
      if (why) {
        await release(h, why);
        return undefined;
      }
      h.lastUsed = now();
      return h;
    },
    ended(scrapeId, teamId) {
      const e = endedPages.get(scrapeId);
      return e && e.teamId === teamId ? e : undefined;
    },
    touch(h) {
      h.lastUsed = now();
    },
    release,
    reclaimOne() {
      const oldest = oldestIdle();
      if (!oldest) return false;
      void release(oldest, 'a render needed its browser page slot (FOLIO_BROWSER_MAX_PAGES) and it was the held page idle the longest');
      return true;
    },
    get size() {
      return held.size;
    },
    async sweep() {
      let count = 0;
      for (const h of [...held.values()]) {
        const why = expired(h) ?? ((await options.keyValid(h.owner).catch(() => true)) ? undefined : 'its API key was revoked');
        if (why && (await release(h, why))) count++;
      }
      return count;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await Promise.all([...held.values()].map((h) => release(h, 'the server is shutting down')));
    },
  };
  return pages;
}
