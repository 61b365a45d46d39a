/**
 * Crawl and batch scrape pages are charged as they are stored (1 page price each, with the job's
 * scrape options' surcharges), to the team that owns the job and the key or OAuth client that
 * started it (the start's ledger row, written by the door that started it, carries the job id).
 */
import type { CrawlJobRecord } from '../store/crawl-jobs.ts';
import { priceOfData, type PageFactors } from './prices.ts';
import { requestFactors } from './requests.ts';
import type { TeamAccounts } from './team-accounts.ts';

/** The job events crawling emits (src/web/webhooks JobEventSink, structurally). */
export interface JobEvents<Data> {
  started(jobId: string): void;
  page(jobId: string, data: Data): void;
  pageFailed(jobId: string, url: string, error: string): void;
  finished(jobId: string, status: 'completed' | 'failed', error: string | null): void;
}

interface JobBilling {
  teamId: string;
  operation: 'crawl' | 'batch_scrape';
  factors: PageFactors;
}

export interface JobPageChargeDeps {
  accounts: Pick<TeamAccounts, 'charge' | 'prices'>;
  spenderOf(jobId: string): Promise<{ keyId?: string; oauthClient?: string } | undefined>;
  getJob(jobId: string): Promise<Pick<CrawlJobRecord, 'owner' | 'kind' | 'options'> | undefined>;
  onError(err: unknown, jobId: string): void;
}

const TEAM_OWNER = /^team:(.+)$/;

/** `events` with each stored page charged; what `events` does is unchanged. */
export function chargeJobPages<Data>(events: JobEvents<Data>, deps: JobPageChargeDeps): JobEvents<Data> {
  const jobs = new Map<string, Promise<JobBilling | undefined>>();
  const billingOf = (jobId: string): Promise<JobBilling | undefined> => {
    let known = jobs.get(jobId);
    if (!known) {
      known = deps.getJob(jobId).then((job) => {
        const team = job ? TEAM_OWNER.exec(job.owner)?.[1] : undefined;
        if (!job || team === undefined) return undefined;
        return { teamId: team, operation: job.kind === 'batch' ? 'batch_scrape' : 'crawl', factors: requestFactors(JSON.parse(job.options) as unknown) };
      });
      jobs.set(jobId, known);
    }
    return known;
  };
  const charge = async (jobId: string, data: Data) => {
    const billing = await billingOf(jobId);
    if (!billing) return;
    // The door writes the start's row as it answers, which may be just after the first page.
    let spender = await deps.spenderOf(jobId);
    for (let i = 0; spender === undefined && i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      spender = await deps.spenderOf(jobId);
    }
    await deps.accounts.charge(
      { teamId: billing.teamId, ...spender },
      { operation: billing.operation, units: priceOfData(deps.accounts.prices, billing.factors, data), requestId: jobId },
    );
  };
  return {
    started: (jobId) => events.started(jobId),
    page(jobId, data) {
      events.page(jobId, data);
      charge(jobId, data).catch((err: unknown) => deps.onError(err, jobId));
    },
    pageFailed: (jobId, url, error) => events.pageFailed(jobId, url, error),
    finished(jobId, status, error) {
      jobs.delete(jobId);
      events.finished(jobId, status, error);
    },
  };
}
