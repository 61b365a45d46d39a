/**
 * Agent and extract jobs (docs/agent.md): start (validate, refuse without an LLM, persist, run in
 * the background), status, cancel, list, trace. Jobs are owner-bound: another owner's id answers
 * as unknown. Budgets (steps, tokens, credits, wall clock) are the request's and the operator's
 * (FOLIO_AGENT_*); what a job spent is persisted after every step, charged to its team once when it
 * ends (whatever the end), and its trace is kept with it. A job a stopped process left
 * `processing` is failed cleanly at the next start (its partial work is not resumable: the LLM
 * conversation is not persisted). On a store several instances share, a running job's row is
 * touched every few seconds (its lease): another instance fails only a job whose lease ran out,
 * and a job ended elsewhere (a cancel sent to another instance) is stopped where it runs. Finished
 * jobs are kept `resultTtlMs` (24 h). A running job holds one of its team's concurrent places
 * (`place`); its progress listeners hear each step. A zeroDataRetention job keeps its answer and
 * trace in memory only, the answer handed out once.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.ts';
import { assertZdrAllowed, LLM_VARIABLES, type LlmSettings, type LlmUsage } from '../llm/index.ts';
import { errorForLog } from '../log.ts';
import type { AgentJobKind, AgentJobRecord, AgentJobStatus, AgentJobStore } from '../store/agent-jobs.ts';
import { runExtract } from './extract.ts';
import { runAgentLoop } from './loop.ts';
import type { AgentOperations } from './operations.ts';
import { parseAgentRequest, parseExtractRequest, type AgentRequest, type ExtractRequest } from './request.ts';
import { Trace, type Budgets, type Spent, type TraceEvent } from './trace.ts';
import { isZeroRetention, ZDR_PROMPT, ZDR_RESULT_GONE, ZeroRetentionHold } from './zdr.ts';

export const AGENT_RESULT_TTL_MS = 24 * 60 * 60 * 1000;
const LIST_PAGE = 50;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** A running job's row is touched this often at most (a quarter of the lease when shorter). */
const HEARTBEAT_MS = 10_000;
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RESTART_ERROR = 'The server stopped while this job ran, and an agent job cannot continue where it was: start it again.';

export interface AgentLimits {
  maxSteps: number;
  timeoutMs: number;
  maxTokens: number;
  /** Credits of a job without `maxCredits`. */
  defaultCredits: number;
  resultChars: number;
}

export interface AgentServiceDeps {
  store: AgentJobStore;
  ops: AgentOperations;
  llm: LlmSettings | undefined;
  limits: AgentLimits;
  /** The `json` surcharge per extracted page. */
  jsonPrice: number;
  resultTtlMs?: number;
  /**
   * Charges an ending job's credits to its owner, before the job reads as ended; called again for
   * the same job (a restart's clean-up) it charges nothing more. Never throws.
   */
  charge?: (job: { id: string; owner: string; kind: AgentJobKind; credits: number }) => Promise<void>;
  /** LLM token usage of a job, for its team; a job ends once every returned promise settled. */
  onTokens?: (job: { id: string; owner: string; kind: AgentJobKind }, usage: LlmUsage) => void | Promise<void>;
  /** A job started and ended (webhooks). */
  onStarted?: (job: AgentJobRecord) => void;
  onFinished?: (job: AgentJobRecord) => void;
  /**
   * Runs a job of this team on one of the team's concurrent places (src/limits/teams `job`):
   * waits its turn (never refused), aborted by `signal`; `fn` gets how long it waited.
   */
  place?: <T>(teamId: string, signal: AbortSignal, fn: (waitedMs: number) => Promise<T>) => Promise<T>;
  /**
   * Several instances share the store (PostgreSQL): a `processing` job is another instance's while
   * its row was touched within `ms` (FOLIO_AGENT_LEASE_SECONDS); only one untouched longer is failed
   * as a dead process's. Without it (SQLite, one process) every job not running here is failed at start.
   */
  lease?: { shared: boolean; ms: number };
  onError: (err: unknown, message: string) => void;
}

/** What a job's progress listeners get: what it spent so far and what it is doing now. */
export interface AgentProgress extends Spent {
  /** The step: "scrape https://…", "LLM turn 3: 2 tool call(s)", … */
  message: string;
}

