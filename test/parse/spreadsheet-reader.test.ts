import { describe, expect, it } from 'vitest';
import { isServiceError, ServiceError } from '../../src/errors.ts';
import type { Progress, ReadResult } from '../../src/parse/document.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { workbookToHtml } from '../../src/parse/readers/spreadsheet/index.ts';
import { loadWorkbook } from '../../src/parse/readers/spreadsheet/load.ts';
import { readSpreadsheet } from '../../src/parse/readers/spreadsheet/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

function read(file: string, extra: { signal?: AbortSignal; onProgress?: (p: Progress) => void; format?: string } = {}): Promise<ReadResult> {
  const kind = file.endsWith('.xls') ? 'xls' : 'xlsx';
  const [folder] = file.split('/');
  return readSpreadsheet({
    bytes: readCorpus('office', folder ?? '', ...file.split('/').slice(1)),
    filename: file,
    kind,
    format: extra.format ?? kind,
    options: parseOptions({}),
    signal: extra.signal ?? new AbortController().signal,
    ...(extra.onProgress ? { onProgress: extra.onProgress } : {}),
  });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (isServiceError(err)) return err.code;
    throw err;
  }
  return 'no error';
}

/** The table following the heading with this text. */
function tableAfter(result: ReadResult, heading: string): HTMLTableElement {
  const h2 = [...result.document.querySelectorAll('h2')].find((h) => h.textContent === heading);
  if (!h2) throw new Error(`no heading ${heading}`);
  const next = h2.nextElementSibling;
  if (!next || next.tagName !== 'TABLE') throw new Error(`no table after ${heading}`);
  return next as HTMLTableElement;
}

/** Every table between a sheet's heading and the next heading. */
function tablesAfter(result: ReadResult, heading: string): HTMLTableElement[] {
  const h2 = [...result.document.querySelectorAll('h2')].find((h) => h.textContent === heading);
  const tables: HTMLTableElement[] = [];
  for (let node = h2?.nextElementSibling; node && node.tagName !== 'H2'; node = node.nextElementSibling) {
    if (node.tagName === 'TABLE') tables.push(node as HTMLTableElement);
  }
  return tables;
}

function rowTexts(table: HTMLTableElement): string[][] {
  return [...table.querySelectorAll('tr')].map((tr) => [...tr.children].map((cell) => cell.textContent ?? ''));
}

