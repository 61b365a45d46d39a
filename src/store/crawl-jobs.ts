/**
 * Crawl and batch scrape jobs in the store (migrations 5 and 9): the job (its `kind`), its URL frontier (every URL discovered, with
 * its depth and state) and its results (one scrape data object per page, as JSON). The frontier
 * lives here, not in memory, so that a job survives a restart: URLs left `running` by a stopped
 * process go back to `queued` and the job goes on.
 *
 * Asynchronous like the rest of the Store, so that a client-server engine can implement it.
 */
import type Database from 'better-sqlite3';

export type CrawlStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';
/** A crawl follows links from its start URL; a batch scrapes the URLs it was given. */
export type JobKind = 'crawl' | 'batch';
export type CrawlUrlState = 'queued' | 'running' | 'done' | 'failed' | 'blocked';

export interface CrawlJobRecord {
  id: string;
  kind: JobKind;
  /** `team:<id>`, `keyless:<hash>` or `local` (tools/types.ts Caller.owner). */
  owner: string;
  url: string;
  /** The validated crawl request, as JSON. */
  options: string;
  status: CrawlStatus;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  expiresAt: string;
}

export interface NewCrawlJob {
  id: string;
  /** Default `crawl`. */
  kind?: JobKind;
  owner: string;
  url: string;
  options: string;
  expiresAt: Date;
  /** The client's `x-idempotency-key`: one job per owner, kind and key. */
  idempotencyKey?: string;
}

export interface CrawlUrlEntry {
  url: string;
  depth: number;
  /** URLs that are the same page (crawl `deduplicateSimilarURLs`): the entry is not added when the job knows one of them. */
  aliases?: readonly string[];
}

export interface CrawlCounts {
  queued: number;
  running: number;
  done: number;
  failed: number;
  blocked: number;
}

export interface CrawlErrorRecord {
  id: string;
  url: string;
  error: string;
  timestamp: string;
}

export interface CrawlResultPage {
  /** The data objects as stored (JSON text), in completion order. */
  items: string[];
  /** The skip value of the next page; undefined when this page reached the end. */
  nextSkip?: number;
}

export interface CrawlJobStore {
  /**
   * Creates the job and, when given, queues its first URLs in the same transaction (a batch).
   * With an idempotency key already used by the owner for this kind: returns that job instead.
   */
  createCrawlJob(job: NewCrawlJob, urls?: readonly CrawlUrlEntry[]): Promise<CrawlJobRecord>;
  getCrawlJob(id: string): Promise<CrawlJobRecord | undefined>;
  /** Jobs of an owner (newest first), or of every owner; optionally of one status and kind. */
  listCrawlJobs(filter: { owner?: string; status?: CrawlStatus; kind?: JobKind }): Promise<CrawlJobRecord[]>;
  /**
   * Adds URLs to a job and puts it back to `scraping` if it had finished (batch `appendToId`),
   * in one transaction. Returns the URLs added (ones the job already had are skipped).
   */
  appendCrawlUrls(jobId: string, entries: readonly CrawlUrlEntry[], expiresAt: Date): Promise<CrawlUrlEntry[]>;
  /**
   * Moves a `scraping` job to another status (a finished job never changes again); a terminal
   * status sets finished_at and pushes expires_at to `expiresAt`. False when the job was not scraping.
   */
  finishCrawlJob(id: string, status: Exclude<CrawlStatus, 'scraping'>, error: string | null, expiresAt: Date): Promise<boolean>;
  /**
   * Adds URLs the job does not know yet, queued (or `blocked` by robots.txt), keeping the
   * queued + running + done + failed total at most `cap`. Returns the URLs added as queued.
   */
  addCrawlUrls(jobId: string, entries: readonly CrawlUrlEntry[], cap: number, state?: 'queued' | 'blocked'): Promise<CrawlUrlEntry[]>;
  /** Marks up to `n` queued URLs `running`, oldest first, and returns them. */
  claimCrawlUrls(jobId: string, n: number): Promise<CrawlUrlEntry[]>;
  /** `running` → `queued` (after a restart); returns how many. */
  requeueRunningCrawlUrls(jobId: string): Promise<number>;
  /** The page is done: its state and its result are written together. */
  completeCrawlUrl(jobId: string, url: string, data: string): Promise<void>;
  failCrawlUrl(jobId: string, url: string, error: string): Promise<void>;
  crawlCounts(jobId: string): Promise<CrawlCounts>;
  /** Results from `skip`, at most `limit` items and about `maxBytes` of JSON (at least one item). */
  crawlResults(jobId: string, skip: number, limit: number, maxBytes: number): Promise<CrawlResultPage>;
  crawlErrors(jobId: string): Promise<CrawlErrorRecord[]>;
  robotsBlockedUrls(jobId: string): Promise<string[]>;
  /** Deletes finished jobs (with their frontier and results) whose expires_at is past; returns how many. */
  deleteExpiredCrawlJobs(now: Date): Promise<number>;
}