export interface AgentStatusView {
  status: AgentJobStatus;
  data?: unknown;
  sources?: unknown;
  warning?: string;
  error?: string;
  creditsUsed: number;
  expiresAt: string;
  model: string;
  steps: number;
  tokensUsed: number;
}

export interface AgentListItemView {
  id: string;
  createdAt: string;
  status: AgentJobStatus;
  options: { prompt: string; urls?: string[]; schema?: unknown; model: string };
}

export interface AgentService {
  start(owner: string, kind: AgentJobKind, body: unknown): Promise<{ id: string; warning?: string }>;
  status(owner: string, kind: AgentJobKind, id: string): Promise<AgentStatusView>;
  cancel(owner: string, kind: AgentJobKind, id: string): Promise<AgentJobStatus>;
  list(owner: string, before?: number): Promise<{ agents: AgentListItemView[]; nextBefore?: number }>;
  trace(owner: string, kind: AgentJobKind, id: string): Promise<{ events: TraceEvent[]; creditsUsed: number }>;
  /** Listens for a job's progress, one call per step; returns the unsubscribe function. */
  onProgress(id: string, listener: (progress: AgentProgress) => void): () => void;
  /** Fails the jobs a previous process left `processing`; returns how many. */
  failUnfinished(): Promise<number>;
  sweepExpired(): Promise<number>;
  close(): Promise<void>;
}

/** Why a job's signal was aborted. */
class Stop extends Error {
  readonly reason: 'cancelled' | 'shutdown' | 'timeout';
  constructor(reason: 'cancelled' | 'shutdown' | 'timeout', message: string) {
    super(message);
    this.reason = reason;
  }
}

function notConfigured(): ServiceError {
  return new ServiceError('NOT_CONFIGURED', `The agent and extract need an LLM, and none is configured on this server. The operator sets ${LLM_VARIABLES} (docs/llm.md).`);
}

function notFound(kind: AgentJobKind): ServiceError {
  return new ServiceError('NOT_FOUND', `No ${kind} job with this id for your team. Results are kept 24 hours after a job ends.`);
}

function parseJson(text: string | null): unknown {
  return text === null ? undefined : (JSON.parse(text) as unknown);
}

