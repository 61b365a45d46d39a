/**
 * One .xlsx worksheet read row by row from its inflating part (ECMA-376 Part 1 §18.3.1.73 row,
 * §18.3.1.4 c): the XML is never held whole, only the rows not yet complete in the current
 * inflated piece. Cells are kept while the workbook's remaining budget (cells of the growing box,
 * characters of text) allows; past it the rest of `sheetData` is only scanned, to count how many
 * rows the sheet goes on for and to reach the merged ranges and hyperlinks that follow it.
 */
import * as XLSX from 'xlsx';
import { ServiceError } from '../../../errors.ts';
import type { GuardedZip } from '../zip-guard.ts';
import { gridFromCells, LINK_SCHEME, type GridCell, type Located, type ScannedSheet, type SheetGrid } from './grid.ts';
import { relationships } from './xlsx-parts.ts';
import type { XlsxWorkbook } from './xlsx-parts.ts';
import { attr, decodeText, firstElement, startTags, stringItemText } from './xlsx-xml.ts';

export interface SheetBudget {
  cells: number;
  chars: number;
}

export interface StreamedSheet {
  grid: SheetGrid & ScannedSheet;
  /** Kept cells that hold a formula but no cached value (shown empty). */
  formulasWithoutValue: number;
}

const ROW = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
const CELL = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
/** `<v/>` is a cached empty value (a text formula that returned ""), not a missing one. */
const VALUE = /<(?:\w+:)?v(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?v>)/;
const FORMULA = /<(?:\w+:)?f\b/;
const HAS_VALUE = /<(?:\w+:)?(?:v|t)[\s>]/;
const SHEET_DATA_END = /<\/(?:\w+:)?sheetData>|<(?:\w+:)?sheetData\b[^>]*\/>/g;
/** The end of a row: `</row>`, or a `<row …/>` with no cells. */
const ROW_CLOSE = /<\/(?:\w+:)?row>|<(?:\w+:)?row\b[^>]*\/>/g;
/** Characters searched again before a new piece, for a closing tag split between two pieces. */
const CLOSE_OVERLAP = 64;
/** Text held waiting for a row to end (or after the rows): a row longer than this is refused. */
export const MAX_PENDING_CHARS = 32 * 1024 * 1024;
/** Hyperlink ranges are expanded cell by cell up to this many cells in all. */
const MAX_LINKED_CELLS = 100_000;
const MS_PER_DAY = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);

/** "BC12" → { r: 11, c: 54 }; undefined for anything else. */
function decodeRef(ref: string): { r: number; c: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref);
  if (!m) return undefined;
  let c = 0;
  for (const ch of (m[1] ?? '').toUpperCase()) c = c * 26 + (ch.charCodeAt(0) - 64);
  return { r: Number(m[2]) - 1, c: c - 1 };
}

function decodeRange(ref: string): XLSX.Range | undefined {
  const [a, b] = ref.split(':');
  const s = decodeRef(a ?? '');
  const e = b === undefined ? s : decodeRef(b);
  if (!s || !e) return undefined;
  return { s: { r: Math.min(s.r, e.r), c: Math.min(s.c, e.c) }, e: { r: Math.max(s.r, e.r), c: Math.max(s.c, e.c) } };
}

function formatNumber(value: number, format: string | number, date1904: boolean): string {
  try {
    const out: unknown = XLSX.SSF.format(format, value, { date1904 });
    return typeof out === 'string' ? out : String(value);
  } catch {
    return String(value);
  }
}

/** An ISO 8601 date cell (`t="d"`) as a serial day number, the way SheetJS reads it without cellDates. */
function serialOf(iso: string, date1904: boolean): number | undefined {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
  if (Number.isNaN(ms)) return undefined;
  const serial = (ms - EPOCH_1900) / MS_PER_DAY;
  return date1904 ? serial - 1462 : serial;
}

interface CellValue {
  text: string;
  formulaWithoutValue: boolean;
}