export interface JobRow {
  id: string;
  kind: JobKind;
  owner: string;
  url: string;
  options: string;
  status: CrawlStatus;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  expires_at: string;
}

export function toJob(row: JobRow): CrawlJobRecord {
  return {
    id: row.id,
    kind: row.kind,
    owner: row.owner,
    url: row.url,
    options: row.options,
    status: row.status,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
  };
}

export const JOB_COLUMNS = 'id, owner, url, options, status, error, created_at, updated_at, finished_at, expires_at, kind';

export function sqliteCrawlJobStore(db: Database.Database): CrawlJobStore {
  const q = {
    insertJob: db.prepare(`INSERT INTO crawl_jobs (${JOB_COLUMNS}, idempotency_key) VALUES (?, ?, ?, ?, 'scraping', NULL, ?, ?, NULL, ?, ?, ?)`),
    byIdempotency: db.prepare<[string, string, string], JobRow>(`SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE owner = ? AND kind = ? AND idempotency_key = ?`),
    reopen: db.prepare("UPDATE crawl_jobs SET status = 'scraping', error = NULL, finished_at = NULL, updated_at = ?, expires_at = ? WHERE id = ?"),
    job: db.prepare<[string], JobRow>(`SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE id = ?`),
    jobsAll: db.prepare<[], JobRow>(`SELECT ${JOB_COLUMNS} FROM crawl_jobs ORDER BY created_at DESC, rowid DESC`),
    jobsByOwner: db.prepare<[string], JobRow>(`SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE owner = ? ORDER BY created_at DESC, rowid DESC`),
    jobsByStatus: db.prepare<[string], JobRow>(`SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE status = ? ORDER BY created_at, rowid`),
    jobsByOwnerStatus: db.prepare<[string, string], JobRow>(
      `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE owner = ? AND status = ? ORDER BY created_at DESC, rowid DESC`,
    ),
    finish: db.prepare(
      "UPDATE crawl_jobs SET status = ?, error = ?, updated_at = ?, finished_at = ?, expires_at = ? WHERE id = ? AND status = 'scraping'",
    ),
    counted: db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM crawl_urls WHERE job_id = ? AND state != 'blocked'"),
    insertUrl: db.prepare('INSERT INTO crawl_urls (job_id, url, depth, state) VALUES (?, ?, ?, ?) ON CONFLICT (job_id, url) DO NOTHING'),
    knownUrl: db.prepare<[string, string], { n: number }>('SELECT 1 AS n FROM crawl_urls WHERE job_id = ? AND url = ?'),
    queued: db.prepare<[string, number], { id: number; url: string; depth: number }>(
      "SELECT id, url, depth FROM crawl_urls WHERE job_id = ? AND state = 'queued' ORDER BY id LIMIT ?",
    ),
    setRunning: db.prepare("UPDATE crawl_urls SET state = 'running' WHERE id = ?"),
    requeue: db.prepare("UPDATE crawl_urls SET state = 'queued' WHERE job_id = ? AND state = 'running'"),
    done: db.prepare("UPDATE crawl_urls SET state = 'done', error = NULL, finished_at = ? WHERE job_id = ? AND url = ? AND state != 'done'"),
    insertResult: db.prepare('INSERT INTO crawl_results (job_id, url, data) VALUES (?, ?, ?)'),
    failed: db.prepare("UPDATE crawl_urls SET state = 'failed', error = ?, finished_at = ? WHERE job_id = ? AND url = ? AND state != 'done'"),
    counts: db.prepare<[string], { state: CrawlUrlState; n: number }>('SELECT state, COUNT(*) AS n FROM crawl_urls WHERE job_id = ? GROUP BY state'),
    results: db.prepare<[string, number, number], { data: string }>('SELECT data FROM crawl_results WHERE job_id = ? ORDER BY id LIMIT ? OFFSET ?'),
    resultCount: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM crawl_results WHERE job_id = ?'),
    errors: db.prepare<[string], { id: number; url: string; error: string | null; finished_at: string | null }>(
      "SELECT id, url, error, finished_at FROM crawl_urls WHERE job_id = ? AND state = 'failed' ORDER BY id",
    ),
    blocked: db.prepare<[string], { url: string }>("SELECT url FROM crawl_urls WHERE job_id = ? AND state = 'blocked' ORDER BY id"),
    deleteExpired: db.prepare("DELETE FROM crawl_jobs WHERE status != 'scraping' AND expires_at < ?"),
  };

  const addUrls = db.transaction((jobId: string, entries: readonly CrawlUrlEntry[], cap: number, state: 'queued' | 'blocked') => {
    const added: CrawlUrlEntry[] = [];
    let total = (q.counted.get(jobId) as { n: number }).n;
    for (const e of entries) {
      if (state === 'queued' && total >= cap) break;
      if (e.aliases?.some((alias) => q.knownUrl.get(jobId, alias) !== undefined)) continue;
      if (q.insertUrl.run(jobId, e.url, e.depth, state).changes === 1) {
        if (state === 'queued') {
          total += 1;
          added.push({ url: e.url, depth: e.depth });
        }
      }
    }
    return added;
  });

  const create = db.transaction((job: NewCrawlJob, urls: readonly CrawlUrlEntry[]): JobRow => {
    const kind = job.kind ?? 'crawl';
    if (job.idempotencyKey !== undefined) {
      const existing = q.byIdempotency.get(job.owner, kind, job.idempotencyKey);
      if (existing) return existing;
    }
    const now = new Date().toISOString();
    q.insertJob.run(job.id, job.owner, job.url, job.options, now, now, job.expiresAt.toISOString(), kind, job.idempotencyKey ?? null);
    for (const e of urls) q.insertUrl.run(job.id, e.url, e.depth, 'queued');
    const row = q.job.get(job.id);
    if (!row) throw new Error('crawl job insert did not persist');
    return row;
  });

  const append = db.transaction((jobId: string, entries: readonly CrawlUrlEntry[], expiresAt: Date) => {
    const added = entries.filter((e) => q.insertUrl.run(jobId, e.url, e.depth, 'queued').changes === 1);
    if (added.length > 0) q.reopen.run(new Date().toISOString(), expiresAt.toISOString(), jobId);
    return added.map((e) => ({ url: e.url, depth: e.depth }));
  });

  const claim = db.transaction((jobId: string, n: number) => {
    const rows = q.queued.all(jobId, n);
    for (const r of rows) q.setRunning.run(r.id);
    return rows.map((r) => ({ url: r.url, depth: r.depth }));
  });

  const complete = db.transaction((jobId: string, url: string, data: string) => {
    if (q.done.run(new Date().toISOString(), jobId, url).changes === 1) q.insertResult.run(jobId, url, data);
  });

  return {
    async createCrawlJob(job, urls = []) {
      return toJob(create.immediate(job, urls));
    },
    async appendCrawlUrls(jobId, entries, expiresAt) {
      return append.immediate(jobId, entries, expiresAt);
    },
    async getCrawlJob(id) {
      const row = q.job.get(id);
      return row ? toJob(row) : undefined;
    },
    async listCrawlJobs(filter) {
      let rows: JobRow[];
      if (filter.owner !== undefined && filter.status !== undefined) rows = q.jobsByOwnerStatus.all(filter.owner, filter.status);
      else if (filter.owner !== undefined) rows = q.jobsByOwner.all(filter.owner);
      else if (filter.status !== undefined) rows = q.jobsByStatus.all(filter.status);
      else rows = q.jobsAll.all();
      return rows.map(toJob).filter((j) => filter.kind === undefined || j.kind === filter.kind);
    },
    async finishCrawlJob(id, status, error, expiresAt) {
      const now = new Date().toISOString();
      return q.finish.run(status, error, now, now, expiresAt.toISOString(), id).changes === 1;
    },
    async addCrawlUrls(jobId, entries, cap, state = 'queued') {
      return addUrls.immediate(jobId, entries, cap, state);
    },
    async claimCrawlUrls(jobId, n) {
      return claim.immediate(jobId, n);
    },
    async requeueRunningCrawlUrls(jobId) {
      return q.requeue.run(jobId).changes;
    },
    async completeCrawlUrl(jobId, url, data) {
      complete.immediate(jobId, url, data);
    },
    async failCrawlUrl(jobId, url, error) {
      q.failed.run(error, new Date().toISOString(), jobId, url);
    },
    async crawlCounts(jobId) {
      const counts: CrawlCounts = { queued: 0, running: 0, done: 0, failed: 0, blocked: 0 };
      for (const r of q.counts.all(jobId)) counts[r.state] = r.n;
      return counts;
    },
    async crawlResults(jobId, skip, limit, maxBytes) {
      const rows = q.results.all(jobId, limit, skip);
      const items: string[] = [];
      let bytes = 0;
      for (const r of rows) {
        if (items.length > 0 && bytes + r.data.length > maxBytes) break;
        items.push(r.data);
        bytes += r.data.length;
      }
      const total = (q.resultCount.get(jobId) as { n: number }).n;
      const end = skip + items.length;
      return end < total ? { items, nextSkip: end } : { items };
    },
    async crawlErrors(jobId) {
      return q.errors.all(jobId).map((r) => ({
        id: `${jobId}:${r.id}`,
        url: r.url,
        error: r.error ?? 'unknown error',
        timestamp: r.finished_at ?? '',
      }));
    },
    async robotsBlockedUrls(jobId) {
      return q.blocked.all(jobId).map((r) => r.url);
    },
    async deleteExpiredCrawlJobs(now) {
      return q.deleteExpired.run(now.toISOString()).changes;
    },
  };
}
