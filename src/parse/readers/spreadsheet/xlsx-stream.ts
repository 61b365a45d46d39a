/**
 * The streaming .xlsx path: the package is opened through the zip guard, the workbook-level
 * parts are read whole (they are small next to the sheets), and each worksheet is read row by
 * row within what the workbook has left of its limits (xlsx-sheet-stream.ts). SheetJS would read
 * every sheet whole first: one million cells took ~2 s and ~320 MB before a single row was cut.
 */
import { ServiceError } from '../../../errors.ts';
import type { SourceLimits } from '../../limits.ts';
import { GuardedZip, packageLimits } from '../zip-guard.ts';
import type { SheetSource } from './index.ts';
import { readXlsxWorkbook, type XlsxWorkbook } from './xlsx-parts.ts';
import { streamSheet } from './xlsx-sheet-stream.ts';

export interface StreamedWorkbook {
  book: XlsxWorkbook;
  sheets: SheetSource[];
  /** Formula cells without a cached value among the sheets read so far. */
  formulasWithoutValue(): number;
}

function corrupt(reason: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The workbook could not be read: ${reason} Open and re-save it in a spreadsheet program, then upload it again.`);
}

/** The guarded package, when the bytes are an XML workbook package (not .xlsb); throws CORRUPT_FILE for a bad zip. */
export function openXlsxPackage(bytes: Uint8Array, limits?: Partial<SourceLimits>): GuardedZip | undefined {
  // Not a zip (an encrypted workbook is an OLE container): SheetJS words that error.
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) return undefined;
  const zip = new GuardedZip(bytes, corrupt, packageLimits(limits));
  const hasXmlWorkbook = zip.names.some((n) => /(^|\/)workbook\.xml$/.test(n));
  if (hasXmlWorkbook) return zip;
  // An .xlsb goes to SheetJS, whose inflater trusts the headers: every part is inflated through
  // the bounds first (counted, nothing kept), so no part SheetJS reads is bigger than it claims.
  for (const name of zip.names) zip.inflateChunks(name, () => true);
  return undefined;
}

export function streamWorkbook(zip: GuardedZip, signal: AbortSignal): StreamedWorkbook {
  const book = readXlsxWorkbook(zip);
  if (book.sheets.length === 0) {
    throw new ServiceError('CORRUPT_FILE', 'The workbook has no sheets. Open and re-save it in a spreadsheet program, then upload it again.');
  }
  let missing = 0;
  const sheets: SheetSource[] = book.sheets.map((entry) => ({
    name: entry.name,
    hidden: entry.hidden,
    read: (budget) => {
      if (!entry.path) return undefined;
      const streamed = streamSheet(zip, entry.path, entry.name, book, budget, signal);
      missing += streamed.formulasWithoutValue;
      return streamed.grid;
    },
  }));
  return { book, sheets, formulasWithoutValue: () => missing };
}
