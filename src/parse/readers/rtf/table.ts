/**
 * Tables (`\trowd … \cell … \row`): cells are collected as they come and paired with the row's
 * cell definitions (`\cellxN` right boundaries, `\clmgf`/`\clmrg` horizontal and
 * `\clvmgf`/`\clvmrg` vertical merge flags) when the row ends: Word may repeat the definitions
 * after the cells, and the last ones before `\row` win. Merges become colspan/rowspan; a
 * vertical merge continues the cell of the row above with the same right boundary.
 */

export interface CellDef {
  right: number;
  mergeFirst: boolean;
  mergeNext: boolean;
  vmergeFirst: boolean;
  vmergeNext: boolean;
}

export function emptyCellDef(): CellDef {
  return { right: 0, mergeFirst: false, mergeNext: false, vmergeFirst: false, vmergeNext: false };
}

interface Cell {
  html: string;
  colspan: number;
  rowspan: number;
}

export class TableBuilder {
  private readonly rows: Cell[][] = [];
  private readonly vertical = new Map<number, Cell>();

  get rowCount(): number {
    return this.rows.length;
  }

  addRow(cellHtml: readonly string[], defs: readonly CellDef[]): void {
    const row: Cell[] = [];
    const seen = new Set<number>();
    cellHtml.forEach((html, index) => {
      const def = defs[index] ?? emptyCellDef();
      const key = def.right > 0 ? def.right : -(index + 1);
      seen.add(key);
      const previous = row[row.length - 1];
      if (def.mergeNext && previous) {
        previous.colspan++;
        if (html !== '') previous.html = previous.html === '' ? html : `${previous.html}<br>${html}`;
        return;
      }
      const origin = this.vertical.get(key);
      if (def.vmergeNext && origin) {
        origin.rowspan++;
        return;
      }
      const cell: Cell = { html, colspan: 1, rowspan: 1 };
      row.push(cell);
      if (def.vmergeFirst) this.vertical.set(key, cell);
      else this.vertical.delete(key);
    });
    for (const key of this.vertical.keys()) if (!seen.has(key)) this.vertical.delete(key);
    this.rows.push(row);
  }

  /** The table as HTML; the first row is the header row unless a cell of it spans rows. */
  render(): string {
    const out: string[] = ['<table>'];
    const first = this.rows[0];
    const header = first !== undefined && this.rows.length > 1 && first.every((cell) => cell.rowspan === 1);
    this.rows.forEach((row, index) => {
      const isHeader = header && index === 0;
      if (isHeader) out.push('<thead>');
      else if (index === (header ? 1 : 0)) out.push('<tbody>');
      out.push('<tr>');
      const tag = isHeader ? 'th' : 'td';
      for (const cell of row) {
        const spans = `${cell.colspan > 1 ? ` colspan="${cell.colspan}"` : ''}${cell.rowspan > 1 ? ` rowspan="${cell.rowspan}"` : ''}`;
        out.push(`<${tag}${spans}>${cell.html}</${tag}>`);
      }
      out.push('</tr>');
      if (isHeader) out.push('</thead>');
    });
    if (this.rows.length > 0) out.push('</tbody>');
    out.push('</table>');
    return out.join('');
  }
}
