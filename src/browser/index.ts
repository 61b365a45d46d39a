/**
 * The browser subsystem (docs/browser.md): headless Chromium for rendered scrapes, the
 * `screenshot` format and `actions`, every request of it through folio's SSRF rules.
 *
 *   engine.ts       one Chromium per process, bounded pages, one context per render
 *   guard-proxy.ts  the loopback forward proxy applying the fetcher's address rule
 *   render.ts       a page rendered: navigate, wait, actions, screenshot, DOM
 *   actions.ts      the `actions` list run in order → data.actions
 *   captures.ts     screenshots and PDFs at expiring capability URLs (or inline under ZDR)
 *   schema.ts       zod schemas of the screenshot format and the actions
 *   scrape-engine.ts  which engine answers a scrape: fetched first, rendered when asked or an app shell
 *   sessions.ts     browser sessions (`/v2/browser`, interact pages): a Chromium each, ttl, per-team bound
 *   execute.ts      a caller's Node code against a session's page, in a permission-model sandbox
 *   interact.ts     a scrape's page for `/v2/scrape/{id}/interact`: the held one, or reopened
 *   held-pages.ts   rendered scrapes' pages kept open for interact (idle ttl, per-process cap)
 *   cdp-scope.ts    a DevTools relay showing one context of the shared Chromium (interact's code)
 *
 * The rest of folio reaches it only through this file.
 */
import type { Page } from 'playwright-core';
import { ServiceError } from '../errors.ts';
import type { UploadStorage } from '../uploads/storage.ts';
import type { LookupFunction } from '../web/fetch/guarded-connect.ts';
import { createCaptureStore, type Capture } from './captures.ts';
import { createBrowserEngine } from './engine.ts';
import type { ProxyStats } from './guard-proxy.ts';
import { render, type RenderedPage, type RenderRequest } from './render.ts';
import { executeCode, type ExecuteResult } from './execute.ts';
import { openScopedEndpoint } from './cdp-scope.ts';
import { createHeldPages, type HeldPage, type HeldPages } from './held-pages.ts';
import { createInteractPages, type InteractPages, type InteractTarget } from './interact.ts';
import { runPrompt, type ActionPlanner } from './prompt.ts';
import { createSessionManager, type BrowserBilling, type BrowserSessionRecord, type SessionLimits, type SessionManager, type SessionOwner } from './sessions.ts';

export { ActionsSchema, ScreenshotFormatSchema, needsBrowser, MAX_ACTIONS, MAX_WAIT_MS, MAX_TOTAL_WAIT_MS } from './schema.ts';
export type { Action, ActionsResult, BrowserWants, ScreenshotFormat } from './schema.ts';
export type { RenderedPage, RenderRequest } from './render.ts';
export type { Capture, CaptureStore } from './captures.ts';
export { createCaptureStore } from './captures.ts';
export { DEFAULT_VIEWPORT, MOBILE_VIEWPORT } from './render.ts';
export { scrapeEngine } from './scrape-engine.ts';
export { runActions } from './actions.ts';
export { DEFAULT_EXECUTE_TIMEOUT_SECONDS, MAX_EXECUTE_TIMEOUT_SECONDS, MAX_OUTPUT_BYTES } from './execute.ts';
export type { ExecuteResult } from './execute.ts';
export type { BrowserBilling, BrowserSessionRecord, SessionKind, SessionLimits, SessionOwner } from './sessions.ts';
export { cdpUrlOf, DEFAULT_ACTIVITY_TTL_SECONDS, DEFAULT_SESSION_TTL_SECONDS } from './sessions.ts';
export type { InteractPages, InteractTarget } from './interact.ts';
export type { HeldPage } from './held-pages.ts';
export type { ActionPlanner } from './prompt.ts';
export { BLOCKED_HEADER, startGuardProxy } from './guard-proxy.ts';
export { openScopedEndpoint } from './cdp-scope.ts';
export type { GuardProxy, GuardProxyOptions, ProxyStats } from './guard-proxy.ts';
export type { BrowserScrapeOptions, EngineChoice, EngineInput, FetchedPage } from './scrape-engine.ts';

