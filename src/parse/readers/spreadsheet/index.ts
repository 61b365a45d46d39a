/**
 * The spreadsheet reader (XLSX, XLSM, XLS BIFF2–8, and the HTML / SpreadsheetML 2003 files Excel
 * saves as .xls): each sheet becomes `<h2>name</h2>` followed by a `<table>` of the values as
 * displayed. Hidden sheets are kept and marked; a workbook-wide cell limit bounds the output.
 */
import type * as XLSX from 'xlsx';
import { documentFromHtml, escapeHtml, type Progress, type ReadInput, type ReadResult } from '../../document.ts';
import { scanSheet, type ScannedSheet, type SheetGrid } from './grid.ts';
import { loadWorkbook } from './load.ts';
import { workbookMetadata } from './metadata.ts';
import { renderSheet } from './table.ts';
import { openXlsxPackage, streamWorkbook } from './xlsx-stream.ts';
import type { SheetBudget } from './xlsx-sheet-stream.ts';

/**
 * Cells (rows × columns of each sheet's trimmed box, empty ones included) one workbook may put
 * in the document. Measured: linkedom needs ~7 s and ~1 GB of heap for a 1,000,000-cell table,
 * about a quarter of that at this limit.
 */
export const MAX_WORKBOOK_CELLS = 250_000;

/**
 * Characters of cell text one workbook may put in the document. Shared strings make text cheap
 * to store: an 870 KB corpus workbook (sheetjs-large_strings.xlsx) holds 58 MB of cell text.
 */
export const MAX_WORKBOOK_TEXT = 10_000_000;

