/**
 * The truth of a printed web page (bench/pdf/printed.ts): what the browser laid out, read from
 * the same DOM that was printed, after printing, under print media.
 *
 * TRUTH_SCRIPT runs in the page (a string, so no bundler helper reaches the browser) and answers
 * a PageTruth:
 *   headings  every visible h1–h6 outside a table (level, text as laid out: `innerText`, so CSS
 *             text-transform included), in document order;
 *   tables    every visible table of data (two rows or more, one with two filled cells) not inside
 *             another table, as plain HTML (`<table><tr><td>`, colspan/rowspan kept, th written
 *             td as the bench's TEDS reads it, cell text whitespace-collapsed), rows and cells
 *             that are not visible left out; any other table is read as its text;
 *   nested    how many tables sit inside another table (layout tables: such a page is left out of
 *             the sample, its "tables" are no reader's);
 *   markdown  the reference the bench's scorers read: the body's `innerText` (what is rendered,
 *             in order) with each heading as a `#` line and each table as its HTML (a text line
 *             that starts with `#`, a comment in a listing, escaped `\#`).
 * Visible = `checkVisibility` (display, visibility, opacity) and a box of at least 2 × 2 px (a
 * "screen-reader only" heading clipped to 1 px is not printed); a heading without a letter or a
 * digit (a zero-width space) is none.
 */

import { mulberry32 } from '../../test/helpers/prng.ts';

export interface PageTruth {
  headings: { level: number; text: string }[];
  tables: string[];
  nested: number;
  markdown: string;
  /** Why the page's tables are not scored (TEDS left out): the truth's reading of them is known wrong. */
  tablesLeftOut?: string;
}

export const TRUTH_SCRIPT = String.raw`(() => {
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    return typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) : true;
  };
  const clean = (s) => s.replace(/\s+/g, ' ').trim();
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = document.body;
  if (!body) return { headings: [], tables: [], nested: 0, markdown: '' };
  const nested = document.querySelectorAll('table table').length;
  const tables = [];
  const tableEls = [];
  for (const t of Array.from(document.querySelectorAll('table'))) {
    if (t.parentElement && t.parentElement.closest('table')) continue;
    if (!visible(t)) continue;
    let html = '<table>';
    let rows = 0;
    let wide = false;
    for (const row of Array.from(t.rows)) {
      if (!visible(row)) continue;
      html += '<tr>';
      let filled = 0;
      for (const cell of Array.from(row.cells)) {
        if (getComputedStyle(cell).display === 'none') continue;
        let attrs = '';
        if (cell.colSpan > 1) attrs += ' colspan="' + cell.colSpan + '"';
        if (cell.rowSpan > 1) attrs += ' rowspan="' + cell.rowSpan + '"';
        const text = clean(cell.innerText);
        if (text) filled++;
        html += '<td' + attrs + '>' + esc(text) + '</td>';
      }
      html += '</tr>';
      if (filled >= 1) rows++;
      if (filled >= 2) wide = true;
    }
    html += '</table>';
    // A table of data has two rows or more and a row of two filled cells or more; a one-row
    // table (a listing's line numbers beside its code) or a one-column one (a page's layout) is
    // read as its text.
    if (rows < 2 || !wide) continue;
    tables.push(html);
    tableEls.push(t);
  }
  const headings = [];
  const headingEls = [];
  for (const h of Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    if (h.closest('table')) continue;
    if (headingEls.some((outer) => outer.contains(h))) continue;
    if (!visible(h)) continue;
    const text = clean(h.innerText);
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    headings.push({ level: Number(h.tagName.slice(1)), text });
    headingEls.push(h);
  }
  headingEls.forEach((h, i) => { h.textContent = '\u2063H' + i + '\u2063'; });
  tableEls.forEach((t, i) => {
    const mark = document.createElement('div');
    mark.textContent = '\u2063T' + i + '\u2063';
    t.replaceWith(mark);
  });
  // A line of the page's text that starts like a heading line ("# n=5917" in a listing) is
  // escaped, so the scorers read only the page's headings as headings.
  let markdown = body.innerText
    .replace(/^([ \t]*)(#{1,6})(?=[ \t]|$)/gm, '$1\\$2')
    .replace(/\u2063H(\d+)\u2063/g, (_, i) => '\n\n' + '#'.repeat(headings[Number(i)].level) + ' ' + headings[Number(i)].text + '\n\n')
    .replace(/\u2063T(\d+)\u2063/g, (_, i) => '\n\n' + tables[Number(i)] + '\n\n');
  markdown = markdown.split('\n').map((l) => l.replace(/[ \t\u00a0]+$/g, '')).join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
  return { headings, tables, nested, markdown };
})()`;

/**
 * Han, kana and hangul: the bench machine's fonts (DejaVu) have no glyph for them, so Chromium
 * prints them as blank boxes and the PDF holds none of that text.
 */
const UNPRINTED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A sample's pages: those with something to score, no layout tables, no text in a script the
 * machine cannot print (UNPRINTED), and not too long to read.
 */
export function eligible(truth: PageTruth, pages: number, maxPages: number): boolean {
  if (truth.headings.length === 0 && truth.tables.length === 0) return false;
  return truth.nested === 0 && !UNPRINTED.test(truth.markdown) && pages >= 1 && pages <= maxPages;
}

/** `size` names drawn without replacement from `names` (sorted first) by `seed`; answered sorted. */
export function seededSample(names: readonly string[], size: number, seed: number): string[] {
  const pool = [...names].sort();
  const next = mulberry32(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, size).sort();
}
