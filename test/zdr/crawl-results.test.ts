/**
 * The ZDR crawl result holder (src/web/crawl/zdr-results.ts) over the real SQLite store: pages of
 * a zeroDataRetention job are read back from memory while the table holds placeholders without
 * content; another holder over the same file (a restart, another instance) reads the
 * placeholders and their reason; the expiry sweep forgets the pages with the job; a job without
 * ZDR is stored as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite.ts';
import { ZDR_PAGE_GONE, zeroRetentionCrawlStore } from '../../src/web/crawl/zdr-results.ts';

const MARKER = 'ZDRPAGE-7f3a';
let dir: string;
let store: SqliteStore;

afterEach(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function jobWithPage(zdr: { top?: boolean; scrape?: boolean }) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-zdr-store-'));
  store = openSqliteStore(dir);
  const held = zeroRetentionCrawlStore(store);
  const options = JSON.stringify({ url: 'https://example.com/', zeroDataRetention: zdr.top === true, scrapeOptions: { zeroDataRetention: zdr.scrape === true } });
  const job = await held.createCrawlJob({ id: '6b1f3c2e-8d4a-4e5b-9c6d-7e8f9a0b1c2d', kind: 'batch', owner: 'team:t', url: 'https://example.com/', options, expiresAt: new Date(Date.now() + 60_000) }, [{ url: 'https://example.com/a', depth: 0 }]);
  await held.claimCrawlUrls(job.id, 1);
  await held.completeCrawlUrl(job.id, 'https://example.com/a', JSON.stringify({ markdown: `secret ${MARKER}`, metadata: { sourceURL: 'https://example.com/a' } }));
  const dbText = () => ['folio.db', 'folio.db-wal'].map((f) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f)).toString('latin1') : '')).join('');
  return { held, job, dbText };
}

describe('ZDR crawl results', () => {
  it('a ZDR job (scrapeOptions) is read from memory; the store holds a placeholder without content', async () => {
    const { held, job, dbText } = await jobWithPage({ scrape: true });
    const page = await held.crawlResults(job.id, 0, 10, 1_000_000);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toContain(MARKER);
    expect(dbText()).not.toContain(MARKER);
    expect(held.heldJobs()).toBe(1);

    // Another holder over the same store: the placeholder, saying why.
    const other = zeroRetentionCrawlStore(store);
    const seen = JSON.parse((await other.crawlResults(job.id, 0, 10, 1_000_000)).items[0] ?? '{}') as { metadata: Record<string, unknown> };
    expect(seen.metadata).toEqual({ sourceURL: 'https://example.com/a', url: 'https://example.com/a', zeroDataRetention: true, error: ZDR_PAGE_GONE });
  });

  it('the expiry sweep forgets the pages of a finished ZDR job with the job', async () => {
    const { held, job } = await jobWithPage({ top: true });
    await held.finishCrawlJob(job.id, 'completed', null, new Date(Date.now() - 1000));
    expect(await held.deleteExpiredCrawlJobs(new Date())).toBe(1);
    expect(held.heldJobs()).toBe(0);
  });

  it('a job without ZDR is stored as before', async () => {
    const { held, job, dbText } = await jobWithPage({});
    expect((await held.crawlResults(job.id, 0, 10, 1_000_000)).items[0]).toContain(MARKER);
    expect(dbText()).toContain(MARKER);
    expect(held.heldJobs()).toBe(0);
  });
});
