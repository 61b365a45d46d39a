/**
 * A table with merged cells, written as an HTML `<table>` inside the markdown (as marker does):
 * a pipe table cannot say that a cell spans rows or columns, and repeating the value in every
 * covered cell makes a reader count it once per row (a subtotal summed twice, a group label read
 * as many groups). HTML says it exactly, and is what the benchmark references (and most
 * documents converted for models) use for such tables. See docs/parsing.md "Markdown".
 *
 * Shape: one row per line; the header rows (headerRowCount: the rows of the table's `<thead>`, else
 * its leading rows of `<th>` cells) inside `<thead>` … `</thead>` with every cell a `<th>`, the
 * body rows after it (the implied `<tbody>`) with `<th>`/`<td>` as in the document (a row header
 * stays a `<th>`); a table with no header rows has no `<thead>`, as in the html format;
 * `colspan`/`rowspan` only where > 1
 * (clamped like the pipe writer's: colspan ≤ 1000, rowspan to the table's last row, `rowspan="0"`
 * to the end); each cell's markdown lines joined by `<br>`. Inline markdown stays as in a pipe
 * table's cell (links, emphasis, code), but the backslashes that keep text from reading as
 * markdown syntax go (an HTML block is not read as markdown), outside code spans; then `&`, `<`
 * and `>` are escaped, so the block is one HTML block (no blank line inside it) whose text reads
 * back as written.
 */
import type { MdElement } from './light-dom.ts';

export type CellSpans = (cell: MdElement, row: number, rowCount: number) => [number, number];

/** escape.ts's backslash escapes, and the code spans they never touch. */
const TEXT_ESCAPE = /\\([\\*`[\]~<_])/g;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;

function unescapeMarkdown(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(CODE_SPAN)) {
    const at = m.index ?? 0;
    out += text.slice(last, at).replace(TEXT_ESCAPE, '$1') + m[0];
    last = at + m[0].length;
  }
  return out + text.slice(last).replace(TEXT_ESCAPE, '$1');
}

function escapeText(text: string): string {
  return unescapeMarkdown(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(name: string, value: number): string {
  return value > 1 ? ` ${name}="${value}"` : '';
}

/**
 * Whether a table needs the HTML form: some cell spans rows, or spans some but not all columns.
 * A cell at the head of its row spanning the table's whole width (a banner or section row, an
 * infobox's logo) says nothing a pipe table cannot: it is written once in the first column.
 */
export function hasMergedCells(rows: MdElement[][], spans: CellSpans): boolean {
  // Without rowspans a cell's column is the sum of the colspans before it in its row.
  const leading: number[] = [];
  let width = 0;
  for (let r = 0; r < rows.length; r++) {
    let c = 0;
    for (const cell of rows[r] as MdElement[]) {
      const [colspan, rowspan] = spans(cell, r, rows.length);
      if (rowspan > 1) return true;
      if (colspan > 1) {
        if (c > 0) return true;
        leading.push(colspan);
      }
      c += colspan;
    }
    width = Math.max(width, c);
  }
  return leading.some((colspan) => colspan < width);
}

/**
 * The header rows the table's structure names: `headRows` (the rows its `<thead>` holds) when it
 * has a `<thead>`, else its leading rows whose cells are all `<th>` (a table written without
 * sections, as many web pages do) with the rows their cells span, but not every row: a table
 * of header cells only is a grid of labels, not a head over nothing.
 */
export function headerRowCount(rows: MdElement[][], headRows: number, spans: CellSpans): number {
  if (headRows > 0) return Math.min(headRows, rows.length);
  let count = 0;
  while (count < rows.length && (rows[count] as MdElement[]).length > 0 && (rows[count] as MdElement[]).every((c) => c.nodeName === 'TH')) count++;
  // A head cell spanning rows takes them into the head (a two-level head: "Result" over "Seats").
  let end = count;
  for (let r = 0; r < count; r++) {
    for (const cell of rows[r] as MdElement[]) end = Math.max(end, r + spans(cell, r, rows.length)[1]);
  }
  return end < rows.length ? end : 0;
}

/**
 * The table as HTML lines (see the file comment); `lines` gives a cell's markdown lines,
 * `headRows` how many of `rows` came from the table's `<thead>`.
 */
export function spanTableHtml(rows: MdElement[][], lines: (cell: MdElement) => string[], spans: CellSpans, headRows = 0): string {
  const out = ['<table>'];
  const header = headerRowCount(rows, headRows, spans);
  rows.forEach((cells, r) => {
    if (r === 0 && header > 0) out.push('<thead>');
    if (r === header && header > 0) out.push('</thead>');
    const parts = cells.map((cell) => {
      const tag = r < header || cell.nodeName === 'TH' ? 'th' : 'td';
      const [colspan, rowspan] = spans(cell, r, rows.length);
      const content = lines(cell).map(escapeText).join('<br>');
      return `<${tag}${attr('colspan', colspan)}${attr('rowspan', rowspan)}>${content}</${tag}>`;
    });
    out.push(`<tr>${parts.join('')}</tr>`);
  });
  if (header === rows.length && header > 0) out.push('</thead>');
  out.push('</table>');
  return out.join('\n');
}
