/**
 * Builds an .xlsx of any size straight from its XML parts (fflate), for the streaming tests and
 * bench/spreadsheet.ts: never committed, generated into memory or a temp dir in well under a
 * second per million cells.
 *
 * Columns cycle through: a shared string, a number, a date (numFmtId 14), a currency number
 * (custom format 164), a formula with its cached value, and an inline string. Row 1 is a header
 * of shared strings. `A1:B1` is merged when `merge` is set.
 */
import { strToU8, zipSync } from 'fflate';

export interface BigWorkbookOptions {
  rows: number;
  cols: number;
  /** Add a second, small sheet after the big one. */
  secondSheet?: boolean;
  merge?: boolean;
  /** Raw `<row>` elements appended to the big sheet's data, after the generated rows. */
  extraRows?: string[];
}

function colName(c: number): string {
  let name = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The text the reader must show for the cell at 0-based (r, c), r ≥ 1. */
export function expectedCellText(r: number, c: number): string {
  switch (c % 6) {
    case 0:
      return `item ${r % 100}`;
    case 1:
      return String(r * 10 + c);
    case 2: {
      // Serial 45000 is 2023-03-15; numFmtId 14 shows m/d/yy.
      const d = new Date(Date.UTC(1899, 11, 30) + (45000 + (r % 365)) * 86_400_000);
      return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${String(d.getUTCFullYear()).slice(2)}`;
    }
    case 3:
      return `$${(r % 1000).toLocaleString('en-US')}.50`;
    case 4:
      return String(r * 2);
    default:
      return `inline ${r}`;
  }
}

function cellXml(r: number, c: number): string {
  const ref = `${colName(c)}${r + 1}`;
  switch (c % 6) {
    case 0:
      return `<c r="${ref}" t="s"><v>${6 + (r % 100)}</v></c>`;
    case 1:
      return `<c r="${ref}"><v>${r * 10 + c}</v></c>`;
    case 2:
      return `<c r="${ref}" s="1"><v>${45000 + (r % 365)}</v></c>`;
    case 3:
      return `<c r="${ref}" s="2"><v>${(r % 1000) + 0.5}</v></c>`;
    case 4:
      return `<c r="${ref}"><f>${colName(1)}${r + 1}*0+${r}*2</f><v>${r * 2}</v></c>`;
    default:
      return `<c r="${ref}" t="inlineStr"><is><t>inline ${r}</t></is></c>`;
  }
}

function sheetXml(rows: number, cols: number, merge: boolean, extraRows: readonly string[] = []): string {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">',
    `<dimension ref="A1:${colName(cols - 1)}${rows}"/><sheetData>`,
  ];
  const header: string[] = [];
  for (let c = 0; c < cols; c++) header.push(`<c r="${colName(c)}1" t="s"><v>${c % 6}</v></c>`);
  parts.push(`<row r="1">${header.join('')}</row>`);
  for (let r = 1; r < rows; r++) {
    let row = `<row r="${r + 1}">`;
    for (let c = 0; c < cols; c++) row += cellXml(r, c);
    parts.push(`${row}</row>`);
  }
  parts.push(...extraRows, '</sheetData>');
  if (merge) parts.push('<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>');
  parts.push('</worksheet>');
  return parts.join('');
}

export const HEADER_TEXTS = ['Name', 'Count', 'Date', 'Price', 'Double', 'Note'];

export function bigWorkbook(options: BigWorkbookOptions): Uint8Array {
  const { rows, cols } = options;
  const strings = [...HEADER_TEXTS, ...Array.from({ length: 100 }, (_, i) => `item ${i}`)];
  const sst = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`;
  const styles =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/></numFmts>' +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
    '</styleSheet>';
  const sheets = [{ name: 'Big', xml: sheetXml(rows, cols, options.merge ?? false, options.extraRows) }];
  if (options.secondSheet) sheets.push({ name: 'Small', xml: sheetXml(3, 2, false) });
  const workbook = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rIdY" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
  const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
  const rootRels = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(contentTypes),
    '_rels/.rels': strToU8(rootRels),
    'xl/workbook.xml': strToU8(workbook),
    'xl/_rels/workbook.xml.rels': strToU8(rels),
    'xl/sharedStrings.xml': strToU8(sst),
    'xl/styles.xml': strToU8(styles),
  };
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(s.xml);
  });
  return zipSync(files, { level: 1 });
}
