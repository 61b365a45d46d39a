/**
 * bench:printed's truth and scoring (bench/pdf/printed-*.ts): the truth read from a page Chromium
 * printed (visible headings and tables only, text as laid out, the reference markdown in page
 * order), and the per-page scores on outputs that match the truth, miss it, or add to it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.ts';
import { headingsOf, matchHeadings } from '../../bench/pdf/heading-match.ts';
import { printHtml } from '../../bench/pdf/printed-corpus.ts';
import { scorePrinted, unlinked } from '../../bench/pdf/printed-score.ts';
import { eligible, seededSample, type PageTruth } from '../../bench/pdf/printed-truth.ts';

const PAGE = `<!doctype html><html><head><style>
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .caps { text-transform: uppercase; }
  @media print { .screen-only { display: none; } }
</style><link rel="stylesheet" href="https://example.invalid/site.css"></head><body>
  <h1>Printed   title</h1>
  <p>First paragraph of the page.</p>
  <h2 class="sr">Skip to content</h2>
  <h2 style="display:none">Hidden heading</h2>
  <h2 style="visibility:hidden">Invisible heading</h2>
  <h2 class="screen-only">Screen only</h2>
  <h2 class="caps">Results</h2>
  <h2>​</h2>
  <table><thead><tr><th>Name</th><th>Value</th></tr></thead>
    <tbody><tr><td colspan="2">Both &amp; more</td></tr><tr style="display:none"><td>gone</td><td>row</td></tr></tbody></table>
  <table><tr><td><h3>In a cell</h3><table><tr><td>inner</td></tr></table></td><td>beside</td></tr><tr><td>a</td><td>b</td></tr></table>
  <table><tr><td>1<br>2</td><td>x = 1<br>y = 2</td></tr></table>
  <h3>Last <em>words</em></h3>
  <p>Closing text.</p>
  <pre># not a heading
x = 1</pre>
</body></html>`;

describe('the truth of a printed page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps visible headings and tables only, as laid out, in page order', async () => {
    const { bytes, truth } = await printHtml(browser, PAGE);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(truth.headings).toEqual([
      { level: 1, text: 'Printed title' },
      { level: 2, text: 'RESULTS' },
      { level: 3, text: 'Last words' },
    ]);
    expect(truth.tables).toEqual([
      '<table><tr><td>Name</td><td>Value</td></tr><tr><td colspan="2">Both &amp; more</td></tr></table>',
      '<table><tr><td>In a cell inner</td><td>beside</td></tr><tr><td>a</td><td>b</td></tr></table>',
    ]);
    // a one-row table (a listing's line numbers beside its code) is read as text
    expect(truth.markdown).toMatch(/x = 1/u);
    expect(truth.nested).toBe(1);
    const lines = truth.markdown.split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe('# Printed title');
    expect(lines[1]).toBe('First paragraph of the page.');
    expect(lines.indexOf('## RESULTS')).toBeLessThan(lines.indexOf(truth.tables[0] as string));
    expect(lines.at(-4)).toBe('### Last words');
    expect(lines.at(-3)).toBe('Closing text.');
    expect(lines.at(-2)).toBe('\\# not a heading');
    expect(truth.markdown).not.toMatch(/Hidden heading|Invisible heading|Screen only|gone/u);
    // a page with a table inside a table is not in the sample
    expect(eligible(truth, 1, 10)).toBe(false);
    expect(eligible({ ...truth, nested: 0 }, 1, 10)).toBe(true);
    expect(eligible({ ...truth, nested: 0 }, 11, 10)).toBe(false);
    // nor a page in a script the machine's fonts cannot print
    expect(eligible({ ...truth, nested: 0, markdown: `${truth.markdown}\n人工智能的未来\n` }, 1, 10)).toBe(false);
  }, 60_000);
});

const TRUTH: PageTruth = {
  headings: [
    { level: 1, text: 'Annual report' },
    { level: 2, text: 'Revenue' },
    { level: 2, text: 'Outlook' },
  ],
  tables: ['<table><tr><td>Year</td><td>Sales</td></tr><tr><td>2024</td><td>10</td></tr></table>'],
  nested: 0,
  markdown: '# Annual report\n\nIntro text.\n\n## Revenue\n\n<table><tr><td>Year</td><td>Sales</td></tr><tr><td>2024</td><td>10</td></tr></table>\n\n## Outlook\n\nMore growth.\n',
};

describe('scoring a printed page', () => {
  it('scores an output equal to the truth at 1 with every heading found at its level', () => {
    const s = scorePrinted(TRUTH, TRUTH.markdown);
    expect(s.found).toBe(3);
    expect(s.missed).toEqual([]);
    expect(s.extra).toEqual([]);
    expect(s.sameLevel).toBe(3);
    expect(s.scores.mhs).toBe(1);
    expect(s.scores.teds).toBe(1);
    expect(s.scores.overall).toBe(1);
  });

  it('counts a heading read as text as missed, a caption read as heading as extra, and a level off', () => {
    const output = '## Annual report\n\nIntro text.\n\nRevenue\n\n| Year | Sales |\n|---|---|\n| 2024 | 10 |\n\n### Figure 1: sales\n\n## Outlook\n\nMore growth.\n';
    const s = scorePrinted(TRUTH, output);
    expect(s.found).toBe(2);
    expect(s.missed).toEqual([{ level: 2, text: 'Revenue' }]);
    expect(s.extra).toEqual([{ level: 3, text: 'Figure 1: sales' }]);
    expect(s.levels).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(s.sameLevel).toBe(1);
    expect(s.scores.mhs).toBeLessThan(1);
    expect(s.scores.mhs).toBeGreaterThan(0.3);
    // the pipe table is the truth's table
    expect(s.scores.teds).toBe(1);
  });

  it('scores a table not found at TEDS 0 and a page without headings at MHS 0', () => {
    const s = scorePrinted(TRUTH, 'Annual report Intro text. Revenue Year Sales 2024 10 Outlook More growth.');
    expect(s.found).toBe(0);
    expect(s.missed).toHaveLength(3);
    expect(s.scores.teds).toBe(0);
    expect(s.scores.mhs).toBe(0);
    expect(s.scores.nid).toBeGreaterThan(0.5);
  });

  it('matches each reference heading once, in order, by letters and digits', () => {
    const m = matchHeadings(
      [
        { level: 2, text: 'Notes' },
        { level: 2, text: 'Notes' },
        { level: 3, text: '1. Scope' },
      ],
      [
        { level: 2, text: 'NOTES' },
        { level: 1, text: '1 Scope' },
        { level: 2, text: 'Contents' },
      ],
    );
    expect(m.matchOf).toEqual([0, -1, 1]);
    expect(m.extra).toEqual([2]);
  });

  it('draws the same seeded sample whatever the order of the names', () => {
    const names = Array.from({ length: 50 }, (_, i) => `page-${i}`);
    const a = seededSample(names, 10, 16);
    expect(seededSample([...names].reverse(), 10, 16)).toEqual(a);
    expect(new Set(a).size).toBe(10);
    expect(seededSample(names, 10, 17)).not.toEqual(a);
  });
});

describe('links in the output', () => {
  it('reads a link as its text, so a linked heading matches its truth', () => {
    expect(unlinked('## [Design systems](https://example.com/a_(b)) and [x](y)')).toBe('## Design systems and x');
    const truth: PageTruth = { headings: [{ level: 2, text: 'Design systems' }], tables: [], nested: 0, markdown: '## Design systems\n\nText.\n' };
    const s = scorePrinted(truth, '## [Design systems](https://example.com/design)\n\nText.\n');
    expect(s.found).toBe(1);
    expect(s.scores.mhs).toBe(1);
    expect(s.scores.nid).toBe(1);
  });
});

describe('heading lines of an output', () => {
  it('are the # lines outside fenced listings', () => {
    const md = '# Title\n\n```\n# a comment\n~~~\n## still code\n```\n\n## Next\n\n~~~~\n# x\n~~~~\n### Last';
    expect(headingsOf(md)).toEqual([
      { level: 1, text: 'Title' },
      { level: 2, text: 'Next' },
      { level: 3, text: 'Last' },
    ]);
  });
});
