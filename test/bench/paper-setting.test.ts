/**
 * bench:paper's setting (bench/pdf/paper-corpus.ts): a page printed in the test as the bench
 * prints the corpus — two columns, the title across both, an image as a grey box, a running head
 * and a page number on every page — and its truth read from the DOM printed, which holds neither
 * the running head nor the page number.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.ts';
import { pdfjsStreamText } from '../../bench/pdf/baseline.ts';
import { JOURNAL, PAPER_STYLE } from '../../bench/pdf/paper-corpus.ts';
import { printHtml } from '../../bench/pdf/printed-corpus.ts';
import { firstPageModel } from '../parse/pdf-table-fixtures.ts';

const SENTENCE = 'The committee read every submission twice and wrote its reasons down for the authors to see. ';

const PAGE = `<!doctype html><html><head><title>A Study of Columns</title></head><body>
  <p>Issue 12</p>
  <h1>A Study of Columns</h1>
  ${Array.from({ length: 14 }, (_, i) => `<h2>Section ${i + 1}</h2><p>${SENTENCE.repeat(6)}</p>${i === 3 ? '<figure><img src="https://example.invalid/chart.png" width="640" height="400" alt="chart"><figcaption>Figure 1: A chart that did not load</figcaption></figure>' : ''}`).join('\n')}
</body></html>`;

describe("bench:paper's setting", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('prints two columns under a spanning title, a running head on every page, and a truth without it', async () => {
    const { bytes, truth } = await printHtml(browser, PAGE, PAPER_STYLE);
    const text = await pdfjsStreamText(bytes);
    expect(text.pages).toBeGreaterThanOrEqual(2);
    // The running head (the page's title and the journal) and the page number on every page…
    text.pageTexts.forEach((page, i) => {
      expect(page).toContain(JOURNAL);
      expect(page).toContain('A Study of Columns');
      expect(page.split('\n').map((l) => l.trim())).toContain(String(i + 1));
    });
    // …and in no truth: the truth is the DOM's text in its order, headings as `#` lines.
    expect(truth.markdown).not.toContain(JOURNAL);
    expect(truth.markdown.indexOf('# A Study of Columns')).toBeLessThan(truth.markdown.indexOf('## Section 1'));
    expect(truth.markdown).toContain('Figure 1: A chart that did not load');
    // Two columns: on the first page, words of the running text stand right of the page's middle
    // beside words left of it, under the title, which is centred across both.
    const page = await firstPageModel(bytes);
    const middle = page.width / 2;
    const title = page.words.find((w) => w.text === 'Study' && w.size > 14);
    expect(title).toBeDefined();
    const body = page.words.filter((w) => w.size > 9 && w.size < 11 && w.y0 > (title?.y1 ?? 0));
    const right = body.filter((w) => w.x0 > middle);
    const left = body.filter((w) => w.x1 < middle);
    expect(right.length).toBeGreaterThan(50);
    expect(left.length).toBeGreaterThan(50);
    expect(right.some((r) => left.some((l) => Math.abs(l.y0 - r.y0) < 2))).toBe(true);
    const titleCentre = title ? (title.x0 + title.x1) / 2 : 0;
    expect(Math.abs(titleCentre - middle)).toBeLessThan(0.2 * page.width);
    // The image is a grey box of its own in the column (offline it would not have loaded).
    expect(page.images.length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
