/**
 * The spreadsheet reader (XLSX, XLSM, XLS BIFF2–8, and the HTML / SpreadsheetML 2003 files Excel
 * saves as .xls): each sheet becomes `<h2>name</h2>` followed by a `<table>` of the values as
 * displayed. Hidden sheets are kept and marked; a workbook-wide cell limit bounds the output.
 */
import type * as XLSX from 'xlsx';
import { documentFromHtml, escapeHtml, type Progress, type ReadInput, type ReadResult } from '../../document.ts';
import { scanSheet } from './grid.ts';
import { loadWorkbook } from './load.ts';
import { workbookMetadata } from './metadata.ts';
import { renderTable } from './table.ts';

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

/** The workbook's sheets as headings and tables, within the cell limit. */
export function workbookToHtml(workbook: XLSX.WorkBook, limits: WorkbookLimits): WorkbookHtml {
  const warnings: string[] = [];
  const parts: string[] = [];
  const hidden = hiddenSheetNames(workbook);
  const cellLimitText = `${limits.cellLimit.toLocaleString('en-US')} cells`;
  const textLimitText = `${limits.textLimit.toLocaleString('en-US')} characters of cell text`;
  const total = workbook.SheetNames.length;
  let cells = limits.cellLimit;
  let chars = limits.textLimit;

  workbook.SheetNames.forEach((name, index) => {
    limits.signal.throwIfAborted();
    const isHidden = hidden.has(name);
    parts.push(`<h2>${escapeHtml(name)}${isHidden ? ' (hidden)' : ''}</h2>`);
    const sheet = workbook.Sheets[name];
    const grid = sheet ? scanSheet(sheet, limits.cellLimit) : undefined;
    if (grid?.box) {
      const { r0, r1, c0, c1 } = grid.box;
      const rows = r1 - r0 + 1;
      const width = c1 - c0 + 1;
      const byCells = Math.floor(cells / width);
      const byText = grid.rowsWithinText(chars);
      const keep = Math.min(rows, byCells, byText);
      const reason = byText < Math.min(rows, byCells) ? textLimitText : cellLimitText;
      if (keep === 0) {
        warnings.push(`Sheet ${quoted(name)} was left out: the workbook reached the limit of ${reason} before it.`);
      } else {
        parts.push(renderTable(grid.cut(keep)));
        cells -= keep * width;
        chars -= grid.textLength(keep);
        if (keep < rows || grid.truncated) {
          const kept = `${keep.toLocaleString('en-US')} ${keep === 1 ? 'row' : 'rows'}`;
          warnings.push(`Sheet ${quoted(name)} was cut after ${kept}: the workbook reached the limit of ${reason}.`);
        }
      }
    }
    limits.onProgress?.({ done: index + 1, total, unit: 'sheet' });
  });

  if (hidden.size > 0) {
    const names = workbook.SheetNames.filter((n) => hidden.has(n)).map(quoted).join(', ');
    warnings.push(`The workbook has hidden sheets, included and marked "(hidden)": ${names}.`);
  }
  return { html: parts.join('\n'), warnings };
}

export async function readSpreadsheet(input: ReadInput): Promise<ReadResult> {
  input.signal.throwIfAborted();
  const loaded = loadWorkbook(input.bytes, input.format, MAX_WORKBOOK_CELLS);
  const workbook = loaded.workbook;
  const { html, warnings } = workbookToHtml(workbook, {
    cellLimit: MAX_WORKBOOK_CELLS,
    textLimit: MAX_WORKBOOK_TEXT,
    signal: input.signal,
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  });
  const metadata = workbookMetadata(workbook.Props);
  const document = documentFromHtml(html, metadata.language);
  return {
    document,
    metadata,
    warnings: [...loaded.warnings, ...warnings],
    rawHtml: `<!DOCTYPE html>${document.documentElement.outerHTML}`,
  };
}
