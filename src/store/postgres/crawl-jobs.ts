/**
 * Crawl and batch jobs on PostgreSQL (store/crawl-jobs.ts). Changes to one job's frontier run
 * with the job's row locked (`FOR NO KEY UPDATE`), so the URL cap holds across instances; claiming URLs
 * takes queued rows `FOR UPDATE SKIP LOCKED`, so two instances working a job never claim the same URL.
 */
import type { Pool, PoolClient } from 'pg';
import { JOB_COLUMNS, toJob, type CrawlCounts, type CrawlJobStore, type CrawlUrlEntry, type JobRow } from '../crawl-jobs.ts';
import { changes, row, rows, transaction } from './db.ts';

const INSERT_URL = 'INSERT INTO crawl_urls (job_id, url, depth, state) VALUES ($1, $2, $3, $4) ON CONFLICT (job_id, url) DO NOTHING';

/**
 * Serialises the frontier changes of one job. NO KEY UPDATE, not UPDATE: the foreign-key checks of
 * rows inserted meanwhile (a page's result, by completeCrawlUrl) take KEY SHARE on the job row,
 * which FOR UPDATE would block — and that page's transaction may hold a URL row this one needs:
 * a deadlock the crawl tests on PostgreSQL found.
 */
async function lockJob(client: PoolClient, jobId: string): Promise<void> {
  await client.query('SELECT 1 FROM crawl_jobs WHERE id = $1 FOR NO KEY UPDATE', [jobId]);
}

