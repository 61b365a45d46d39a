/**
 * A found table as the intermediate document's table (DESIGN.md vocabulary): header rows in
 * `<thead>` as `<th>`, the rest in `<tbody>`, spans as `colspan` / `rowspan`, text escaped.
 */
import { escapeHtml } from '../../../document.ts';
import type { PdfTable, PdfTableCell } from './index.ts';

function cellHtml(cell: PdfTableCell): string {
  const tag = cell.header ? 'th' : 'td';
  const spans = `${cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}${cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}`;
  return `<${tag}${spans}>${escapeHtml(cell.text)}</${tag}>`;
}

export function tableHtml(table: PdfTable): string {
  const byRow: PdfTableCell[][] = Array.from({ length: table.rows }, () => []);
  for (const cell of table.cells) byRow[cell.row]?.push(cell);
  for (const row of byRow) row.sort((a, b) => a.col - b.col);
  // Header rows: the leading rows whose cells are all header cells.
  let headerRows = 0;
  while (headerRows < table.rows && (byRow[headerRows] ?? []).every((c) => c.header)) headerRows++;
  const rowHtml = (cells: PdfTableCell[]): string => `<tr>${cells.map(cellHtml).join('')}</tr>`;
  const head = byRow.slice(0, headerRows).map(rowHtml).join('');
  const body = byRow.slice(headerRows).map(rowHtml).join('');
  return `<table>${head ? `<thead>${head}</thead>` : ''}${body ? `<tbody>${body}</tbody>` : ''}</table>`;
}
