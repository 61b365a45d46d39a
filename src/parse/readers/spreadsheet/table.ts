/**
 * A sheet's cut grid as HTML: its tables (regions.ts parts them), each an HTML table: the first row (and any rows its merged cells reach down into)
 * is the `thead`; merged ranges become colspan/rowspan on their top-left cell and the cells
 * they cover are omitted.
 */
import { escapeHtml } from '../../document.ts';
import type { CutGrid, GridCell, Merge } from './grid.ts';
import { sheetBlocks } from './regions.ts';

function cellContent(cell: GridCell | undefined): string {
  if (!cell) return '';
  const text = cell.text.split('\n').map(escapeHtml).join('<br>');
  return cell.href ? `<a href="${escapeHtml(cell.href)}">${text}</a>` : text;
}

/** Rows in the header: the first, extended while a header cell spans further down. */
function headerRowCount(merges: Merge[], rowCount: number): number {
  let count = 1;
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of merges) {
      const end = m.row + m.rowspan;
      if (m.row < count && end > count) {
        count = end;
        changed = true;
      }
    }
  }
  return Math.min(count, rowCount);
}

export function renderTable(grid: CutGrid): string {
  const { rows, merges } = grid;
  if (rows.length === 0) return '';
  const width = rows[0]?.length ?? 0;
  const spans = new Map<number, Merge>();
  const covered = new Set<number>();
  for (const m of merges) {
    spans.set(m.row * width + m.col, m);
    for (let r = m.row; r < m.row + m.rowspan; r++) {
      for (let c = m.col; c < m.col + m.colspan; c++) {
        if (r !== m.row || c !== m.col) covered.add(r * width + c);
      }
    }
  }
  const headerRows = headerRowCount(merges, rows.length);

  const out: string[] = ['<table>'];
  rows.forEach((row, r) => {
    if (r === 0) out.push('<thead>');
    if (r === headerRows) out.push('<tbody>');
    const tag = r < headerRows ? 'th' : 'td';
    out.push('<tr>');
    for (let c = 0; c < width; c++) {
      const key = r * width + c;
      if (covered.has(key)) continue;
      const span = spans.get(key);
      let attrs = '';
      if (span && span.colspan > 1) attrs += ` colspan="${span.colspan}"`;
      if (span && span.rowspan > 1) attrs += ` rowspan="${span.rowspan}"`;
      out.push(`<${tag}${attrs}>${cellContent(row[c])}</${tag}>`);
    }
    out.push('</tr>');
    if (r === headerRows - 1) out.push('</thead>');
  });
  if (rows.length > headerRows) out.push('</tbody>');
  out.push('</table>');
  return out.join('');
}

/** A sheet's cut grid as its tables, their titles and stray cells as paragraphs, in reading order. */
export function renderSheet(grid: CutGrid): string {
  return sheetBlocks(grid)
    .map((b) => {
      if (b.kind === 'paragraph') return `<p>${cellContent(b.cell)}</p>`;
      return `${b.title ? `<p>${cellContent(b.title)}</p>` : ''}${renderTable(b.grid)}`;
    })
    .join('\n');
}