/** The displayed text of one `<c>`: cached values for formulas, number formats applied. */
function cellValue(attrs: string, body: string, book: XlsxWorkbook): CellValue {
  const type = attr(attrs, 't') ?? 'n';
  const valueMatch = VALUE.exec(body);
  const raw = valueMatch ? (valueMatch[1] ?? '') : undefined;
  if (type === 'inlineStr') {
    const is = firstElement(body, 'is');
    return { text: is !== undefined ? stringItemText(is) : decodeText(raw ?? ''), formulaWithoutValue: false };
  }
  if (raw === undefined) return { text: '', formulaWithoutValue: FORMULA.test(body) };
  const v = decodeText(raw);
  const style = Number(attr(attrs, 's') ?? '0');
  const format = book.styleFormats[Number.isInteger(style) ? style : 0] ?? 0;
  let text: string;
  switch (type) {
    case 's':
      text = book.sharedStrings[Number(v)] ?? '';
      break;
    case 'str':
    case 'e':
      text = v;
      break;
    case 'b':
      text = v.trim() === '1' || v.trim().toLowerCase() === 'true' ? 'TRUE' : 'FALSE';
      break;
    case 'd': {
      const serial = serialOf(v.trim(), book.date1904);
      text = serial === undefined ? v : formatNumber(serial, format === 0 ? 14 : format, book.date1904);
      break;
    }
    default: {
      const n = Number(v);
      text = v.trim() === '' || !Number.isFinite(n) ? v : formatNumber(n, format, book.date1904);
    }
  }
  return { text, formulaWithoutValue: false };
}

/** The sheet's external hyperlinks by cell key (row * 16384 + col). */
function hyperlinks(after: string, zip: GuardedZip, path: string): Map<number, string> {
  const links = new Map<number, string>();
  if (!/<(?:\w+:)?hyperlink\b/.test(after)) return links;
  const rels = new Map(relationships(zip, path).map((r) => [r.id, r]));
  for (const attrs of startTags(after, 'hyperlink')) {
    const rel = rels.get(attr(attrs, 'id') ?? '');
    // SheetJS's reading: the relationship's target, plus `#location` when the link names one.
    const location = attr(attrs, 'location');
    const base = rel?.external ? rel.target.trim() : undefined;
    const target = base && location ? `${base}#${location}` : base;
    const range = decodeRange(attr(attrs, 'ref') ?? '');
    if (!target || !LINK_SCHEME.test(target) || !range) continue;
    for (let r = range.s.r; r <= range.e.r && links.size < MAX_LINKED_CELLS; r++) {
      for (let c = range.s.c; c <= range.e.c && links.size < MAX_LINKED_CELLS; c++) links.set(r * 16384 + c, target);
    }
  }
  return links;
}

