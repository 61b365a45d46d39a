/**
 * The price table (docs/billing.md#prices) on the option and answer shapes the doors see:
 * Firecrawl's formats as strings or objects, redactPII as a boolean or options, zeroDataRetention
 * at the top or in scrapeOptions; PDFs by pages processed; search blocks and scraped results.
 */
import { describe, expect, it } from 'vitest';
import { factorsOf, minimumPrice, priceOf, requestFactors, wantsZdr } from '../../src/accounts/index.ts';
import { loadConfig } from '../../src/config.ts';

const prices = loadConfig({}).prices;

describe('prices', () => {
  it('defaults follow Firecrawl’s table', () => {
    expect(prices).toEqual({ page: 1, pdfPage: 1, json: 4, redactPii: 4, zdr: 1, map: 1, searchPer10: 2, browserMinute: 2 });
  });

  it('a document: 1, a PDF by its pages, surcharges per billed page', () => {
    const plain = factorsOf({});
    expect(priceOf(prices, 'parse', plain, { metadata: { contentType: 'text/html' } })).toBe(1);
    expect(priceOf(prices, 'parse', plain, { metadata: { numPages: 12 } })).toBe(12);
    const all = factorsOf({ formats: ['markdown', { type: 'json', prompt: 'x' }], redactPII: { mode: 'fast' }, zeroDataRetention: true });
    expect(all).toEqual({ json: true, redactPii: true, zdr: true });
    expect(priceOf(prices, 'scrape', all, { metadata: {} })).toBe(10);
    expect(priceOf(prices, 'parse', all, { metadata: { numPages: 3 } })).toBe(30);
    expect(factorsOf({ formats: ['json'], redactPII: false })).toEqual({ json: true, redactPii: false, zdr: false });
  });

  it('map per call; search per 10 results, rounded up, plus each scraped result', () => {
    expect(priceOf(prices, 'map', factorsOf({}), { links: new Array(500).fill('x') })).toBe(1);
    const results = (n: number, scraped = 0) => ({ web: Array.from({ length: n }, (_, i) => (i < scraped ? { url: 'u', markdown: 'm', metadata: {} } : { url: 'u' })) });
    expect(priceOf(prices, 'search', factorsOf({}), results(0))).toBe(2);
    expect(priceOf(prices, 'search', factorsOf({}), results(10))).toBe(2);
    expect(priceOf(prices, 'search', factorsOf({}), results(11))).toBe(4);
    expect(priceOf(prices, 'search', factorsOf({}), { ...results(3, 2), news: [{}, {}], images: [{}] })).toBe(2 + 2);
  });

  it('the least an operation costs, for the 402 before work', () => {
    expect(minimumPrice(prices, 'parse', factorsOf({}))).toBe(1);
    expect(minimumPrice(prices, 'scrape', factorsOf({ redactPII: true }))).toBe(5);
    expect(minimumPrice(prices, 'map', factorsOf({}))).toBe(1);
    expect(minimumPrice(prices, 'search', factorsOf({}))).toBe(2);
  });

  it('ZDR and factors are found where each door puts them', () => {
    expect(wantsZdr({ zeroDataRetention: true })).toBe(true);
    expect(wantsZdr({ url: 'u', scrapeOptions: { zeroDataRetention: true } })).toBe(true);
    expect(wantsZdr({ urls: ['u'], options: { zeroDataRetention: true } })).toBe(true);
    expect(wantsZdr({ zeroDataRetention: 'true' })).toBe(false);
    expect(wantsZdr(undefined)).toBe(false);
    expect(requestFactors({ url: 'u', zeroDataRetention: true, scrapeOptions: { formats: ['json'] } })).toEqual({ json: true, redactPii: false, zdr: true });
  });
});