export function createAgentService(deps: AgentServiceDeps): AgentService {
  const ttl = deps.resultTtlMs ?? AGENT_RESULT_TTL_MS;
  const running = new Map<string, AbortController>();
  /** Jobs past their store write that ends them (a heartbeat no longer finds them `processing`). */
  const ending = new Set<string>();
  const shared = deps.lease?.shared === true;
  const leaseMs = deps.lease?.ms ?? 60_000;
  const listeners = new Map<string, Set<(progress: AgentProgress) => void>>();
  const tasks = new Set<Promise<void>>();
  /** What zeroDataRetention jobs learn (answer, trace), in memory only (src/agent/zdr.ts). */
  const hold = new ZeroRetentionHold();

  const owned = async (owner: string, kind: AgentJobKind, id: string): Promise<AgentJobRecord> => {
    if (!ID_PATTERN.test(id)) throw notFound(kind);
    const job = await deps.store.getAgentJob(id);
    if (!job || job.owner !== owner || job.kind !== kind) throw notFound(kind);
    if (job.status !== 'processing' && Date.parse(job.expiresAt) < Date.now()) throw notFound(kind);
    return job;
  };

  const end = async (job: { id: string; owner: string; kind: AgentJobKind }, spent: Spent, trace: Trace, outcome: Parameters<AgentJobStore['finishAgentJob']>[1]) => {
    ending.add(job.id);
    await deps.store.progressAgentJob(job.id, spent);
    // Charged before the job reads as ended, so a credit read after it counts them (the charge is
    // once-only: a restart's clean-up charging again, had the process died here, charges nothing).
    await deps.charge?.({ ...job, credits: spent.credits });
    const moved = await deps.store.finishAgentJob(job.id, outcome);
    const runOutcome = outcome.status === 'completed' ? 'succeeded' : outcome.status;
    trace.emit({
      type: 'run.finished',
      outcome: runOutcome,
      error: outcome.error ? { code: outcome.status === 'cancelled' ? 'cancelled' : 'internal', source: 'agent', retryable: false, message: outcome.error } : null,
      steps: spent.steps,
      creditsUsed: spent.credits,
      tokensUsed: spent.tokens,
    });
    await trace.flushed();
    if (moved) {
      const record = await deps.store.getAgentJob(job.id);
      if (record) deps.onFinished?.(record);
    }
  };

  const execute = async (record: AgentJobRecord, request: AgentRequest | ExtractRequest, settings: LlmSettings, controller: AbortController) => {
    const job = { id: record.id, owner: record.owner, kind: record.kind };
    const spent: Spent = { credits: 0, tokens: 0, steps: 0 };
    const zdr = isZeroRetention(request);
    // Under zeroDataRetention the trace (tool parameters, tool errors) stays in this process's memory.
    const trace = new Trace(record.id, zdr ? async (event) => hold.appendEvent(record.id, event) : (event) => deps.store.appendAgentEvent(record.id, event));
    const maxCredits = 'maxCredits' in request && request.maxCredits !== undefined ? request.maxCredits : deps.limits.defaultCredits;
    const signal = controller.signal;
    const teamId = /^team:(.+)$/.exec(record.owner)?.[1];
    const ops: AgentOperations = teamId || zdr ? { ...deps.ops, scrape: (url, o, s) => deps.ops.scrape(url, { ...o, ...(teamId ? { teamId } : {}), ...(zdr ? { zeroDataRetention: true } : {}) }, s) } : deps.ops;
    let timer: NodeJS.Timeout | undefined;
    // Token rows being written: a job reads as ended only after them, so the team's token usage
    // read after it counts them.
    const recordings: Promise<void>[] = [];
    trace.emit({ type: 'run.started', kind: record.kind, budgets: { maxSteps: deps.limits.maxSteps, maxTokens: deps.limits.maxTokens, maxCredits, timeoutMs: deps.limits.timeoutMs, resultChars: deps.limits.resultChars } });
    const report = (message: string) => {
      for (const l of listeners.get(record.id) ?? []) l({ ...spent, message });
    };
    // The whole job runs on one of its team's concurrent places (docs/limits.md); its scrapes and
    // their parses run on that place. The wall clock starts when the place is taken.
    const onPlace = async (waitedMs: number) => {
      if (waitedMs > 0) {
        const message = `waited ${Math.round(waitedMs)} ms for one of the team's concurrent places (its plan's maxConcurrent)`;
        trace.emit({ type: 'progress.reported', phase: 'working', message, durationMs: Math.round(waitedMs) });
        report(message);
      }
      const budgets: Budgets = {
        maxSteps: deps.limits.maxSteps,
        deadline: Date.now() + deps.limits.timeoutMs,
        maxTokens: deps.limits.maxTokens,
        maxCredits,
        resultChars: deps.limits.resultChars,
      };
      timer = setTimeout(() => controller.abort(new Stop('timeout', `The job ran past its wall-clock limit (${deps.limits.timeoutMs} ms, FOLIO_AGENT_TIMEOUT_MS); what it gathered is in the trace.`)), deps.limits.timeoutMs);
      timer.unref();
      const run = {
        settings,
        // A second past the job's own limit: the job's timer ends a slow call first, with the job's message.
        deadline: budgets.deadline + 1000,
        signal,
        onUsage: (u: LlmUsage) => {
          spent.tokens += u.promptTokens + u.completionTokens;
          const recording = deps.onTokens?.(job, u);
          if (recording) recordings.push(recording.catch((err: unknown) => deps.onError(err, 'could not record an LLM call\'s tokens')));
        },
      };
      const onStep = async () => {
        await deps.store.progressAgentJob(record.id, spent);
      };
      if (record.kind === 'agent') {
        const agent = request as AgentRequest;
        return runAgentLoop(
          { prompt: agent.prompt, urls: agent.urls ?? [], ...(agent.schema ? { schema: agent.schema } : {}), showSources: agent.showSources },
          { run, ops, constraints: { strict: agent.strictConstrainToURLs, allowed: agent.urls ?? [] }, budgets, spent, trace, signal, onStep, report },
        );
      }
      return runExtract(request as ExtractRequest, { run, ops, budgets, spent, trace, signal, jsonPrice: deps.jsonPrice, onStep, report });
    };
    try {
      const result = deps.place && teamId ? await deps.place(teamId, signal, onPlace) : await onPlace(0);
      const answer = { data: JSON.stringify(result.data ?? null), sources: result.sources ? JSON.stringify(result.sources) : null, warning: result.warning ?? null };
      const expiresAt = new Date(Date.now() + ttl);
      if (zdr) hold.keepResult(record.id, answer, expiresAt);
      await Promise.all(recordings);
      await end(job, spent, trace, { status: 'completed', ...(zdr ? { data: null, sources: null, warning: null } : answer), expiresAt });
    } catch (err) {
      const reason: unknown = signal.aborted ? signal.reason : err;
      const cancelled = reason instanceof Stop && reason.reason === 'cancelled';
      const known = reason instanceof Stop || reason instanceof ServiceError;
      // Under zeroDataRetention a message from elsewhere (a provider's words) is not kept: its code is.
      const message = reason instanceof Stop ? reason.message : reason instanceof ServiceError ? (zdr ? `${reason.code}: the job failed (under zeroDataRetention the detailed message is not kept).` : reason.message) : 'The job stopped on an unexpected error; it has been logged.';
      if (!known) deps.onError(errorForLog(reason, zdr), `${record.kind} job failed unexpectedly`);
      trace.emit({ type: 'error.occurred', error: { code: cancelled ? 'cancelled' : 'internal', source: 'agent', retryable: false, message } });
      await Promise.all(recordings);
      await end(job, spent, trace, { status: cancelled ? 'cancelled' : 'failed', error: cancelled ? null : message, expiresAt: new Date(Date.now() + ttl) });
    } finally {
      clearTimeout(timer);
    }
  };

  const sweepExpired = () => {
    hold.sweep(Date.now());
    return deps.store.deleteExpiredAgentJobs(new Date());
  };
  const sweeper = setInterval(() => {
    sweepExpired().catch((err: unknown) => deps.onError(err, 'agent job expiry sweep failed'));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  /**
   * Fails the `processing` jobs no process runs: at start every one not running here, or on a
   * shared store those whose lease ran out. Each is charged what it spent (once: the charge's key).
   */
  const failUnfinished = async () => {
    const jobs = await deps.store.listAgentJobs({ status: 'processing' });
    const stale = Date.now() - leaseMs;
    let n = 0;
    for (const j of jobs) {
      if (running.has(j.id)) continue;
      // Another instance's job: it touches the row while it runs.
      if (shared && Date.parse(j.updatedAt) > stale) continue;
      await deps.store.appendAgentEvent(j.id, JSON.stringify({ schemaVersion: 1, type: 'run.finished', outcome: 'failed', runId: j.id, occurredAt: new Date().toISOString(), error: { code: 'internal', source: 'system', retryable: true, message: RESTART_ERROR } }));
      await deps.charge?.({ id: j.id, owner: j.owner, kind: j.kind, credits: j.creditsUsed });
      if (await deps.store.finishAgentJob(j.id, { status: 'failed', error: RESTART_ERROR, expiresAt: new Date(Date.now() + ttl) })) n++;
    }
    return n;
  };

  // The lease: running jobs touched; a job no longer `processing` was ended elsewhere and stops
  // here; on a shared store, the jobs of instances that died are failed by the ones alive.
  const heartbeat = async () => {
    const ids = [...running.keys()].filter((id) => !ending.has(id));
    if (ids.length > 0) {
      const alive = new Set(await deps.store.touchAgentJobs(ids, new Date()));
      for (const id of ids) {
        if (!alive.has(id) && !ending.has(id)) running.get(id)?.abort(new Stop('cancelled', 'The job was ended on another instance (a cancel sent there, or its lease ran out).'));
      }
    }
    if (shared) await failUnfinished();
  };
  const beating = setInterval(() => {
    heartbeat().catch((err: unknown) => deps.onError(err, 'agent job heartbeat failed'));
  }, Math.min(HEARTBEAT_MS, Math.max(250, Math.floor(leaseMs / 4))));
  beating.unref();

  return {
    async start(owner, kind, body) {
      const parsed = kind === 'agent' ? parseAgentRequest(body) : parseExtractRequest(body);
      const settings = deps.llm;
      if (!settings) throw notConfigured();
      const zdr = isZeroRetention(parsed.request);
      assertZdrAllowed(settings, zdr, kind === 'agent' ? 'An agent job' : 'An extract job');
      const id = randomUUID();
      // Under zeroDataRetention the stored request keeps what the job needs to be listed and to send
      // its webhooks (URLs, options), not the prompt or the schema.
      const stored = zdr ? { ...parsed.request, prompt: ZDR_PROMPT, schema: undefined } : parsed.request;
      const expiresAt = new Date(Date.now() + ttl);
      if (zdr) hold.start(id, expiresAt);
      const record = await deps.store.createAgentJob({ id, kind, owner, request: JSON.stringify(stored), expiresAt });
      deps.onStarted?.(record);
      const controller = new AbortController();
      running.set(id, controller);
      const task = execute(record, parsed.request, settings, controller)
        .catch((err: unknown) => deps.onError(errorForLog(err, zdr), `${kind} job could not be finished`))
        .finally(() => {
          running.delete(id);
          ending.delete(id);
          listeners.delete(id);
          tasks.delete(task);
        });
      tasks.add(task);
      return parsed.warning ? { id, warning: parsed.warning } : { id };
    },

    async status(owner, kind, id) {
      const job = await owned(owner, kind, id);
      const zdr = isZeroRetention(JSON.parse(job.request) as Record<string, unknown>);
      // A zeroDataRetention job's answer is handed out once, from memory (docs/agent.md).
      const held = zdr && job.status === 'completed' ? hold.takeResult(id) : undefined;
      const answer = held ?? job;
      const data = parseJson(answer.data);
      const sources = parseJson(answer.sources);
      const warning = zdr && job.status === 'completed' && !held ? ZDR_RESULT_GONE : answer.warning;
      if (zdr && job.status !== 'processing' && !held) hold.forget(id);
      return {
        status: job.status,
        ...(data !== undefined ? { data } : {}),
        ...(sources !== undefined ? { sources } : {}),
        ...(warning ? { warning } : {}),
        ...(job.error ? { error: job.error } : {}),
        creditsUsed: job.creditsUsed,
        expiresAt: job.expiresAt,
        model: deps.llm?.model ?? 'none',
        steps: job.steps,
        tokensUsed: job.tokensUsed,
      };
    },

    async cancel(owner, kind, id) {
      const job = await owned(owner, kind, id);
      if (job.status !== 'processing') return job.status;
      const controller = running.get(id);
      if (controller) {
        await deps.store.appendAgentEvent(id, JSON.stringify({ schemaVersion: 1, type: 'run.cancel_requested', reason: 'user', runId: id, occurredAt: new Date().toISOString() }));
        controller.abort(new Stop('cancelled', 'The job was cancelled.'));
        return 'cancelled';
      }
      // Not running in this process (another instance, or a restart): ended here.
      await deps.store.finishAgentJob(id, { status: 'cancelled', expiresAt: new Date(Date.now() + ttl) });
      return 'cancelled';
    },

    async list(owner, before) {
      const beforeIso = before !== undefined ? new Date(before).toISOString() : undefined;
      const jobs = await deps.store.listAgentJobs({ owner, kind: 'agent', ...(beforeIso ? { before: beforeIso } : {}), limit: LIST_PAGE + 1 });
      const page = jobs.slice(0, LIST_PAGE);
      const agents = page.map((j) => {
        const r = JSON.parse(j.request) as AgentRequest;
        return {
          id: j.id,
          createdAt: j.createdAt,
          status: j.status,
          options: { prompt: r.prompt, ...(r.urls ? { urls: r.urls } : {}), ...(r.schema ? { schema: r.schema } : {}), model: deps.llm?.model ?? r.model ?? 'none' },
        };
      });
      const last = page.at(-1);
      return jobs.length > LIST_PAGE && last ? { agents, nextBefore: Date.parse(last.createdAt) } : { agents };
    },

    async trace(owner, kind, id) {
      const job = await owned(owner, kind, id);
      // A zeroDataRetention job's trace is in memory until its answer is read; the store has only
      // the events without content (a cancel, a restart).
      const events = [...hold.events(id), ...(await deps.store.agentEvents(id))].map((e) => JSON.parse(e) as TraceEvent);
      return { events, creditsUsed: job.creditsUsed };
    },

    onProgress(id, listener) {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      return () => set.delete(listener);
    },

    failUnfinished,

    sweepExpired,

    async close() {
      clearInterval(sweeper);
      clearInterval(beating);
      // Running jobs stop here and end failed (a job killed without this is failed at the next start).
      for (const c of running.values()) c.abort(new Stop('shutdown', RESTART_ERROR));
      await Promise.allSettled([...tasks]);
    },
  };
}