export interface WorkbookLimits {
  cellLimit: number;
  textLimit: number;
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

export interface WorkbookHtml {
  html: string;
  warnings: string[];
}

function quoted(name: string): string {
  return `'${name}'`;
}

function hiddenSheetNames(workbook: XLSX.WorkBook): Set<string> {
  const hidden = new Set<string>();
  const sheets = workbook.Workbook?.Sheets ?? [];
  sheets.forEach((entry, i) => {
    if (!entry?.Hidden) return;
    const name = typeof entry.name === 'string' ? entry.name : workbook.SheetNames[i];
    if (name !== undefined) hidden.add(name);
  });
  return hidden;
}

/** One sheet, read on demand within what the workbook has left of its limits. */
export interface SheetSource {
  name: string;
  hidden: boolean;
  read(budget: SheetBudget): (SheetGrid & ScannedSheet) | undefined;
}

function count(n: number, unit: string): string {
  return `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;
}

/** The sheets as headings and tables, within the workbook's cell and text limits. */
export function sheetsToHtml(sheets: readonly SheetSource[], limits: WorkbookLimits): WorkbookHtml {
  const warnings: string[] = [];
  const parts: string[] = [];
  const cellLimitText = `${limits.cellLimit.toLocaleString('en-US')} cells`;
  const textLimitText = `${limits.textLimit.toLocaleString('en-US')} characters of cell text`;
  const total = sheets.length;
  let cells = limits.cellLimit;
  let chars = limits.textLimit;

  sheets.forEach((source, index) => {
    limits.signal.throwIfAborted();
    const name = source.name;
    parts.push(`<h2>${escapeHtml(name)}${source.hidden ? ' (hidden)' : ''}</h2>`);
    const grid = source.read({ cells, chars });
    if (grid?.box) {
      const { r0, r1, c0, c1 } = grid.box;
      const rows = r1 - r0 + 1;
      const width = c1 - c0 + 1;
      const byCells = Math.floor(cells / width);
      const byText = grid.rowsWithinText(chars);
      const keep = Math.min(rows, byCells, byText);
      const totalRows = Math.max(rows, grid.totalRows ?? 0);
      const byTextFirst = keep === rows && grid.stoppedBy ? grid.stoppedBy === 'text' : byText < Math.min(rows, byCells);
      const reason = byTextFirst ? textLimitText : cellLimitText;
      if (keep === 0) {
        warnings.push(`Sheet ${quoted(name)} was left out: the workbook reached the limit of ${reason} before it.`);
      } else {
        parts.push(renderSheet(grid.cut(keep)));
        cells -= keep * width;
        chars -= grid.textLength(keep);
        if (keep < totalRows) {
          const of = `${keep.toLocaleString('en-US')} of ${count(totalRows, 'row')} (${(keep * width).toLocaleString('en-US')} of ${count(totalRows * width, 'cell')})`;
          warnings.push(`Sheet ${quoted(name)} was cut after ${of}: the workbook reached the limit of ${reason}.`);
        } else if (grid.truncated) {
          warnings.push(`Sheet ${quoted(name)} was cut after ${count(keep, 'row')}: the workbook reached the limit of ${reason}.`);
        }
      }
    } else if (grid?.totalRows) {
      const reason = grid.stoppedBy === 'text' ? textLimitText : cellLimitText;
      warnings.push(`Sheet ${quoted(name)} was left out: the workbook reached the limit of ${reason} before it.`);
    }
    limits.onProgress?.({ done: index + 1, total, unit: 'sheet' });
  });

  const hidden = sheets.filter((s) => s.hidden);
  if (hidden.length > 0) {
    warnings.push(`The workbook has hidden sheets, included and marked "(hidden)": ${hidden.map((s) => quoted(s.name)).join(', ')}.`);
  }
  return { html: parts.join('\n'), warnings };
}

/** The sheets of a workbook SheetJS has read. */
export function workbookSheets(workbook: XLSX.WorkBook, rowsRead: number): SheetSource[] {
  const hidden = hiddenSheetNames(workbook);
  return workbook.SheetNames.map((name) => ({
    name,
    hidden: hidden.has(name),
    read: () => {
      const sheet = workbook.Sheets[name];
      return sheet ? scanSheet(sheet, rowsRead) : undefined;
    },
  }));
}

/** The workbook's sheets as headings and tables, within the cell limit. */
export function workbookToHtml(workbook: XLSX.WorkBook, limits: WorkbookLimits): WorkbookHtml {
  return sheetsToHtml(workbookSheets(workbook, limits.cellLimit), limits);
}

/** The warning for formula cells saved without their results. */
export function formulaWarning(count: number): string | undefined {
  if (count === 0) return undefined;
  const cells = count === 1 ? '1 formula cell has' : `${count.toLocaleString('en-US')} formula cells have`;
  return `${cells} no saved result and ${count === 1 ? 'is' : 'are'} shown empty: the file was saved without calculating ${count === 1 ? 'it' : 'them'} (open it in a spreadsheet program, recalculate and save to fill ${count === 1 ? 'it' : 'them'} in).`;
}

function result(html: string, props: XLSX.FullProperties | undefined, warnings: string[]): ReadResult {
  const metadata = workbookMetadata(props);
  const document = documentFromHtml(html, metadata.language);
  return { document, metadata, warnings, rawHtml: `<!DOCTYPE html>${document.documentElement.outerHTML}` };
}

export async function readSpreadsheet(input: ReadInput): Promise<ReadResult> {
  input.signal.throwIfAborted();
  const limits: WorkbookLimits = {
    cellLimit: MAX_WORKBOOK_CELLS,
    textLimit: MAX_WORKBOOK_TEXT,
    signal: input.signal,
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  };
  // An .xlsx package is read row by row, within the limits; .xlsb, .xls and the rest by SheetJS.
  const zip = input.format === 'xlsx' ? openXlsxPackage(input.bytes, input.limits) : undefined;
  if (zip) {
    const streamed = streamWorkbook(zip, input.signal);
    const { html, warnings } = sheetsToHtml(streamed.sheets, limits);
    const missing = formulaWarning(streamed.formulasWithoutValue());
    return result(html, streamed.book.props, missing ? [...warnings, missing] : warnings);
  }
  const loaded = loadWorkbook(input.bytes, input.format, MAX_WORKBOOK_CELLS);
  const { html, warnings } = sheetsToHtml(workbookSheets(loaded.workbook, MAX_WORKBOOK_CELLS), limits);
  const missing = formulaWarning(loaded.formulasWithoutValue);
  return result(html, loaded.workbook.Props, [...loaded.warnings, ...warnings, ...(missing ? [missing] : [])]);
}
