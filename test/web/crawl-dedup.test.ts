/**
 * Crawl de-duplication of similar URLs (Firecrawl's `deduplicateSimilarURLs`, on by default)
 * against the local test site through the real service and the Firecrawl SDK: /similar/,
 * /similar/index.html, /similar/index.htm, a #fragment and a trailing slash are one page each;
 * `deduplicateSimilarURLs: false` crawls every name. The www/http/https aliases are checked on
 * similarUrls itself (the loopback site has neither a www name nor TLS).
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { similarUrls } from '../../src/web/crawl/similar-urls.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite({ pages: 3 });
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
  await site.close();
});

const pathsOf = (data: { metadata?: { sourceURL?: string } }[]) => data.map((d) => new URL(d.metadata?.sourceURL ?? '').pathname).sort();

describe('crawl deduplicateSimilarURLs', () => {
  it('is on by default: index.html, index.htm, a fragment and a trailing slash are one page', async () => {
    const job = await client.crawl(`${site.url}/similar/`, { sitemap: 'skip', limit: 20, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(pathsOf(job.data)).toEqual(['/similar/', '/similar/child']);
    expect(job.total).toBe(2);
  });

  it('false crawls every name as its own page', async () => {
    const job = await client.crawl(`${site.url}/similar/`, { sitemap: 'skip', limit: 20, deduplicateSimilarURLs: false, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(pathsOf(job.data)).toEqual(['/similar/', '/similar/child', '/similar/child/', '/similar/index.htm', '/similar/index.html']);
  });

  it('similarUrls covers http/https, www./bare, index files and the trailing slash, keeping the query', () => {
    const aliases = similarUrls('https://www.example.com/docs/index.html?x=1');
    for (const scheme of ['http', 'https']) {
      for (const host of ['example.com', 'www.example.com']) {
        for (const path of ['/docs', '/docs/', '/docs/index.htm']) expect(aliases).toContain(`${scheme}://${host}${path}?x=1`);
      }
    }
    expect(aliases).not.toContain('https://www.example.com/docs/index.html?x=1');
    expect(aliases).toHaveLength(15);
    expect(similarUrls('http://127.0.0.1:8080/')).toEqual(
      expect.arrayContaining(['https://127.0.0.1:8080/', 'http://127.0.0.1:8080/index.html', 'https://127.0.0.1:8080/index.htm']),
    );
    expect(similarUrls('http://127.0.0.1:8080/').some((u) => u.includes('www.'))).toBe(false);
  });
});
