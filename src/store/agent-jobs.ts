/**
 * Agent and extract jobs in the store (migration 11, docs/agent.md): the job (its validated
 * request, status, answer, budgets spent) and its trace, one event per row in order. Persisted so
 * that status and trace outlive the process; a job a stopped process left `processing` is failed
 * cleanly by the next start (src/agent/service.ts).
 */
import type Database from 'better-sqlite3';

export type AgentJobKind = 'agent' | 'extract';
export type AgentJobStatus = 'processing' | 'completed' | 'failed' | 'cancelled';

export interface AgentJobRecord {
  id: string;
  kind: AgentJobKind;
  /** `team:<id>` (tools/types.ts Caller.owner). */
  owner: string;
  /** The validated request, as JSON. */
  request: string;
  status: AgentJobStatus;
  /** The answer, as JSON. */
  data: string | null;
  /** Sources of the answer (extract `showSources`), as JSON. */
  sources: string | null;
  warning: string | null;
  error: string | null;
  creditsUsed: number;
  tokensUsed: number;
  steps: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  expiresAt: string;
}

export interface AgentJobProgress {
  credits: number;
  tokens: number;
  steps: number;
}

export interface AgentJobOutcome {
  status: Exclude<AgentJobStatus, 'processing'>;
  data?: string | null;
  sources?: string | null;
  warning?: string | null;
  error?: string | null;
  expiresAt: Date;
}

export interface AgentJobStore {
  createAgentJob(job: { id: string; kind: AgentJobKind; owner: string; request: string; expiresAt: Date }): Promise<AgentJobRecord>;
  getAgentJob(id: string): Promise<AgentJobRecord | undefined>;
  /** An owner's jobs of a kind, newest first, created before `before` (ISO), at most `limit`; or every owner's jobs of a status. */
  listAgentJobs(filter: { owner?: string; kind?: AgentJobKind; status?: AgentJobStatus; before?: string; limit?: number }): Promise<AgentJobRecord[]>;
  /** Records what a running job has spent so far (no effect once it finished). */
  progressAgentJob(id: string, progress: AgentJobProgress): Promise<void>;
  /**
   * Marks running jobs alive (their `updated_at`, the lease other instances read); answers the ids
   * still `processing` — the others were ended elsewhere (a cancel or a clean-up on another instance).
   */
  touchAgentJobs(ids: readonly string[], at: Date): Promise<string[]>;
  /** Moves a `processing` job to its end state; false when it had already ended (a cancel won the race). */
  finishAgentJob(id: string, outcome: AgentJobOutcome): Promise<boolean>;
  appendAgentEvent(id: string, event: string): Promise<void>;
  agentEvents(id: string): Promise<string[]>;
  deleteExpiredAgentJobs(now: Date): Promise<number>;
}

export interface AgentJobRow {
  id: string;
  kind: AgentJobKind;
  owner: string;
  request: string;
  status: AgentJobStatus;
  data: string | null;
  sources: string | null;
  warning: string | null;
  error: string | null;
  credits_used: number;
  tokens_used: number;
  steps: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  expires_at: string;
}

export const agentJobRecord = (r: AgentJobRow): AgentJobRecord => ({
  id: r.id,
  kind: r.kind,
  owner: r.owner,
  request: r.request,
  status: r.status,
  data: r.data,
  sources: r.sources,
  warning: r.warning,
  error: r.error,
  creditsUsed: r.credits_used,
  tokensUsed: r.tokens_used,
  steps: r.steps,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
  expiresAt: r.expires_at,
});

export const AGENT_JOB_COLUMNS = 'id, kind, owner, request, status, data, sources, warning, error, credits_used, tokens_used, steps, created_at, updated_at, finished_at, expires_at';

export function sqliteAgentJobStore(db: Database.Database): AgentJobStore {
  const q = {
    insert: db.prepare(`INSERT INTO agent_jobs (${AGENT_JOB_COLUMNS}) VALUES (?, ?, ?, ?, 'processing', NULL, NULL, NULL, NULL, 0, 0, 0, ?, ?, NULL, ?)`),
    get: db.prepare<[string], AgentJobRow>(`SELECT ${AGENT_JOB_COLUMNS} FROM agent_jobs WHERE id = ?`),
    byOwner: db.prepare<[string, string, string, number], AgentJobRow>(
      `SELECT ${AGENT_JOB_COLUMNS} FROM agent_jobs WHERE owner = ? AND kind = ? AND created_at < ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
    ),
    byStatus: db.prepare<[string], AgentJobRow>(`SELECT ${AGENT_JOB_COLUMNS} FROM agent_jobs WHERE status = ? ORDER BY created_at, rowid`),
    progress: db.prepare("UPDATE agent_jobs SET credits_used = ?, tokens_used = ?, steps = ?, updated_at = ? WHERE id = ? AND status = 'processing'"),
    touch: db.prepare("UPDATE agent_jobs SET updated_at = ? WHERE id = ? AND status = 'processing'"),
    finish: db.prepare(
      "UPDATE agent_jobs SET status = ?, data = ?, sources = ?, warning = ?, error = ?, updated_at = ?, finished_at = ?, expires_at = ? WHERE id = ? AND status = 'processing'",
    ),
    event: db.prepare('INSERT INTO agent_events (job_id, event) VALUES (?, ?)'),
    events: db.prepare<[string], { event: string }>('SELECT event FROM agent_events WHERE job_id = ? ORDER BY id'),
    expired: db.prepare("DELETE FROM agent_jobs WHERE status != 'processing' AND expires_at < ?"),
  };
  return {
    async createAgentJob(job) {
      const now = new Date().toISOString();
      q.insert.run(job.id, job.kind, job.owner, job.request, now, now, job.expiresAt.toISOString());
      const row = q.get.get(job.id);
      if (!row) throw new Error('agent job insert did not persist');
      return agentJobRecord(row);
    },
    async getAgentJob(id) {
      const row = q.get.get(id);
      return row ? agentJobRecord(row) : undefined;
    },
    async listAgentJobs(filter) {
      if (filter.owner !== undefined) {
        return q.byOwner.all(filter.owner, filter.kind ?? 'agent', filter.before ?? '9999', filter.limit ?? 100).map(agentJobRecord);
      }
      return q.byStatus.all(filter.status ?? 'processing').map(agentJobRecord);
    },
    async progressAgentJob(id, p) {
      q.progress.run(p.credits, p.tokens, p.steps, new Date().toISOString(), id);
    },
    async touchAgentJobs(ids, at) {
      const iso = at.toISOString();
      return db.transaction(() => ids.filter((id) => q.touch.run(iso, id).changes > 0))();
    },
    async finishAgentJob(id, o) {
      const now = new Date().toISOString();
      const r = q.finish.run(o.status, o.data ?? null, o.sources ?? null, o.warning ?? null, o.error ?? null, now, now, o.expiresAt.toISOString(), id);
      return r.changes > 0;
    },
    async appendAgentEvent(id, event) {
      q.event.run(id, event);
    },
    async agentEvents(id) {
      return q.events.all(id).map((r) => r.event);
    },
    async deleteExpiredAgentJobs(now) {
      return q.expired.run(now.toISOString()).changes;
    },
  };
}
