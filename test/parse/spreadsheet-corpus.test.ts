/**
 * The spreadsheet reader over the whole office/xlsx and office/xls corpus, and its tables checked
 * cell by cell against the CSV baselines that come with the SheetJS test files (README there).
 */
import fs from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { MAX_WORKBOOK_CELLS, MAX_WORKBOOK_TEXT, readSpreadsheet, workbookSheets, type SheetSource } from '../../src/parse/readers/spreadsheet/index.ts';
import { loadWorkbook } from '../../src/parse/readers/spreadsheet/load.ts';
import { openXlsxPackage, streamWorkbook } from '../../src/parse/readers/spreadsheet/xlsx-stream.ts';
import { corpusFiles, corpusPath, readCorpus } from '../helpers/corpus.ts';

const cache = new Map<string, Promise<ReadResult>>();

/** Baseline checks read the same workbook for several sheets: once is enough. */
function readCached(relative: string): Promise<ReadResult> {
  let result = cache.get(relative);
  if (!result) {
    result = read(relative);
    cache.set(relative, result);
  }
  return result;
}

function read(relative: string): Promise<ReadResult> {
  const kind = relative.endsWith('.xls') ? 'xls' : 'xlsx';
  return readSpreadsheet({
    bytes: readCorpus(relative),
    filename: relative,
    kind,
    format: kind,
    options: parseOptions({}),
    signal: new AbortController().signal,
  });
}

/** RFC 4180 CSV, any of CRLF / LF / CR as record separator. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Cells trimmed, line breaks as one space, empty border rows and columns removed. */
function normalizeGrid(grid: string[][]): string[][] {
  const cells = grid.map((r) => r.map((c) => c.replace(/\s*[\r\n]+\s*/g, ' ').trim()));
  const nonEmpty = cells.map((r) => r.some((c) => c !== ''));
  const r0 = nonEmpty.indexOf(true);
  if (r0 < 0) return [];
  const r1 = nonEmpty.lastIndexOf(true);
  let c0 = Infinity;
  let c1 = -1;
  for (const r of cells) {
    r.forEach((c, i) => {
      if (c === '') return;
      c0 = Math.min(c0, i);
      c1 = Math.max(c1, i);
    });
  }
  return cells.slice(r0, r1 + 1).map((r) => Array.from({ length: c1 - c0 + 1 }, (_, i) => r[c0 + i] ?? ''));
}

function cellText(cell: Element): string {
  let out = '';
  for (const node of cell.childNodes) {
    if (node.nodeName === 'BR') out += '\n';
    else if (node.nodeType === 1) out += cellText(node as Element);
    else out += node.textContent ?? '';
  }
  return out;
}

/** The table as a grid: a merged cell's text at its top-left, '' in the cells it covers. */
function tableGrid(table: Element): string[][] {
  const grid: string[][] = [];
  [...table.querySelectorAll('tr')].forEach((tr, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of tr.children) {
      while (grid[r]?.[c] !== undefined) c++;
      const colspan = Number(cell.getAttribute('colspan') ?? 1);
      const rowspan = Number(cell.getAttribute('rowspan') ?? 1);
      for (let dr = 0; dr < rowspan; dr++) {
        const row = (grid[r + dr] ??= []);
        for (let dc = 0; dc < colspan; dc++) row[c + dc] = dr === 0 && dc === 0 ? cellText(cell) : '';
      }
      c += colspan;
    }
  });
  return grid.map((row) => Array.from(row, (v) => v ?? ''));
}

/**
 * A sheet's cells as the reader reads them, before they are parted into tables (a sheet may
 * hold several: regions.ts), on the reader's own path for the file (streamed .xlsx, SheetJS
 * otherwise): the grid the baselines describe, a merged cell's text at its top-left.
 */
function readerGrid(relative: string, sheetIndex: number): string[][] {
  const bytes = readCorpus(relative);
  const zip = relative.endsWith('.xls') ? undefined : openXlsxPackage(bytes);
  const sources: SheetSource[] = zip
    ? streamWorkbook(zip, new AbortController().signal).sheets
    : workbookSheets(loadWorkbook(bytes, relative.endsWith('.xls') ? 'xls' : 'xlsx', MAX_WORKBOOK_CELLS).workbook, MAX_WORKBOOK_CELLS);
  const grid = sources[sheetIndex]?.read({ cells: MAX_WORKBOOK_CELLS, chars: MAX_WORKBOOK_TEXT });
  return grid ? normalizeGrid(grid.cut(Number.MAX_SAFE_INTEGER).rows.map((row) => Array.from(row, (cell) => cell?.text ?? ''))) : [];
}

/** The text of every table and paragraph between a sheet's heading and the next, cell by cell. */
function sheetCells(result: ReadResult, sheetIndex: number): Set<string> {
  const cells = new Set<string>();
  let node = result.document.querySelectorAll('h2')[sheetIndex]?.nextElementSibling;
  for (; node && node.tagName !== 'H2'; node = node.nextElementSibling) {
    if (node.tagName === 'TABLE') for (const row of tableGrid(node)) for (const c of row) cells.add(c.replace(/\s*[\r\n]+\s*/g, ' ').trim());
    else cells.add(cellText(node).replace(/\s*[\r\n]+\s*/g, ' ').trim());
  }
  return cells;
}