export interface BrowserServiceOptions {
  /** FOLIO_BROWSER: off → render() answers NOT_CONFIGURED and app shells keep their warning. */
  enabled: boolean;
  executablePath: string;
  /** FOLIO_BROWSER_SANDBOX. */
  sandbox: 'auto' | 'on' | 'off';
  maxPages: number;
  /** FOLIO_FETCH_ALLOW entries. */
  allow: readonly string[];
  /** Where screenshots and PDFs are kept (DATA_DIR/captures on the local disk). */
  storage: UploadStorage;
  /** The base URL of capture links. */
  publicUrl: string;
  /** Capture URL lifetime (FOLIO_SCREENSHOT_TTL_SECONDS). */
  captureTtlSeconds: number;
  now?: () => Date;
  lookup?: LookupFunction;
  onRefused?: (target: string, reason: string) => void;
  onCrash?: () => void;
  onSweepError?: (err: unknown) => void;
  /** Browser sessions: how many, how long (FOLIO_BROWSER_SESSIONS_PER_TEAM, FOLIO_BROWSER_MAX_SESSIONS, …). */
  sessionLimits?: SessionLimits;
  /** FOLIO_INTERACT_TTL_SECONDS. */
  interactTtlSeconds?: number;
  /** FOLIO_INTERACT_MAX_PAGES: rendered scrapes' pages held open for interact, per process. */
  interactMaxPages?: number;
  /** Whether a session owner's API key is still valid: sessions die with their key. */
  keyValid?: (owner: SessionOwner) => Promise<boolean>;
  onSessionClosed?: (session: BrowserSessionRecord, why: string) => void;
  /**
   * A place among the team's concurrent jobs held by each open `/v2/browser` session (src/limits/teams
   * `place`): refused → 429. Absent: sessions take no place.
   */
  teamPlace?: (teamId: string, sessionsOpen: number) => Promise<{ release(): void }>;
  /**
   * Browser time in credits (docs/billing.md): a `/v2/browser` session its life, an interact call
   * its run, every started minute; 402 before when the team cannot afford one. Absent: free.
   */
  billing?: BrowserBilling;
  onChargeError?: (err: unknown) => void;
  /**
   * A place among the team's concurrent jobs for an interact call while it runs (src/limits/teams
   * `job`): it waits its turn within its timeout; `fn` gets what is left. Absent: no place.
   */
  teamJob?: <T>(teamId: string, timeoutMs: number, signal: AbortSignal | undefined, fn: (remainingMs: number) => Promise<T>) => Promise<T>;
  /** Interact's `prompt`: the LLM that turns an instruction into actions; without it `prompt` is NOT_CONFIGURED. */
  planActions?: ActionPlanner;
  /** The variables that configure an LLM, named in that NOT_CONFIGURED. */
  llmVariables?: string;
}

export interface BrowserService {
  readonly enabled: boolean;
  /** Renders a page; NOT_CONFIGURED when the engine is off or Chromium cannot start. */
  render(request: RenderRequest): Promise<RenderedPage>;
  /** A capture by its URL's last segment; undefined when unknown or expired. */
  openCapture(name: string): Promise<Capture | undefined>;
  /** Deletes expired captures now (the sweep also runs every 10 minutes). */
  sweepCaptures(): Promise<number>;
  /** The guarded proxy's counters (tests prove that the browser's requests reached it). */
  readonly proxyStats: Readonly<ProxyStats>;
  /** Browser sessions (`/v2/browser` and interact pages); NOT_CONFIGURED when the engine is off. */
  readonly sessions: SessionManager;
  /** Scrapes remembered for interact, and their pages. */
  readonly interact: InteractPages;
  /** Rendered scrapes' pages held open for interact. */
  readonly held: HeldPages;
  /** Interact's `code` on its target: a held page (through the scoped DevTools relay) or a session. */
  executeOn(target: InteractTarget, caller: SessionOwner, code: string, timeoutSeconds: number, signal?: AbortSignal): Promise<ExecuteResult>;
  /** Interact's `prompt` on its target. */
  promptOn(target: InteractTarget, caller: SessionOwner, instruction: string, signal: AbortSignal): Promise<ExecuteResult>;
  /** Ends what an interact runs on (DELETE). */
  endInteract(target: InteractTarget, why: string): Promise<void>;
  /** Runs a caller's Node code against a session's page in the sandboxed child. */
  execute(session: BrowserSessionRecord, code: string, timeoutSeconds: number, signal?: AbortSignal): Promise<ExecuteResult>;
  /** Interact's `prompt`: the LLM plans actions from the page's text, run on the page; NOT_CONFIGURED without an LLM. */
  prompt(session: BrowserSessionRecord, instruction: string, signal: AbortSignal): Promise<ExecuteResult>;
  /** Whether `prompt` can work (an LLM is configured); checked before a session is opened. */
  readonly canPrompt: boolean;
  /** The NOT_CONFIGURED of `prompt` without an LLM. */
  promptNotConfigured(): ServiceError;
  close(): Promise<void>;
}