export function postgresCrawlJobStore(pool: Pool): CrawlJobStore {
  const jobs = async (where: string, order: string, values: unknown[]) =>
    (await rows<JobRow>(pool, `SELECT ${JOB_COLUMNS} FROM crawl_jobs ${where} ORDER BY ${order}`, values)).map(toJob);
  return {
    async createCrawlJob(job, urls = []) {
      const kind = job.kind ?? 'crawl';
      const created = await transaction(pool, async (client) => {
        const now = new Date().toISOString();
        const inserted = await changes(
          client,
          `INSERT INTO crawl_jobs (id, kind, owner, url, options, status, created_at, updated_at, expires_at, idempotency_key)
           VALUES ($1, $2, $3, $4, $5, 'scraping', $6, $6, $7, $8)
           ON CONFLICT (owner, kind, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
          [job.id, kind, job.owner, job.url, job.options, now, job.expiresAt.toISOString(), job.idempotencyKey ?? null],
        );
        if (inserted === 0) {
          // The owner already used this idempotency key for this kind: that job is the answer.
          return row<JobRow>(client, `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE owner = $1 AND kind = $2 AND idempotency_key = $3`, [job.owner, kind, job.idempotencyKey]);
        }
        for (const e of urls) await client.query(INSERT_URL, [job.id, e.url, e.depth, 'queued']);
        return row<JobRow>(client, `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE id = $1`, [job.id]);
      });
      if (!created) throw new Error('crawl job insert did not persist');
      return toJob(created);
    },
    async getCrawlJob(id) {
      const r = await row<JobRow>(pool, `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE id = $1`, [id]);
      return r ? toJob(r) : undefined;
    },
    async listCrawlJobs(filter) {
      const where: string[] = [];
      const values: unknown[] = [];
      if (filter.owner !== undefined) where.push(`owner = $${values.push(filter.owner)}`);
      if (filter.status !== undefined) where.push(`status = $${values.push(filter.status)}`);
      if (filter.kind !== undefined) where.push(`kind = $${values.push(filter.kind)}`);
      // As on SQLite: oldest first when listing one status of every owner (the resume at start), newest first otherwise.
      const order = filter.owner === undefined && filter.status !== undefined ? 'created_at, seq' : 'created_at DESC, seq DESC';
      return jobs(where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', order, values);
    },
    async appendCrawlUrls(jobId, entries, expiresAt) {
      return transaction(pool, async (client) => {
        await lockJob(client, jobId);
        const added: CrawlUrlEntry[] = [];
        for (const e of entries) {
          if ((await changes(client, INSERT_URL, [jobId, e.url, e.depth, 'queued'])) === 1) added.push({ url: e.url, depth: e.depth });
        }
        if (added.length > 0) {
          await client.query("UPDATE crawl_jobs SET status = 'scraping', error = NULL, finished_at = NULL, updated_at = $1, expires_at = $2 WHERE id = $3", [
            new Date().toISOString(),
            expiresAt.toISOString(),
            jobId,
          ]);
        }
        return added;
      });
    },
    async finishCrawlJob(id, status, error, expiresAt) {
      const now = new Date().toISOString();
      const n = await changes(
        pool,
        "UPDATE crawl_jobs SET status = $1, error = $2, updated_at = $3, finished_at = $3, expires_at = $4 WHERE id = $5 AND status = 'scraping'",
        [status, error, now, expiresAt.toISOString(), id],
      );
      return n === 1;
    },
    async addCrawlUrls(jobId, entries, cap, state = 'queued') {
      return transaction(pool, async (client) => {
        await lockJob(client, jobId);
        const added: CrawlUrlEntry[] = [];
        let total = (await row<{ n: number }>(client, "SELECT COUNT(*) AS n FROM crawl_urls WHERE job_id = $1 AND state != 'blocked'", [jobId]))?.n ?? 0;
        for (const e of entries) {
          if (state === 'queued' && total >= cap) break;
          if (e.aliases && e.aliases.length > 0) {
            const known = await rows(client, 'SELECT 1 FROM crawl_urls WHERE job_id = $1 AND url = ANY($2::text[]) LIMIT 1', [jobId, [...e.aliases]]);
            if (known.length > 0) continue;
          }
          if ((await changes(client, INSERT_URL, [jobId, e.url, e.depth, state])) === 1 && state === 'queued') {
            total += 1;
            added.push({ url: e.url, depth: e.depth });
          }
        }
        return added;
      });
    },
    async claimCrawlUrls(jobId, n) {
      const claimed = await rows<{ id: number; url: string; depth: number }>(
        pool,
        `UPDATE crawl_urls SET state = 'running' WHERE id IN (
           SELECT id FROM crawl_urls WHERE job_id = $1 AND state = 'queued' ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
         ) RETURNING id, url, depth`,
        [jobId, n],
      );
      return claimed.sort((a, b) => a.id - b.id).map((r) => ({ url: r.url, depth: r.depth }));
    },
    async requeueRunningCrawlUrls(jobId) {
      return changes(pool, "UPDATE crawl_urls SET state = 'queued' WHERE job_id = $1 AND state = 'running'", [jobId]);
    },
    async completeCrawlUrl(jobId, url, data) {
      await transaction(pool, async (client) => {
        const done = await changes(client, "UPDATE crawl_urls SET state = 'done', error = NULL, finished_at = $1 WHERE job_id = $2 AND url = $3 AND state != 'done'", [
          new Date().toISOString(),
          jobId,
          url,
        ]);
        if (done === 1) await client.query('INSERT INTO crawl_results (job_id, url, data) VALUES ($1, $2, $3)', [jobId, url, data]);
      });
    },
    async failCrawlUrl(jobId, url, error) {
      await pool.query("UPDATE crawl_urls SET state = 'failed', error = $1, finished_at = $2 WHERE job_id = $3 AND url = $4 AND state != 'done'", [
        error,
        new Date().toISOString(),
        jobId,
        url,
      ]);
    },
    async crawlCounts(jobId) {
      const counts: CrawlCounts = { queued: 0, running: 0, done: 0, failed: 0, blocked: 0 };
      for (const r of await rows<{ state: keyof CrawlCounts; n: number }>(pool, 'SELECT state, COUNT(*) AS n FROM crawl_urls WHERE job_id = $1 GROUP BY state', [jobId])) {
        counts[r.state] = r.n;
      }
      return counts;
    },
    async crawlResults(jobId, skip, limit, maxBytes) {
      const page = await rows<{ data: string }>(pool, 'SELECT data FROM crawl_results WHERE job_id = $1 ORDER BY id LIMIT $2 OFFSET $3', [jobId, limit, skip]);
      const items: string[] = [];
      let bytes = 0;
      for (const r of page) {
        if (items.length > 0 && bytes + r.data.length > maxBytes) break;
        items.push(r.data);
        bytes += r.data.length;
      }
      const total = (await row<{ n: number }>(pool, 'SELECT COUNT(*) AS n FROM crawl_results WHERE job_id = $1', [jobId]))?.n ?? 0;
      const end = skip + items.length;
      return end < total ? { items, nextSkip: end } : { items };
    },
    async crawlErrors(jobId) {
      const failed = await rows<{ id: number; url: string; error: string | null; finished_at: string | null }>(
        pool,
        "SELECT id, url, error, finished_at FROM crawl_urls WHERE job_id = $1 AND state = 'failed' ORDER BY id",
        [jobId],
      );
      return failed.map((r) => ({ id: `${jobId}:${r.id}`, url: r.url, error: r.error ?? 'unknown error', timestamp: r.finished_at ?? '' }));
    },
    async robotsBlockedUrls(jobId) {
      return (await rows<{ url: string }>(pool, "SELECT url FROM crawl_urls WHERE job_id = $1 AND state = 'blocked' ORDER BY id", [jobId])).map((r) => r.url);
    },
    async deleteExpiredCrawlJobs(now) {
      return changes(pool, "DELETE FROM crawl_jobs WHERE status != 'scraping' AND expires_at < $1", [now.toISOString()]);
    },
  };
}
