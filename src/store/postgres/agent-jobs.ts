/**
 * Agent and extract jobs on PostgreSQL (store/agent-jobs.ts, PostgreSQL migration 2): the same
 * rows and answers as SQLite's. Finishing a job is one conditional UPDATE, so that of a cancel on
 * one instance and the loop's end on another exactly one wins.
 */
import type { Pool } from 'pg';
import { AGENT_JOB_COLUMNS, agentJobRecord, type AgentJobRow, type AgentJobStore } from '../agent-jobs.ts';
import { changes, row, rows } from './db.ts';

export function postgresAgentJobStore(pool: Pool): AgentJobStore {
  const get = (id: string) => row<AgentJobRow>(pool, `SELECT ${AGENT_JOB_COLUMNS} FROM agent_jobs WHERE id = $1`, [id]);
  return {
    async createAgentJob(job) {
      const now = new Date().toISOString();
      await pool.query(
        `INSERT INTO agent_jobs (${AGENT_JOB_COLUMNS}) VALUES ($1, $2, $3, $4, 'processing', NULL, NULL, NULL, NULL, 0, 0, 0, $5, $5, NULL, $6)`,
        [job.id, job.kind, job.owner, job.request, now, job.expiresAt.toISOString()],
      );
      const created = await get(job.id);
      if (!created) throw new Error('agent job insert did not persist');
      return agentJobRecord(created);
    },
    async getAgentJob(id) {
      const found = await get(id);
      return found ? agentJobRecord(found) : undefined;
    },
    async listAgentJobs(filter) {
      if (filter.owner !== undefined) {
        const found = await rows<AgentJobRow>(
          pool,
          `SELECT ${AGENT_JOB_COLUMNS} FROM agent_jobs WHERE owner = $1 AND kind = $2 AND created_at < $3 ORDER BY created_at DESC, seq DESC LIMIT $4`,
          [filter.owner, filter.kind ?? 'agent', filter.before ?? '9999', filter.limit ?? 100],
        );
        return found.map(agentJobRecord);
      }
      const found = await rows<AgentJobRow>(pool, `SELECT ${AGENT_JOB_COLUMNS} FROM agent_jobs WHERE status = $1 ORDER BY created_at, seq`, [filter.status ?? 'processing']);
      return found.map(agentJobRecord);
    },
    async progressAgentJob(id, p) {
      await pool.query("UPDATE agent_jobs SET credits_used = $1, tokens_used = $2, steps = $3, updated_at = $4 WHERE id = $5 AND status = 'processing'", [
        p.credits,
        p.tokens,
        p.steps,
        new Date().toISOString(),
        id,
      ]);
    },
    async touchAgentJobs(ids, at) {
      if (ids.length === 0) return [];
      const touched = await rows<{ id: string }>(pool, "UPDATE agent_jobs SET updated_at = $1 WHERE id = ANY($2) AND status = 'processing' RETURNING id", [at.toISOString(), [...ids]]);
      return touched.map((r) => r.id);
    },
    async finishAgentJob(id, o) {
      const now = new Date().toISOString();
      const n = await changes(
        pool,
        "UPDATE agent_jobs SET status = $1, data = $2, sources = $3, warning = $4, error = $5, updated_at = $6, finished_at = $6, expires_at = $7 WHERE id = $8 AND status = 'processing'",
        [o.status, o.data ?? null, o.sources ?? null, o.warning ?? null, o.error ?? null, now, o.expiresAt.toISOString(), id],
      );
      return n > 0;
    },
    async appendAgentEvent(id, event) {
      await pool.query('INSERT INTO agent_events (job_id, event) VALUES ($1, $2)', [id, event]);
    },
    async agentEvents(id) {
      return (await rows<{ event: string }>(pool, 'SELECT event FROM agent_events WHERE job_id = $1 ORDER BY id', [id])).map((r) => r.event);
    },
    async deleteExpiredAgentJobs(now) {
      return changes(pool, "DELETE FROM agent_jobs WHERE status != 'processing' AND expires_at < $1", [now.toISOString()]);
    },
  };
}