/** The reader's grid of the sheet, each cell checked to stand in the document's tables too. */
async function sheetGrid(relative: string, sheetIndex: number): Promise<string[][]> {
  const grid = readerGrid(relative, sheetIndex);
  const rendered = sheetCells(await readCached(relative), sheetIndex);
  const missing = grid.flat().filter((c) => c !== '' && !rendered.has(c));
  expect(missing, `${relative} sheet ${sheetIndex}: cells read but not in the document`).toEqual([]);
  return grid;
}

/** Excel 2016 wrote its CSVs in Windows-1252, characters outside it as '_'. */
function asWindows1252(text: string): string {
  return [...text].map((ch) => (iconv.decode(iconv.encode(ch, 'win1252'), 'win1252') === ch ? ch : '_')).join('');
}

const workbooks = [...corpusFiles('office/xlsx', /\.xls[xm]$/), ...corpusFiles('office/xls', /\.xls$/)];

describe('spreadsheet reader over the corpus', () => {
  it('reads every workbook, or refuses it with a ServiceError', async () => {
    const outcomes: Record<string, string> = {};
    const warnings: Record<string, string[]> = {};
    for (const file of workbooks) {
      try {
        const result = await read(file);
        warnings[file.split('/').pop() ?? ''] = result.warnings;
        const headings = result.document.querySelectorAll('h2').length;
        outcomes[file] = headings > 0 ? 'read' : 'no headings';
      } catch (err) {
        outcomes[file] = isServiceError(err) ? err.code : `exception: ${String(err)}`;
      }
    }
    const problems = Object.entries(outcomes).filter(([, outcome]) => outcome !== 'read' && outcome !== 'ENCRYPTED_FILE');
    expect(problems).toEqual([]);
    expect(Object.entries(outcomes).filter(([, o]) => o === 'ENCRYPTED_FILE').map(([f]) => f.split('/').pop())).toEqual([
      'tika-testEXCEL_protected_passtika_2.xlsx',
      'sheetjs-password_2002_128_enhanced.xls',
      'sheetjs-password_2002_128_enhdss.xls',
      'tika-testEXCEL_protected_passtika.xls',
    ]);
    expect(workbooks.length).toBe(127);
    // 870 KB of shared strings expand to 58 MB of cell text: the text limit cuts it.
    expect(warnings['sheetjs-large_strings.xlsx']).toEqual([
      "Sheet 'Large Strings' was cut after 2,994 of 9,999 rows (50,898 of 169,983 cells): the workbook reached the limit of 10,000,000 characters of cell text.",
      "Sheet 'Simple' was cut after 19 of 26 rows (114 of 156 cells): the workbook reached the limit of 10,000,000 characters of cell text.",
      "Sheet 'longwordslist' was left out: the workbook reached the limit of 10,000,000 characters of cell text before it.",
    ]);
    expect(warnings['docling-xlsx_04_inflated.xlsx']).toEqual([`The workbook has hidden sheets, included and marked "(hidden)": 'Sheet4'.`]);
  }, 20_000);

  it('matches the SheetJS test-suite CSV baselines cell for cell', async () => {
    const baselines = [...corpusFiles('office/xls', /^sheetjs-.*\.\d+\.csv$/), ...corpusFiles('office/xlsx', /^sheetjs-.*\.\d+\.csv$/)];
    expect(baselines.length).toBe(22);
    for (const csv of baselines) {
      const [, workbook, index] = /^(.*)\.(\d+)\.csv$/.exec(csv) ?? [];
      const expected = normalizeGrid(parseCsv(readCorpus(csv).toString('utf8').replace(/^\uFEFF/, '')));
      expect(await sheetGrid(workbook ?? '', Number(index)), csv).toEqual(expected);
    }
  });

  it("matches Excel 2016's own CSV (displayed values) for a selection of sheets", async () => {
    const cases: [string, number][] = [
      ['xlsx/sheetjs-AutoFilter.xlsx', 0],
      ['xlsx/sheetjs-merge_cells.xlsx', 0],
      ['xlsx/sheetjs-ErrorTypes.xlsx', 0],
      ['xlsx/sheetjs-cell_style_simple.xlsx', 0],
      ['xlsx/sheetjs-formula_stress_test.xlsx', 3],
      ['xlsx/sheetjs-interview.xlsx', 1],
      ['xls/sheetjs-number_format.xls', 0],
      ['xls/sheetjs-pivot_table_test.xls', 1],
      ['xls/sheetjs-xlsx-stream-d-date-cell.xls', 0],
    ];
    for (const [file, index] of cases) {
      const [folder, name] = file.split('/') as [string, string];
      const csvPath = corpusPath('office', folder, 'sheetjs-2016', `${name.replace(/^sheetjs-/, '')}.${index}.csv`);
      const expected = normalizeGrid(parseCsv(iconv.decode(fs.readFileSync(csvPath), 'win1252')));
      const mine = (await sheetGrid(`office/${file}`, index)).map((row) => row.map(asWindows1252));
      expect(mine, `${file} sheet ${index}`).toEqual(expected);
    }
  });
});
