/**
 * Zero Data Retention for crawl and batch scrape jobs (docs/zdr.md): a CrawlJobStore in front of
 * the real one that keeps the pages of a ZDR job (`zeroDataRetention: true` on the job or in its
 * `scrapeOptions`) in this process's memory only. The store's results table gets a placeholder
 * per page instead (its URL and a note, never content), so counts, paging and expiry work as for
 * any job; the status endpoints swap the page back in from memory. The memory goes with the job's
 * expiry (the sweep), with a cancelled or expired job, and with the process: a job read after a
 * restart, or through another instance, shows the placeholders, whose `metadata.error` says why.
 */
import type { CrawlJobRecord, CrawlJobStore, NewCrawlJob } from '../../store/crawl-jobs.ts';

/** What a ZDR page reads as when its content is no longer in this process's memory. */
export const ZDR_PAGE_GONE =
  'Not available: under zeroDataRetention the page content is kept only in the memory of the folio process that scraped it, until the job expires; that process has restarted, or another instance answered.';

/** Whether a stored crawl request (JSON) asks for Zero Data Retention. */
export function isZeroRetentionRequest(options: string): boolean {
  try {
    const parsed = JSON.parse(options) as { zeroDataRetention?: unknown; scrapeOptions?: { zeroDataRetention?: unknown } | null };
    return parsed.zeroDataRetention === true || parsed.scrapeOptions?.zeroDataRetention === true;
  } catch {
    return false;
  }
}

function placeholder(url: string): string {
  return JSON.stringify({ metadata: { sourceURL: url, url, zeroDataRetention: true, error: ZDR_PAGE_GONE } });
}

interface HeldJob {
  /** Page data (JSON) by the placeholder text that stands for it in the store. */
  pages: Map<string, string>;
  /** Known once the job finished: when its results expire. */
  expiresAt?: number;
}

export interface ZeroRetentionCrawlStore extends CrawlJobStore {
  /** Jobs whose pages are held in memory (tests, diagnostics). */
  heldJobs(): number;
}

export function zeroRetentionCrawlStore(inner: CrawlJobStore): ZeroRetentionCrawlStore {
  const held = new Map<string, HeldJob>();
  /** Whether a job is ZDR: from its creation here, or read once from its stored request. */
  const zdrJobs = new Map<string, boolean>();

  const isZdr = async (jobId: string): Promise<boolean> => {
    const known = zdrJobs.get(jobId);
    if (known !== undefined) return known;
    const job = await inner.getCrawlJob(jobId);
    const zdr = job ? isZeroRetentionRequest(job.options) : false;
    zdrJobs.set(jobId, zdr);
    return zdr;
  };

  const forget = (jobId: string) => {
    held.delete(jobId);
    zdrJobs.delete(jobId);
  };

  return {
    getCrawlJob: (id) => inner.getCrawlJob(id),
    listCrawlJobs: (filter) => inner.listCrawlJobs(filter),
    addCrawlUrls: (jobId, entries, cap, state) => inner.addCrawlUrls(jobId, entries, cap, state),
    claimCrawlUrls: (jobId, n) => inner.claimCrawlUrls(jobId, n),
    requeueRunningCrawlUrls: (jobId) => inner.requeueRunningCrawlUrls(jobId),
    failCrawlUrl: (jobId, url, error) => inner.failCrawlUrl(jobId, url, error),
    crawlCounts: (jobId) => inner.crawlCounts(jobId),
    crawlErrors: (jobId) => inner.crawlErrors(jobId),
    robotsBlockedUrls: (jobId) => inner.robotsBlockedUrls(jobId),
    async createCrawlJob(job: NewCrawlJob, urls) {
      const created: CrawlJobRecord = await inner.createCrawlJob(job, urls);
      zdrJobs.set(created.id, isZeroRetentionRequest(created.options));
      return created;
    },
    async finishCrawlJob(id, status, error, expiresAt) {
      const moved = await inner.finishCrawlJob(id, status, error, expiresAt);
      const job = held.get(id);
      if (moved && job) job.expiresAt = expiresAt.getTime();
      return moved;
    },
    async appendCrawlUrls(jobId, entries, expiresAt) {
      const added = await inner.appendCrawlUrls(jobId, entries, expiresAt);
      // Back to `scraping`: its results stay until it finishes again.
      const job = held.get(jobId);
      if (job) delete job.expiresAt;
      return added;
    },
    async completeCrawlUrl(jobId, url, data) {
      if (!(await isZdr(jobId))) return inner.completeCrawlUrl(jobId, url, data);
      const stand = placeholder(url);
      let job = held.get(jobId);
      if (!job) {
        job = { pages: new Map() };
        held.set(jobId, job);
      }
      job.pages.set(stand, data);
      await inner.completeCrawlUrl(jobId, url, stand);
    },
    async crawlResults(jobId, skip, limit, maxBytes) {
      const page = await inner.crawlResults(jobId, skip, limit, maxBytes);
      const job = held.get(jobId);
      if (!job) return page;
      return { ...page, items: page.items.map((item) => job.pages.get(item) ?? item) };
    },
    async deleteExpiredCrawlJobs(now) {
      const deleted = await inner.deleteExpiredCrawlJobs(now);
      for (const [id, job] of held) if (job.expiresAt !== undefined && job.expiresAt < now.getTime()) forget(id);
      return deleted;
    },
    heldJobs: () => held.size,
  };
}
