/**
 * bench:table-styles' harvest and styles (bench/pdf/table-styles-*.ts): which tables of a page
 * are data tables (layout, navigation, nested and one-column tables left out), how a kept
 * table is rebuilt (head rows, spans, rows cut at 25, footnote marks dropped), the prose beside
 * it, and each style's page.
 */
import { describe, expect, it } from 'vitest';
import { STYLES, styledHtml } from '../../bench/pdf/table-styles-corpus.ts';
import { pageTables } from '../../bench/pdf/table-styles-harvest.ts';

const PROSE_BEFORE = 'The figures below were gathered over three years by the survey team across every district of the region.';
const PROSE_AFTER = 'As the table shows, the northern districts grew fastest, while the coast kept its lead in absolute terms.';
const bodyRows = (n: number) => Array.from({ length: n }, (_, i) => `<tr><td>Row ${i + 1}</td><td>${i * 7}</td><td>${i * 3}%</td></tr>`).join('');

const PAGE = `<!doctype html><html><body>
<p>${PROSE_BEFORE}</p>
<table class="wikitable"><thead><tr><th rowspan="2">District</th><th colspan="2">Growth</th></tr><tr><th>Count</th><th>Share</th></tr></thead>
<tbody>${bodyRows(30)}<tr><td>Note<sup class="reference">[1]</sup></td><td>1</td><td>2</td></tr></tbody></table>
<p>${PROSE_AFTER}</p>
<table class="infobox"><tr><th>Born</th><td>1900</td></tr><tr><th>Died</th><td>1990</td></tr><tr><th>Known for</th><td>Things</td></tr></table>
<table><tr><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr><tr><td>e</td><td>f</td></tr></table></td></tr></table>
<table><tr><td>only</td></tr><tr><td>one</td></tr><tr><td>column</td></tr></table>
<table role="presentation"><tr><td>x</td><td>y</td></tr><tr><td>x</td><td>y</td></tr><tr><td>x</td><td>y</td></tr></table>
</body></html>`;

describe('bench:table-styles harvest', () => {
  const tables = pageTables('page', PAGE, 'html/page.html');

  it('keeps the data tables: the wikitable and the inner table of a layout table', () => {
    expect(tables.map((t) => t.id)).toEqual(['page-t0', 'page-t3']);
  });

  it('rebuilds a table with its head rows and spans, cut at 25 rows', () => {
    const t = tables[0];
    expect(t?.html.startsWith('<table><thead><tr><th rowspan="2">District</th><th colspan="2">Growth</th></tr><tr><th>Count</th><th>Share</th></tr></thead><tbody><tr><td>Row 1</td>')).toBe(true);
    expect(t?.rows).toBe(25);
    expect(t?.columns).toBe(3);
    expect(t?.spans).toBe(true);
    expect(t?.html).not.toContain('Note');
    expect(t?.before).toBe(PROSE_BEFORE);
    expect(t?.after).toBe(PROSE_AFTER);
  });

  it('takes both paragraphs of a table at the page end from before it', () => {
    expect(tables[1]?.before).toBe(PROSE_AFTER);
    expect(tables[1]?.after).toBe(PROSE_BEFORE);
  });

  it('prints each style with the prose around the table', () => {
    const t = tables[0];
    if (!t) throw new Error('no table');
    const pages = STYLES.map((s) => styledHtml(t, s));
    for (const p of pages) {
      expect(p.html).toContain(`<p>${PROSE_BEFORE}</p><table>`);
      expect(p.html).toContain(`</table><p>${PROSE_AFTER}</p>`);
      expect([8, 9, 10, 11]).toContain(p.size);
    }
    expect(pages[0]?.html).toContain('th, td { border: 0.75pt solid #000; }');
    expect(pages[2]?.html).toContain('background');
    expect(pages[3]?.html).not.toMatch(/border(-(top|bottom|left|right))?:/u);
    expect(styledHtml(t, 'grid')).toEqual(pages[0]);
  });
});