/** Reads one worksheet part within `budget`. */
export function streamSheet(zip: GuardedZip, path: string, name: string, book: XlsxWorkbook, budget: SheetBudget, signal: AbortSignal): StreamedSheet {
  const decoder = new TextDecoder('utf-8');
  const cells: Located[] = [];
  let buffer = '';
  let inRows = true;
  let keeping = true;
  let row = -1;
  let r0 = -1;
  let rLast = -1;
  let c0 = Infinity;
  let c1 = -1;
  let chars = 0;
  let lastDataRow = -1;
  let formulasWithoutValue = 0;
  let stoppedBy: 'cells' | 'text' | undefined;

  const onRow = (attrs: string, body: string): void => {
    const rAttr = Number(attr(attrs, 'r'));
    row = Number.isInteger(rAttr) && rAttr > 0 ? rAttr - 1 : row + 1;
    if (!keeping) {
      if (HAS_VALUE.test(body)) lastDataRow = Math.max(lastDataRow, row);
      return;
    }
    const found: Located[] = [];
    let rowChars = 0;
    let rowMissing = 0;
    let col = -1;
    let rc0 = c0;
    let rc1 = c1;
    for (const m of body.matchAll(CELL)) {
      const cellAttrs = m[1] ?? '';
      const ref = decodeRef(attr(cellAttrs, 'r') ?? '');
      col = ref ? ref.c : col + 1;
      const body2 = m[2];
      if (body2 === undefined) continue;
      const value = cellValue(cellAttrs, body2, book);
      if (value.formulaWithoutValue) rowMissing++;
      const text = value.text.replace(/\r\n?/g, '\n').trim();
      // A formula saved without its result is a cell all the same (shown empty): a row of them
      // is part of its table, not a gap between two.
      if (text === '' && !value.formulaWithoutValue) continue;
      const cell: GridCell = { text };
      found.push({ r: row, c: col, cell });
      rowChars += text.length;
      if (col < rc0) rc0 = col;
      if (col > rc1) rc1 = col;
    }
    if (found.length === 0) {
      formulasWithoutValue += rowMissing;
      return;
    }
    // The box this row would make (rows are written in order, but need not be): past the
    // budget, this and every later row are only counted.
    const first = r0 < 0 ? row : Math.min(r0, row);
    const last = Math.max(rLast, row);
    const overCells = (last - first + 1) * (rc1 - rc0 + 1) > budget.cells;
    if (overCells || chars + rowChars > budget.chars) {
      keeping = false;
      stoppedBy = overCells ? 'cells' : 'text';
      lastDataRow = Math.max(lastDataRow, row);
      return;
    }
    r0 = first;
    rLast = last;
    c0 = rc0;
    c1 = rc1;
    chars += rowChars;
    lastDataRow = Math.max(lastDataRow, row);
    formulasWithoutValue += rowMissing;
    for (const f of found) cells.push(f);
  };

  const drainRows = (text: string): number => {
    let end = 0;
    ROW.lastIndex = 0;
    for (let m = ROW.exec(text); m; m = ROW.exec(text)) {
      onRow(m[1] ?? '', m[2] ?? '');
      end = ROW.lastIndex;
    }
    return end;
  };

  // Only text that arrived with this piece can close a row or the sheet data, so only the probe
  // (the piece, and the end of the one before for a tag split between them) is searched for a
  // close: an unclosed row is neither rescanned nor flattened (copied) on every piece.
  let tail = '';
  const take = (piece: string): boolean => {
    const probe = tail + piece;
    tail = probe.slice(-CLOSE_OVERLAP);
    buffer += piece;
    if (!inRows) return buffer.length <= MAX_PENDING_CHARS;
    SHEET_DATA_END.lastIndex = 0;
    const stop = SHEET_DATA_END.exec(probe);
    if (stop) {
      const at = Math.max(0, buffer.length - probe.length + stop.index);
      drainRows(buffer.slice(0, at));
      buffer = buffer.slice(at);
      inRows = false;
      return true;
    }
    ROW_CLOSE.lastIndex = 0;
    if (ROW_CLOSE.test(probe)) {
      const end = drainRows(buffer);
      if (end > 0) buffer = buffer.slice(end);
    }
    if (buffer.length > MAX_PENDING_CHARS) {
      throw new ServiceError(
        'CORRUPT_FILE',
        `The workbook could not be read: a row of sheet '${name.slice(0, 80)}' runs on for more than ${MAX_PENDING_CHARS.toLocaleString('en-US')} characters without ending. Open and re-save it in a spreadsheet program, then upload it again.`,
      );
    }
    return true;
  };

  // Past the rows, reading stops once what follows them (merges, hyperlinks, formatting rules)
  // outgrows MAX_PENDING_CHARS; the merges and links in what was read are kept.
  zip.inflateChunks(path, (chunk) => {
    signal.throwIfAborted();
    return take(decoder.decode(chunk, { stream: true }));
  });
  take(decoder.decode());
  if (inRows) drainRows(buffer);

  const after = inRows ? '' : buffer;
  const merges: XLSX.Range[] = [];
  for (const attrs of startTags(firstElement(after, 'mergeCells') ?? '', 'mergeCell')) {
    const range = decodeRange(attr(attrs, 'ref') ?? '');
    if (range) merges.push(range);
  }
  const links = hyperlinks(after, zip, path);
  if (links.size > 0) {
    for (const { r, c, cell } of cells) {
      const href = links.get(r * 16384 + c);
      if (href) cell.href = href;
    }
  }
  const grid = gridFromCells(cells, merges, () => false);
  if (grid.box && lastDataRow > rLast) grid.totalRows = lastDataRow - grid.box.r0 + 1;
  else if (!grid.box && lastDataRow >= 0) grid.totalRows = lastDataRow + 1;
  if (stoppedBy) grid.stoppedBy = stoppedBy;
  return { grid, formulasWithoutValue };
}