export const DEFAULT_INTERACT_MAX_PAGES = 2;
/** How long an interact by `prompt` may wait for its team place (the prompt itself is bounded in prompt.ts). */
const PROMPT_TIMEOUT_MS = 120_000;

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxPerTeam: 2, maxTotal: 8, maxTtlSeconds: 3600 };

/** The 429 of a session asked when the team runs as many jobs and sessions as its plan allows. */
export function sessionPlaceRefused(maxConcurrent: number, running: number, sessionsOpen: number): ServiceError {
  const jobs = Math.max(0, running - sessionsOpen);
  return new ServiceError(
    'RATE_LIMITED',
    `Your team is at its concurrency limit (${maxConcurrent} at once, its plan's maxConcurrent): ${sessionsOpen} browser session${sessionsOpen === 1 ? '' : 's'} open and ${jobs} other job${jobs === 1 ? '' : 's'} (scrape, search, map, parse, crawl pages) running. An open browser session holds one place while it lives: delete one (DELETE /v2/browser/{id}) or wait for a job to finish, then try again.`,
    { retryAfterSeconds: 5 },
  );
}

function offError(): ServiceError {
  return new ServiceError('NOT_CONFIGURED', 'This folio runs without its browser engine (FOLIO_BROWSER=off), so browser sessions and interact are not available. Ask the operator to turn the browser on.');
}