describe('spreadsheet reader: values as displayed', () => {
  it('applies number formats: date, date-time, currency, percentage, thousands', async () => {
    const result = await read('xlsx/sheetjs-DataTypesFormats.xlsx');
    const rows = rowTexts(tableAfter(result, 'Sheet1'));
    expect(rows).toEqual([
      ['Date', '7/23/2020'],
      ['Date Time', '7/23/2020 9:00:00'],
      ['Currency', '$123.00'],
      ['Percentage', '98.76%'],
      ['Fixed Decimal', '456.00'],
      ['Thousands Separator', '7,890'],
    ]);
  });

  it('shows formulas as their cached values, errors included (xls)', async () => {
    const rows = rowTexts(tableAfter(await read('xls/sheetjs-formulae_test_simple.xls'), 'Sheet1'));
    expect(rows[0]).toEqual(['1', '1', '1', '1']);
    expect(rows[5]).toEqual(['#VALUE!', '55', '#VALUE!', '55']);
  });

  it('formats fractions, scientific, times and red-negative currency (tika formats workbook)', async () => {
    const result = await read('xlsx/tika-testEXCEL-formats.xlsx');
    const cells = rowTexts(tableAfter(result, 'Format Examples')).flat();
    for (const shown of ['1,599.99', '($1,599.99)', '$1,599.99', '1.98E+08', '2.50%', '2 1/2', '6:15 PM', '18:15', '10/3/09', '17-May-07']) {
      expect(cells).toContain(shown);
    }
  });

  it('keeps external hyperlinks as links and drops internal ones', async () => {
    const result = await read('xlsx/sheetjs-hyperlink_stress_test_2011.xlsx');
    const hrefs = [...result.document.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toContain('http://www.sheetjs.com');
    expect(hrefs).toContain('mailto:dev@sheetjs.com?subject=hyperlink');
    const internal = await read('xlsx/sheetjs-internal_link.xlsx');
    expect(internal.document.querySelectorAll('a').length).toBe(0);
    expect(internal.document.body.textContent).toContain('Link to Sheet2');
  });
});

describe('spreadsheet reader: structure', () => {
  it('turns merged ranges into colspan/rowspan on the top-left cell and omits covered cells', async () => {
    for (const file of ['xlsx/sheetjs-merge_cells.xlsx', 'xls/sheetjs-merge_cells.xls']) {
      const result = await read(file);
      const table = tableAfter(result, 'Merge');
      const first = table.querySelector('thead tr');
      expect(first?.children.length).toBe(3);
      const a1 = first?.children[0];
      expect(a1?.textContent).toBe('A1:B2');
      expect(a1?.getAttribute('colspan')).toBe('2');
      expect(a1?.getAttribute('rowspan')).toBe('2');
      expect(first?.children[1]?.getAttribute('rowspan')).toBe('2');
      const a3 = [...table.querySelectorAll('td')].find((td) => td.textContent === 'A3:B3');
      expect(a3?.getAttribute('colspan')).toBe('2');
      expect(a3?.nextElementSibling?.textContent).toBe('C3');
    }
  });

  it('puts header rows reached by a merged header cell into thead (docling Sheet3)', async () => {
    const result = await read('xlsx/docling-xlsx_01.xlsx');
    const table = tableAfter(result, 'Sheet3');
    const head = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
    // Sheet3 holds two tables side by side, parted by a blank column: this is the first.
    expect(head).toEqual(['first', 'header', 'second', 'third']);
    expect(tablesAfter(result, 'Sheet3')).toHaveLength(2);
    expect(table.querySelectorAll('thead tr').length).toBe(2);
    expect(table.querySelector('thead th')?.getAttribute('rowspan')).toBe('2');
    expect(table.querySelector('tbody td')?.textContent).toBe('1');
  });

  it('uses sheet names as headings, one table per non-empty sheet (markitdown vectors)', async () => {
    for (const folder of ['xlsx', 'xls']) {
      const vectors = JSON.parse(readCorpus('office', folder, 'markitdown-vectors.json').toString('utf8')) as {
        cases: { file: string; must_include: string[] }[];
      };
      for (const { file, must_include } of vectors.cases) {
        const result = await read(`${folder}/${file}`);
        const headings = [...result.document.querySelectorAll('h2')].map((h) => h.textContent);
        expect(headings).toEqual(['Sheet1', '09060124-b5e7-4717-9d07-3c046eb']);
        const text = result.document.body.textContent ?? '';
        for (const needle of must_include) {
          if (needle.startsWith('## ')) expect(headings).toContain(needle.slice(3));
          else expect(text).toContain(needle);
        }
        expect(result.document.querySelectorAll('table').length).toBe(2);
      }
    }
  });

  it('trims empty border rows and columns of an inflated used range', async () => {
    const result = await read('xlsx/docling-xlsx_04_inflated.xlsx');
    const rows = rowTexts(tableAfter(result, 'Sheet1'));
    expect(rows.length).toBe(7);
    expect(rows[0]).toEqual(['first', 'second', 'third']);
    expect(rows[6]).toEqual(['6', '0', '-6']);
    // A sheet whose data starts at B4 starts its table at B4.
    const formats = rowTexts(tableAfter(await read('xlsx/tika-testEXCEL-formats.xlsx'), 'Format Examples'));
    expect(formats[0]?.[0]).toBe('|');
    expect(formats[0]?.[1]).toBe('Number #,##0.00');
  });

  it('gives an empty sheet a heading and no table', async () => {
    const result = await read('xlsx/sheetjs-text_and_numbers.xlsx');
    const headings = [...result.document.querySelectorAll('h2')].map((h) => h.textContent);
    expect(headings).toEqual(['Sheet1', 'Sheet2', 'Sheet3']);
    expect(result.document.querySelectorAll('table').length).toBe(1);
    expect(result.document.querySelector('h2:last-of-type')?.nextElementSibling).toBeNull();
  });

  it('marks hidden and very hidden sheets and lists them in a warning', async () => {
    for (const file of ['xlsx/sheetjs-sheet_visibility.xlsx', 'xls/sheetjs-sheet_visibility.xls']) {
      const result = await read(file);
      const headings = [...result.document.querySelectorAll('h2')].map((h) => h.textContent);
      expect(headings).toEqual(['Visible', 'Hidden (hidden)', 'VeryHidden (hidden)']);
      expect(result.warnings).toEqual([`The workbook has hidden sheets, included and marked "(hidden)": 'Hidden', 'VeryHidden'.`]);
      expect(rowTexts(tableAfter(result, 'Hidden (hidden)'))[0]).toEqual(['H', 'i', 'd', 'd', 'e', 'n']);
    }
  });
});

describe('spreadsheet reader: metadata', () => {
  it('maps workbook properties: Title, Subject → description, Keywords, Author', async () => {
    for (const file of ['xlsx/sheetjs-custom_properties.xlsx', 'xls/sheetjs-custom_properties.xls']) {
      const { metadata } = await read(file);
      expect(metadata.title).toBe('Example with properties');
      expect(metadata.description).toBe('Test it before you code it');
      expect(metadata.keywords).toBe('example humor');
      expect(metadata.extra.author).toBe('Pony Foo');
      expect(metadata.extra.category).toBe('Quirky');
      expect(metadata.extra.created).toBe('2014-02-13T07:33:16.000Z');
    }
  });

  it('reads the language and sets it on the document', async () => {
    const result = await read('xlsx/docling-xlsx_05_table_with_title.xlsx');
    expect(result.metadata.language).toBe('en-US');
    expect(result.metadata.title).toBe('Wild Duck Observations');
    expect(result.document.documentElement.getAttribute('lang')).toBe('en-US');
  });
});

describe('spreadsheet reader: limits, progress, cancellation', () => {
  it('cuts at the cell limit, naming the sheet and the rows kept, and leaves later sheets out', () => {
    const { workbook } = loadWorkbook(readCorpus('office', 'xlsx', 'sheetjs-formula_stress_test.xlsx'), 'xlsx', 1000);
    // Database is A1:O45 (15 columns): 200 cells keep 13 rows (195 cells); Date (5 columns) gets 1.
    const { html, warnings } = workbookToHtml(workbook, { cellLimit: 200, textLimit: 1_000_000, signal: new AbortController().signal });
    expect(warnings[0]).toBe(`Sheet 'Database' was cut after 13 of 45 rows (195 of 675 cells): the workbook reached the limit of 200 cells.`);
    expect(warnings[1]).toMatch(/^Sheet 'Date' was cut after 1 of \d+ rows \(5 of \d+ cells\): the workbook reached the limit of 200 cells\.$/);
    expect(warnings[2]).toBe(`Sheet 'Engineering' was left out: the workbook reached the limit of 200 cells before it.`);
    expect(warnings).toHaveLength(10);
    // The 13 rows kept of Database: its title as a paragraph over a table of 12; Date's one row
    // is a single cell, a paragraph.
    expect(html.match(/<tr>/g)?.length).toBe(12);
    expect(html).toContain('<h2>Database</h2>\n<p>Database</p><table>');
    expect(html).toContain('<h2>Date</h2>\n<p>Core</p>');
    expect(html).toContain('<h2>Text</h2>');
  });

  it('reports progress per sheet and stops when aborted', async () => {
    const seen: Progress[] = [];
    await read('xlsx/sheetjs-AutoFilter.xlsx', { onProgress: (p) => seen.push(p) });
    expect(seen).toHaveLength(11);
    expect(seen[10]).toEqual({ done: 11, total: 11, unit: 'sheet' });

    const controller = new AbortController();
    let calls = 0;
    const reading = read('xlsx/sheetjs-AutoFilter.xlsx', {
      signal: controller.signal,
      onProgress: () => {
        calls++;
        controller.abort();
      },
    });
    await expect(reading).rejects.toThrow();
    expect(calls).toBe(1);
  });
});

describe('spreadsheet reader: errors', () => {
  it('answers password-protected workbooks with ENCRYPTED_FILE', async () => {
    expect(await codeOf(read('xls/sheetjs-password_2002_128_enhanced.xls'))).toBe('ENCRYPTED_FILE');
    expect(await codeOf(read('xls/tika-testEXCEL_protected_passtika.xls'))).toBe('ENCRYPTED_FILE');
    expect(await codeOf(read('xlsx/tika-testEXCEL_protected_passtika_2.xlsx'))).toBe('ENCRYPTED_FILE');
  });

  it('answers truncated workbooks with CORRUPT_FILE', async () => {
    const xlsx = readCorpus('office', 'xlsx', 'markitdown-test.xlsx');
    const xls = readCorpus('office', 'xls', 'markitdown-test.xls');
    for (const [bytes, kind] of [
      [xlsx.subarray(0, Math.floor(xlsx.length / 2)), 'xlsx'],
      [xls.subarray(0, 600), 'xls'],
    ] as const) {
      const reading = readSpreadsheet({
        bytes: Buffer.from(bytes),
        filename: `cut.${kind}`,
        kind,
        format: kind,
        options: parseOptions({}),
        signal: new AbortController().signal,
      });
      await expect(reading).rejects.toBeInstanceOf(ServiceError);
      expect(await codeOf(reading)).toBe('CORRUPT_FILE');
    }
  });
});

describe('spreadsheet reader: HTML saved as .xls', () => {
  it('decodes a Windows-1252 table the way the HTML reader does', async () => {
    const bytes = Buffer.concat([
      Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body><table><tr><td>Gr'),
      Buffer.from([0xf6, 0xdf, 0x65, 0x20, 0x80]),
      Buffer.from('</td><td>Wert</td></tr><tr><td colspan="2">zusammen</td></tr></table></body></html>'),
    ]);
    const result = await readSpreadsheet(readInput('xls', bytes, { filename: 'export.xls', format: 'html' }));
    expect(rowTexts(tableAfter(result, 'Sheet1'))).toEqual([['Größe €', 'Wert'], ['zusammen']]);
    expect(result.document.querySelector('td')?.getAttribute('colspan')).toBe('2');
  });
});
