/**
 * The row-by-row .xlsx path: the same tables and warnings as SheetJS on every corpus workbook,
 * and a generated 1,000,000-cell sheet cut at the cell limit in bounded memory and time.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { readSpreadsheet, sheetsToHtml, workbookSheets } from '../../src/parse/readers/spreadsheet/index.ts';
import { loadWorkbook } from '../../src/parse/readers/spreadsheet/load.ts';
import { MAX_PENDING_CHARS } from '../../src/parse/readers/spreadsheet/xlsx-sheet-stream.ts';
import { openXlsxPackage, streamWorkbook } from '../../src/parse/readers/spreadsheet/xlsx-stream.ts';
import { CORPUS_DIR } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';
import { bigWorkbook, expectedCellText, HEADER_TEXTS } from './spreadsheet-big-workbook.ts';

const limits = { cellLimit: 250_000, textLimit: 10_000_000, signal: new AbortController().signal };
const here = path.dirname(fileURLToPath(import.meta.url));

function rowsOf(html: string): string[][] {
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...(m[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1] ?? ''));
}

describe('spreadsheet stream: same result as SheetJS on the corpus', () => {
  const dir = path.join(CORPUS_DIR, 'office', 'xlsx');
  const files = fs.readdirSync(dir).filter((f) => /\.xls[xm]$/.test(f));

  it('gives the same HTML and warnings for every .xlsx/.xlsm package', () => {
    let compared = 0;
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(dir, file));
      const zip = openXlsxPackage(bytes);
      if (!zip) continue; // the password-protected one is an OLE container
      const streamed = sheetsToHtml(streamWorkbook(zip, limits.signal).sheets, limits);
      const sheetjs = sheetsToHtml(workbookSheets(loadWorkbook(bytes, 'xlsx', limits.cellLimit).workbook, limits.cellLimit), limits);
      expect({ file, html: streamed.html, warnings: streamed.warnings }).toEqual({ file, html: sheetjs.html, warnings: sheetjs.warnings });
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(60);
  }, 60_000);

  it('shows cached formula values, dates by their number format, booleans and inline strings', async () => {
    const bytes = fs.readFileSync(path.join(dir, 'sheetjs-xlsx-stream-d-date-cell.xlsx'));
    const result = await readSpreadsheet(readInput('xlsx', bytes));
    const rows = [...result.document.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent ?? ''));
    expect(rows[2]).toEqual(['Float', '1.5', '0.3', '1.23457E+22']);
    expect(rows[3]).toEqual(['Boolean', 'TRUE', 'FALSE', '']);
    // A t="d" ISO date cell with numFmtId 14.
    expect(rows[4]?.slice(0, 2)).toEqual(['Date', '2/14/14']);
    // CONCATENATE(A1,B2) with its cached inline-string result, never the formula text.
    expect(result.document.body.textContent).toContain('String1');
    expect(result.document.body.textContent).not.toContain('CONCATENATE');
    expect(result.warnings).toEqual([]);
  });
});

describe('spreadsheet stream: a 1,000,000-cell sheet', () => {
  let dir: string;
  let bigFile: string;
  let big: Uint8Array;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-xlsx-stream-'));
    big = bigWorkbook({ rows: 100_000, cols: 10, secondSheet: true, merge: true });
    bigFile = path.join(dir, 'big.xlsx');
    fs.writeFileSync(bigFile, big);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops at the cell limit with a warning saying how much was kept of how much', async () => {
    const started = performance.now();
    const data = await parse({ bytes: Buffer.from(big), filename: 'big.xlsx' }, parseOptions({ formats: ['html'] }));
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(data.warning).toContain(
      "Sheet 'Big' was cut after 25,000 of 100,000 rows (250,000 of 1,000,000 cells): the workbook reached the limit of 250,000 cells.",
    );
    expect(data.warning).toContain("Sheet 'Small' was left out: the workbook reached the limit of 250,000 cells before it.");
    const html = data.html ?? '';
    const rows = rowsOf(html);
    expect(rows).toHaveLength(25_000);
    // The merge after sheetData is still read once the cells stop being kept.
    expect(html).toContain(`<th colspan="2">${HEADER_TEXTS[0]}</th>`);
    for (const r of [1, 2, 777, 24_999]) {
      expect(rows[r]).toEqual(Array.from({ length: 10 }, (_, c) => expectedCellText(r, c)));
    }
  }, 60_000);

  // Measured: SheetJS's whole-sheet read of the same file runs out of memory even with 256 MB.
  it('reads it within a 128 MB heap', () => {
    const child = path.join(here, 'spreadsheet-stream-child.ts');
    const run = (mode: string): string =>
      execFileSync(process.execPath, ['--max-old-space-size=128', '--import', 'tsx', child, bigFile, mode], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: path.join(here, '..', '..'),
      });
    const out = JSON.parse(run('stream')) as { htmlLength: number; warnings: string[] };
    expect(out.warnings[0]).toMatch(/^Sheet 'Big' was cut after 25,000 of 100,000 rows/);
    expect(out.htmlLength).toBeGreaterThan(1_000_000);
  }, 60_000);
});

describe('spreadsheet stream: formulas without a cached value, damaged packages', () => {
  it('shows a formula with no cached value as an empty cell and names how many in one warning', async () => {
    const bytes = bigWorkbook({
      rows: 3,
      cols: 2,
      extraRows: ['<row r="4"><c r="A4"><f>A3*2</f></c><c r="B4"><f>B3*2</f></c></row>', '<row r="5"><c r="A5" t="str"><f>"x"</f><v>x</v></c><c r="B5" t="str"><f>T(1)</f><v/></c></row>'],
    });
    const result = await readSpreadsheet(readInput('xlsx', bytes));
    const rows = [...result.document.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent ?? ''));
    expect(rows[3]).toEqual(['', '']);
    // `<v/>`: the formula's cached result is an empty string, so it is not counted.
    expect(rows[4]).toEqual(['x', '']);
    expect(result.document.body.textContent).not.toContain('A3*2');
    expect(result.warnings).toEqual([
      '2 formula cells have no saved result and are shown empty: the file was saved without calculating them (open it in a spreadsheet program, recalculate and save to fill them in).',
    ]);
  });

  it('refuses a sheet part that inflates past its declared size, and a truncated package, as CORRUPT_FILE', async () => {
    const parts = unzipSync(bigWorkbook({ rows: 2000, cols: 6 }));
    // Sizes are declared in the central directory; fflate writes the real ones, so grow the
    // part after zipping by patching its declared size downwards.
    const zipped = zipSync(parts, { level: 6 });
    const name = strToU8('xl/worksheets/sheet1.xml');
    const view = Buffer.from(zipped);
    let patched = 0;
    for (let at = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
      const nameLength = view.readUInt16LE(at + 28);
      if (Buffer.compare(view.subarray(at + 46, at + 46 + nameLength), Buffer.from(name)) === 0) {
        view.writeUInt32LE(1000, at + 24);
        patched++;
      }
    }
    expect(patched).toBe(1);
    const lying = await serviceFailure(readSpreadsheet(readInput('xlsx', view)));
    expect(lying.code).toBe('CORRUPT_FILE');
    expect(lying.message).toContain('expands past its declared size');

    const truncated = await serviceFailure(readSpreadsheet(readInput('xlsx', zipped.subarray(0, Math.floor(zipped.length / 2)))));
    expect(truncated.code).toBe('CORRUPT_FILE');
  });

  it('refuses a row that never ends, fast, instead of holding the whole sheet', async () => {
    // ~40 M characters in one row with no </row>: a 1 MB block of pseudo-random cells repeated
    // (further apart than deflate's 32 KB window, so the part stays under the zip-bomb ratio and
    // it is the row limit that answers).
    const cells: string[] = [];
    let seed = 1;
    for (let length = 0; length < 1024 * 1024; ) {
      let text = '';
      for (let k = 0; k < 40; k++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += (seed >> 8).toString(36);
      }
      const cell = `<c t="inlineStr"><is><t>${text}</t></is></c>`;
      cells.push(cell);
      length += cell.length;
    }
    const block = cells.join('');
    const row = block.repeat(Math.ceil((MAX_PENDING_CHARS * 1.2) / block.length));
    const bytes = bigWorkbook({ rows: 2, cols: 2, extraRows: [`<row r="3">${row}`] });
    const started = performance.now();
    const failure = await serviceFailure(readSpreadsheet(readInput('xlsx', bytes)));
    // ~0.5 s; searching (and so flattening) the whole pending text on every piece took ~4 s.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(failure.code).toBe('CORRUPT_FILE');
    expect(failure.message).toContain("a row of sheet 'Big' runs on for more than 33,554,432 characters");
  }, 60_000);
});