export function createBrowserService(options: BrowserServiceOptions): BrowserService {
  const captures = createCaptureStore({ storage: options.storage, publicUrl: options.publicUrl, ttlSeconds: options.captureTtlSeconds, ...(options.now ? { now: options.now } : {}) });
  captures.startSweeping(options.onSweepError);
  const engine = createBrowserEngine({
    executablePath: options.executablePath,
    sandbox: options.sandbox,
    maxPages: options.maxPages,
    allow: options.allow,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.onRefused ? { onRefused: options.onRefused } : {}),
    ...(options.onCrash ? { onCrash: options.onCrash } : {}),
  });
  const sessions = createSessionManager({
    launch: (dir) => (options.enabled ? engine.launchDedicated(dir) : Promise.reject(offError())),
    limits: options.sessionLimits ?? DEFAULT_SESSION_LIMITS,
    keyValid: options.keyValid ?? (() => Promise.resolve(true)),
    ...(options.now ? { now: options.now } : {}),
    ...(options.onSessionClosed ? { onClosed: options.onSessionClosed } : {}),
    ...(options.teamPlace ? { teamPlace: options.teamPlace } : {}),
    ...(options.billing ? { billing: options.billing } : {}),
    ...(options.onChargeError ? { onChargeError: options.onChargeError } : {}),
  });
  const held = createHeldPages({
    maxHeld: options.interactMaxPages ?? DEFAULT_INTERACT_MAX_PAGES,
    idleTtlSeconds: options.interactTtlSeconds ?? 600,
    keyValid: options.keyValid ?? (() => Promise.resolve(true)),
    ...(options.now ? { now: () => (options.now as () => Date)().getTime() } : {}),
  });
  engine.setReclaimer(() => held.reclaimOne());
  const interact = createInteractPages(sessions, held, options.interactTtlSeconds ?? 600);
  /** Runs `fn` with the held page marked busy (never closed for the cap meanwhile), its use recorded. */
  const busy = async <T>(h: HeldPage, fn: () => Promise<T>): Promise<T> => {
    h.busy++;
    held.touch(h);
    try {
      return await fn();
    } finally {
      h.busy--;
      held.touch(h);
    }
  };
  const runPromptOn = async (page: Page, instruction: string, signal: AbortSignal): Promise<ExecuteResult> => {
    if (!options.planActions) throw promptNotConfigured();
    return runPrompt(page, instruction, options.planActions, (bytes, kind) => captures.save(bytes, kind), signal);
  };
  const promptNotConfigured = () =>
    new ServiceError('NOT_CONFIGURED', `Interact by \`prompt\` needs an LLM, and this server has none configured (${options.llmVariables ?? 'an LLM provider'}). Send \`code\` instead, or ask the operator to configure one.`);
  const executeSession = (session: BrowserSessionRecord, code: string, timeoutSeconds: number, signal?: AbortSignal): Promise<ExecuteResult> => {
    sessions.touch(session);
    return executeCode({ code, devtoolsUrl: session.devtoolsUrl, timeoutSeconds, ...(signal ? { signal } : {}) }).finally(() => sessions.touch(session));
  };
  const promptSession = async (session: BrowserSessionRecord, instruction: string, signal: AbortSignal): Promise<ExecuteResult> => {
    sessions.touch(session);
    try {
      return await runPromptOn(session.page, instruction, signal);
    } finally {
      sessions.touch(session);
    }
  };
  const executeOnTarget = async (target: InteractTarget, code: string, timeoutSeconds: number, signal?: AbortSignal): Promise<ExecuteResult> => {
    if (target.kind === 'session') return executeSession(target.session, code, timeoutSeconds, signal);
    const h = target.held;
    return busy(h, async () => {
      const upstream = engine.devtoolsUrl(h.lease.browser);
      if (!upstream || h.page.isClosed()) throw new ServiceError('GONE', `The page of scrape ${h.scrapeId} was closed (its browser stopped). Scrape the page again and interact with the new metadata.scrapeId.`);
      const endpoint = await openScopedEndpoint(upstream, h.browserContextId, () => held.touch(h));
      try {
        return await executeCode({ code, devtoolsUrl: endpoint.url, timeoutSeconds, ...(signal ? { signal } : {}) });
      } finally {
        await endpoint.close();
      }
    });
  };
  const promptOnTarget = (target: InteractTarget, instruction: string, signal: AbortSignal): Promise<ExecuteResult> => {
    if (target.kind === 'session') return promptSession(target.session, instruction, signal);
    const h = target.held;
    return busy(h, () => runPromptOn(h.page, instruction, signal));
  };
  /** An interact call costs its run's minutes (every started one), to the caller: 402 before it when the team cannot afford one. */
  const billedInteract = async (owner: SessionOwner, timeoutMs: number, signal: AbortSignal | undefined, run: (remainingMs: number) => Promise<ExecuteResult>): Promise<ExecuteResult> => {
    await options.billing?.admit(owner, 'interact');
    // While it runs, an interact holds one of its team's places (an idle held page holds none).
    const placed = (fn: (remainingMs: number) => Promise<ExecuteResult>) => (options.teamJob ? options.teamJob(owner.teamId, timeoutMs, signal, fn) : fn(timeoutMs));
    let started = Date.now();
    const result = await placed((remainingMs) => {
      started = Date.now();
      return run(remainingMs);
    });
    if (options.billing) {
      await options.billing.charge(owner, 'interact', Date.now() - started).catch((err: unknown) => options.onChargeError?.(err));
    }
    return result;
  };
  return {
    enabled: options.enabled,
    sessions,
    interact,
    canPrompt: options.planActions !== undefined,
    promptNotConfigured,
    held,
    prompt: promptSession,
    executeOn(target, caller, code, timeoutSeconds, signal) {
      return billedInteract(caller, timeoutSeconds * 1000, signal, (remainingMs) => executeOnTarget(target, code, Math.max(1, remainingMs / 1000), signal));
    },
    promptOn(target, caller, instruction, signal) {
      return billedInteract(caller, PROMPT_TIMEOUT_MS, signal, () => promptOnTarget(target, instruction, signal));
    },
    async endInteract(target, why) {
      if (target.kind === 'session') await sessions.end(target.session, why);
      else await held.release(target.held, why);
    },

    execute: executeSession,
    render(request) {
      if (!options.enabled) {
        return Promise.reject(new ServiceError('NOT_CONFIGURED', 'This folio runs without its browser engine (FOLIO_BROWSER=off), so `actions`, the `screenshot` format and rendered pages are not available. Remove them, or ask the operator to turn the browser on.'));
      }
      return render(request, { engine, captures, held });
    },
    openCapture: (name) => captures.open(name),
    sweepCaptures: () => captures.sweep(),
    get proxyStats() {
      return engine.proxyStats;
    },
    async close() {
      await held.close();
      await sessions.close();
      await captures.close();
      await engine.close();
    },
  };
}
