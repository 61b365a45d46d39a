/**
 * The agent subsystem (issue 19, docs/agent.md): `/v2/agent` (a tool-calling LLM loop over
 * folio's own search, map and scrape) and `/v2/extract` (a bounded, non-exploring extraction
 * from given pages), as persisted, cancellable, traced jobs with budgets that hold. The doors
 * (src/http, tools/) reach it through this file only (test/architecture.test.ts).
 */
import type { Prices } from '../accounts/index.ts';
import type { BrowserService } from '../browser/index.ts';
import type { LlmSettings, LlmUsage } from '../llm/index.ts';
import type { ParseRunner } from '../limits/runner.ts';
import type { AgentJobKind, AgentJobRecord, AgentJobStore } from '../store/agent-jobs.ts';
import type { Fetcher } from '../web/fetch/types.ts';
import type { SearchOperation } from '../web/search/index.ts';
import { createOperations } from './operations.ts';
import { createAgentService, type AgentLimits, type AgentService, type AgentServiceDeps } from './service.ts';

export type { AgentService, AgentStatusView, AgentListItemView, AgentLimits, AgentProgress } from './service.ts';
export { RESTART_ERROR, AGENT_RESULT_TTL_MS } from './service.ts';
export type { TraceEvent, Spent } from './trace.ts';
export { parseAgentRequest, parseExtractRequest, AgentRequestSchema } from './request.ts';

export interface AgentDeps {
  store: AgentJobStore;
  fetcher: Fetcher;
  runner: ParseRunner;
  browser?: BrowserService;
  search?: SearchOperation;
  prices: Prices;
  llm: LlmSettings | undefined;
  limits: AgentLimits;
  resultTtlMs?: number;
  charge?: (job: { id: string; owner: string; kind: AgentJobKind; credits: number }) => Promise<void>;
  onTokens?: (job: { id: string; owner: string; kind: AgentJobKind }, usage: LlmUsage) => void | Promise<void>;
  onStarted?: (job: AgentJobRecord) => void;
  onFinished?: (job: AgentJobRecord) => void;
  /** Runs a team's job on one of its concurrent places (src/limits/teams): see AgentServiceDeps.place. */
  place?: AgentServiceDeps['place'];
  /** A running job's lease on a store several instances share: see AgentServiceDeps.lease. */
  lease?: AgentServiceDeps['lease'];
  onError: (err: unknown, message: string) => void;
}

/** Builds the service and fails the jobs a previous process left running. */
export async function startAgents(deps: AgentDeps): Promise<AgentService> {
  const ops = createOperations({
    fetcher: deps.fetcher,
    runner: deps.runner,
    prices: deps.prices,
    ...(deps.browser ? { browser: deps.browser } : {}),
    ...(deps.search ? { search: deps.search } : {}),
  });
  const service = createAgentService({
    store: deps.store,
    ops,
    llm: deps.llm,
    limits: deps.limits,
    jsonPrice: deps.prices.json,
    onError: deps.onError,
    ...(deps.resultTtlMs !== undefined ? { resultTtlMs: deps.resultTtlMs } : {}),
    ...(deps.charge ? { charge: deps.charge } : {}),
    ...(deps.onTokens ? { onTokens: deps.onTokens } : {}),
    ...(deps.onStarted ? { onStarted: deps.onStarted } : {}),
    ...(deps.onFinished ? { onFinished: deps.onFinished } : {}),
    ...(deps.place ? { place: deps.place } : {}),
    ...(deps.lease ? { lease: deps.lease } : {}),
  });
  await service.sweepExpired();
  await service.failUnfinished();
  return service;
}
