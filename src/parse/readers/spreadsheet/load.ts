/**
 * Opening a workbook with SheetJS. Cells come back with their displayed text (`w`: the number
 * format applied) and formulas as their cached values; styles and VBA are not kept, formulas only
 * long enough to count those saved without a result.
 * The codepage tables are loaded so that BIFF5/BIFF8 strings in legacy codepages decode.
 */
import zlib from 'node:zlib';
import * as XLSX from 'xlsx';
import * as cpexcel from 'xlsx/dist/cpexcel.full.mjs';
import { ServiceError } from '../../../errors.ts';
import { decodeHtml } from '../html/decode.ts';

// The ESM build exports the tables and `utils` side by side; SheetJS wants the namespace.
XLSX.set_cptable(cpexcel);

// SheetJS's own pure-JS inflate can spin forever on damaged deflate data (found by the fuzz
// test: a few flipped bytes in an .xlsx). Node's zlib stops at the damage and throws instead.
// SheetJS reads `bytesRead`, a deprecated alias of `bytesWritten` that warns on first use; the
// subclass answers it with the current property, so no DeprecationWarning reaches a CLI user.
class InflateRaw extends zlib.InflateRaw {
  override get bytesRead(): number {
    return this.bytesWritten;
  }
}
XLSX.CFB.utils.use_zlib({ ...zlib, InflateRaw });

/** The read options: displayed values, number formats kept, nothing else. */
export function readOptions(maxRows: number): XLSX.ParsingOptions {
  return {
    type: 'buffer',
    cellDates: false,
    cellNF: true,
    cellStyles: false,
    cellHTML: false,
    // Kept only to find formula cells saved without a result (counted, then shown empty).
    cellFormula: true,
    cellText: true,
    bookVBA: false,
    sheetStubs: false,
    dense: true,
    // A sheet can never show more rows than the cell limit allows; reading further only costs memory.
    sheetRows: maxRows,
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === 'string' ? err : '';
}

/**
 * Reads the workbook or throws ENCRYPTED_FILE / CORRUPT_FILE; never another exception.
 * `format` is detect()'s: an HTML table saved as .xls is decoded the way the HTML reader decodes
 * pages (BOM, `<meta charset>`, UTF-8, else Windows-1252), which SheetJS does not do by itself.
 */
export interface LoadedWorkbook {
  workbook: XLSX.WorkBook;
  warnings: string[];
  /** Formula cells with no cached value: shown empty, and named in one warning. */
  formulasWithoutValue: number;
}

function countFormulasWithoutValue(workbook: XLSX.WorkBook): number {
  let count = 0;
  for (const name of workbook.SheetNames) {
    const data: unknown = workbook.Sheets[name]?.['!data'];
    if (!Array.isArray(data)) continue;
    for (const row of data as unknown[]) {
      if (!Array.isArray(row)) continue;
      for (const cell of row as unknown[]) {
        const c = cell as XLSX.CellObject | undefined;
        if (c && typeof c.f === 'string' && (c.v === undefined || c.t === 'z')) count++;
      }
    }
  }
  return count;
}

export function loadWorkbook(bytes: Buffer, format: string, maxRows: number): LoadedWorkbook {
  let workbook: XLSX.WorkBook;
  const warnings: string[] = [];
  try {
    if (format === 'html') {
      const decoded = decodeHtml(bytes);
      warnings.push(...decoded.warnings);
      workbook = XLSX.read(decoded.text, { ...readOptions(maxRows), type: 'string' });
    } else {
      workbook = XLSX.read(bytes, readOptions(maxRows));
    }
  } catch (err) {
    if (/password|encrypt/i.test(messageOf(err))) {
      throw new ServiceError(
        'ENCRYPTED_FILE',
        'The workbook is password-protected. Remove the password (in Excel: File › Info › Protect Workbook) and upload it again.',
        { cause: err },
      );
    }
    throw new ServiceError(
      'CORRUPT_FILE',
      'The workbook could not be read: it is damaged, truncated or not a spreadsheet format folio understands. Open and re-save it in a spreadsheet program, then upload it again.',
      { cause: err },
    );
  }
  if (!Array.isArray(workbook.SheetNames) || workbook.SheetNames.length === 0) {
    throw new ServiceError('CORRUPT_FILE', 'The workbook has no sheets. Open and re-save it in a spreadsheet program, then upload it again.');
  }
  return { workbook, warnings, formulasWithoutValue: countFormulasWithoutValue(workbook) };
}
