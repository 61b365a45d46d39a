/**
 * A sheet as a grid of displayed cell texts, trimmed to the cells that hold something.
 *
 * The used range a file declares (`!ref`) can be far larger than its data (formatting applied
 * to whole columns), so the grid's box is computed from the non-empty cells themselves. Merged
 * ranges are kept when their top-left cell lies in the box, clipped to it.
 */
import * as XLSX from 'xlsx';

export interface GridCell {
  /** The value as Excel displays it (number format applied), trimmed. */
  text: string;
  /** An external hyperlink on the cell, when it has one. */
  href?: string;
}

/** Inclusive 0-based bounds. */
export interface Box {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

export interface Merge {
  /** Grid coordinates (relative to the box) of the top-left cell. */
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

export interface SheetGrid {
  /** The box of the non-empty cells, in sheet coordinates; undefined for an empty sheet. */
  box?: Box;
  /** SheetJS stopped reading the sheet at the row limit while it still had data. */
  truncated: boolean;
}

export interface Located {
  r: number;
  c: number;
  cell: GridCell;
}

/** Link schemes worth keeping; internal (`#Sheet!A1`) and local-file targets are dropped. */
export const LINK_SCHEME = /^(https?|mailto|ftp|tel):/i;

function isCellObject(value: unknown): value is XLSX.CellObject {
  return typeof value === 'object' && value !== null && typeof (value as { t?: unknown }).t === 'string';
}

function displayed(cell: XLSX.CellObject): string {
  let text: string;
  if (typeof cell.w === 'string') text = cell.w;
  else {
    try {
      text = XLSX.utils.format_cell(cell);
    } catch {
      text = cell.v === undefined || cell.v === null ? '' : String(cell.v);
    }
  }
  return text.replace(/\r\n?/g, '\n').trim();
}

function gridCell(cell: XLSX.CellObject): GridCell | undefined {
  const text = displayed(cell);
  // A formula saved without its result is kept as an empty cell: it belongs to its table.
  if (text === '') return typeof cell.f === 'string' && cell.v === undefined ? { text } : undefined;
  const target = cell.l?.Target;
  if (typeof target === 'string' && LINK_SCHEME.test(target.trim())) return { text, href: target.trim() };
  return { text };
}

/** Every non-empty cell of the sheet, dense or sparse, in no particular order. */
function nonEmptyCells(sheet: XLSX.WorkSheet): Located[] {
  const out: Located[] = [];
  const data: unknown = sheet['!data'];
  if (Array.isArray(data)) {
    data.forEach((row: unknown, r: number) => {
      if (!Array.isArray(row)) return;
      row.forEach((value: unknown, c: number) => {
        if (!isCellObject(value)) return;
        const cell = gridCell(value);
        if (cell) out.push({ r, c, cell });
      });
    });
    return out;
  }
  for (const key of Object.keys(sheet)) {
    if (key.startsWith('!')) continue;
    const value: unknown = sheet[key];
    if (!isCellObject(value)) continue;
    const cell = gridCell(value);
    if (!cell) continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    out.push({ r, c, cell });
  }
  return out;
}

/** The last row the file declares, when SheetJS stopped reading early (`sheetRows`). */
function declaredLastRow(sheet: XLSX.WorkSheet): number | undefined {
  const full: unknown = sheet['!fullref'];
  if (typeof full !== 'string') return undefined;
  try {
    return XLSX.utils.decode_range(full).e.r;
  } catch {
    return undefined;
  }
}

export interface ScannedSheet {
  /** How many leading rows of the box fit in `maxChars` characters of cell text. */
  rowsWithinText(maxChars: number): number;
  /** Characters of cell text in the first `rows` rows of the box. */
  textLength(rows: number): number;
  cut(maxRows: number): CutGrid;
  /**
   * Rows of the box in the sheet when more than the scan kept (a streamed sheet stops keeping
   * cells at the workbook's limit but counts on): the cut is reported as "of N rows".
   */
  totalRows?: number;
  /** Which of the workbook's limits made a streamed sheet stop keeping cells. */
  stoppedBy?: 'cells' | 'text';
}

export interface CutGrid {
  rows: (GridCell | undefined)[][];
  merges: Merge[];
}

/**
 * Scans a sheet read with `sheetRows: rowsRead`. `cut(maxRows)` then materialises at most that
 * many rows of the box, so the memory used is bounded by the cell budget, not by the sheet.
 */
export function scanSheet(sheet: XLSX.WorkSheet, rowsRead: number): SheetGrid & ScannedSheet {
  const cells = nonEmptyCells(sheet);
  const merges: XLSX.Range[] = Array.isArray(sheet['!merges']) ? sheet['!merges'] : [];
  const lastDeclared = declaredLastRow(sheet) ?? -1;
  return gridFromCells(cells, merges, (box) => box.r1 >= rowsRead - 1 && lastDeclared > box.r1);
}

/**
 * The grid of a sheet's non-empty cells and merged ranges. `truncated(box)` says whether the
 * sheet had data past what was read (SheetJS's `sheetRows`).
 */
export function gridFromCells(cells: readonly Located[], merges: readonly XLSX.Range[], truncated: (box: Box) => boolean): SheetGrid & ScannedSheet {
  if (cells.length === 0) {
    return { truncated: false, rowsWithinText: () => 0, textLength: () => 0, cut: () => ({ rows: [], merges: [] }) };
  }
  const box: Box = { r0: Infinity, c0: Infinity, r1: -1, c1: -1 };
  for (const { r, c } of cells) {
    if (r < box.r0) box.r0 = r;
    if (r > box.r1) box.r1 = r;
    if (c < box.c0) box.c0 = c;
    if (c > box.c1) box.c1 = c;
  }
  const rowText = new Float64Array(box.r1 - box.r0 + 1);
  for (const { r, cell } of cells) rowText[r - box.r0] = (rowText[r - box.r0] ?? 0) + cell.text.length;
  const rowsWithinText = (maxChars: number): number => {
    let sum = 0;
    for (let i = 0; i < rowText.length; i++) {
      sum += rowText[i] ?? 0;
      if (sum > maxChars) return i;
    }
    return rowText.length;
  };
  const textLength = (rows: number): number => {
    let sum = 0;
    for (let i = 0; i < Math.min(rows, rowText.length); i++) sum += rowText[i] ?? 0;
    return sum;
  };

  const cut = (maxRows: number): CutGrid => {
    const rowCount = Math.max(0, Math.min(maxRows, box.r1 - box.r0 + 1));
    const width = box.c1 - box.c0 + 1;
    const rows: (GridCell | undefined)[][] = Array.from({ length: rowCount }, () => new Array<GridCell | undefined>(width));
    for (const { r, c, cell } of cells) {
      const row = rows[r - box.r0];
      if (row) row[c - box.c0] = cell;
    }
    return { rows, merges: clipMerges(merges, box, rowCount) };
  };
  return { box, truncated: truncated(box), rowsWithinText, textLength, cut };
}

/** Merges whose top-left cell is inside the kept box, clipped to it; overlaps: first wins. */
function clipMerges(merges: readonly XLSX.Range[], box: Box, rowCount: number): Merge[] {
  const lastRow = box.r0 + rowCount - 1;
  const taken = new Set<number>();
  const width = box.c1 - box.c0 + 1;
  const out: Merge[] = [];
  for (const m of merges) {
    const s = m.s;
    const e = m.e;
    if (s.r < box.r0 || s.r > lastRow || s.c < box.c0 || s.c > box.c1) continue;
    const r1 = Math.min(e.r, lastRow);
    const c1 = Math.min(e.c, box.c1);
    if (r1 < s.r || c1 < s.c || (r1 === s.r && c1 === s.c)) continue;
    const keys: number[] = [];
    let overlaps = false;
    for (let r = s.r; r <= r1 && !overlaps; r++) {
      for (let c = s.c; c <= c1; c++) {
        const key = (r - box.r0) * width + (c - box.c0);
        if (taken.has(key)) {
          overlaps = true;
          break;
        }
        keys.push(key);
      }
    }
    if (overlaps) continue;
    for (const key of keys) taken.add(key);
    out.push({ row: s.r - box.r0, col: s.c - box.c0, rowspan: r1 - s.r + 1, colspan: c1 - s.c + 1 });
  }
  return out;
}
