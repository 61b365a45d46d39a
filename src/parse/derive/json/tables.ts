/**
 * The intermediate document's tables as grids of cell texts (colspan and rowspan expanded, so a
 * column index means the same column in every row), split into header rows and body rows.
 */
import { toNumber } from './coerce.ts';

export interface Grid {
  /** Header rows: thead rows, leading rows of th cells, or a first row of labels. */
  head: string[][];
  body: string[][];
  width: number;
  /** Which section of the document (headings counted from 0) the table sits in. */
  section: number;
}

export function cellText(el: Element): string {
  let out = '';
  const stack: Node[] = [el];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) out += node.nodeValue ?? '';
    else if (node.nodeType === 1) {
      if ((node as Element).tagName === 'BR') out += '\n';
      const children = node.childNodes;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
    }
  }
  return out.replace(/[ \t\u00a0]+/g, ' ').replace(/ ?\n ?/g, '\n').trim();
}

function span(el: Element, name: string): number {
  const n = Number.parseInt(el.getAttribute(name) ?? '1', 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 1000) : 1;
}

/** Rows of the table itself, not of tables nested in its cells. */
function ownRows(table: Element): Element[] {
  return [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
}

/** A label row: two or more non-empty cells, none of them a number. */
function looksLikeHeader(row: string[]): boolean {
  const filled = row.filter((c) => c.length > 0);
  return filled.length >= 2 && filled.every((c) => toNumber(c) === undefined && c.length <= 80);
}

export function tableGrid(table: Element, section = 0): Grid {
  const rows: string[][] = [];
  const headFlags: boolean[] = [];
  const pending: (string | undefined)[][] = [];
  ownRows(table).forEach((tr, r) => {
    const row: string[] = [];
    const carried = pending[r] ?? [];
    let col = 0;
    const place = (text: string, colspan: number, rowspan: number): void => {
      for (let k = 0; k < colspan; k++) {
        while (carried[col] !== undefined) {
          row[col] = carried[col] as string;
          col += 1;
        }
        row[col] = text;
        for (let d = 1; d < rowspan; d++) (pending[r + d] ??= [])[col] = text;
        col += 1;
      }
    };
    const cells = [...tr.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
    for (const cell of cells) place(cellText(cell), span(cell, 'colspan'), span(cell, 'rowspan'));
    for (let c = col; c < carried.length; c++) if (carried[c] !== undefined) row[c] = carried[c] as string;
    rows.push(Array.from(row, (v) => v ?? ''));
    headFlags.push(tr.parentElement?.tagName === 'THEAD' || (cells.length > 0 && cells.every((c) => c.tagName === 'TH')));
  });
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  for (const r of rows) while (r.length < width) r.push('');
  let headCount = 0;
  while (headCount < rows.length && headFlags[headCount]) headCount += 1;
  if (headCount === 0 && rows.length > 1 && looksLikeHeader(rows[0] as string[])) headCount = 1;
  return { head: rows.slice(0, headCount), body: rows.slice(headCount), width, section };
}
