/**
 * Run by spreadsheet-stream.test.ts in a child Node with a capped heap: reads the workbook at
 * argv[2] with the path named by argv[3] ("stream" or "sheetjs") up to the HTML and prints the
 * HTML's length and the warnings as JSON.
 */
import fs from 'node:fs';
import { sheetsToHtml, workbookSheets, MAX_WORKBOOK_CELLS, MAX_WORKBOOK_TEXT } from '../../src/parse/readers/spreadsheet/index.ts';
import { loadWorkbook } from '../../src/parse/readers/spreadsheet/load.ts';
import { openXlsxPackage, streamWorkbook } from '../../src/parse/readers/spreadsheet/xlsx-stream.ts';

const bytes = fs.readFileSync(process.argv[2] ?? '');
const limits = { cellLimit: MAX_WORKBOOK_CELLS, textLimit: MAX_WORKBOOK_TEXT, signal: new AbortController().signal };
let sheets;
if (process.argv[3] === 'sheetjs') sheets = workbookSheets(loadWorkbook(bytes, 'xlsx', MAX_WORKBOOK_CELLS).workbook, MAX_WORKBOOK_CELLS);
else {
  const zip = openXlsxPackage(bytes);
  if (!zip) throw new Error('not an xlsx package');
  sheets = streamWorkbook(zip, limits.signal).sheets;
}
const { html, warnings } = sheetsToHtml(sheets, limits);
process.stdout.write(JSON.stringify({ htmlLength: html.length, warnings }));
