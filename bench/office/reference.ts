/**
 * The benchmark's reference converters, run as separate processes: pandoc (Debian package) and
 * LibreOffice headless (`soffice --convert-to`), both installed by scripts/bench-setup.sh. folio
 * never calls them outside bench/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import XLSX from 'xlsx';

const PANDOC_TIMEOUT_MS = 120_000;
const SOFFICE_TIMEOUT_MS = 15 * 60_000;

export type PandocReader = 'docx' | 'odt' | 'rtf';

export interface PandocResult {
  gfm: string;
  plain: string;
  /** Wall time of the `-t gfm` process (start-up included), ms. */
  ms: number;
}

function pandoc(args: string[], input?: string): { out: string; ms: number } {
  const started = performance.now();
  const run = spawnSync('pandoc', args, {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: PANDOC_TIMEOUT_MS,
    ...(input !== undefined ? { input } : {}),
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`pandoc ${args.slice(0, 4).join(' ')}: ${(run.stderr || String(run.error ?? run.signal)).trim().split('\n')[0]}`);
  return { out: run.stdout, ms };
}

/** A node of pandoc's JSON AST (pandoc-types 1.22): `{t, c}` objects inside arrays. */
type PandocJson = string | number | boolean | null | PandocJson[] | { [key: string]: PandocJson };

function isNode(value: PandocJson, tag: string): value is { t: string; c: PandocJson[] } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && value.t === tag && Array.isArray(value.c);
}

/**
 * Every Table of pandoc's AST becomes a Div of its caption and then its cells' blocks, row by
 * row, cell by cell (nested tables likewise). pandoc's plain writer lays a table with
 * multi-paragraph cells out as a grid, side by side, so its text reads line 1 of cell A, line 1
 * of cell B, line 2 of cell A …: an in-order recall would count folio's cell-by-cell table
 * (markdown's `<br>` cells) as out of order. The words and their order inside a cell are
 * pandoc's own.
 *   Table attr caption colspecs head bodies foot; TableHead attr rows; TableBody attr n rows rows;
 *   TableFoot attr rows; Row attr cells; Cell attr align rowspan colspan blocks; Caption short blocks.
 */
export function linearisedTables(node: PandocJson): PandocJson {
  if (Array.isArray(node)) return node.map(linearisedTables);
  if (typeof node !== 'object' || node === null) return node;
  if (isNode(node, 'Table')) {
    const [, caption, , head, bodies, foot] = node.c as [PandocJson, PandocJson[], PandocJson, PandocJson[], PandocJson[][], PandocJson[]];
    const rows: PandocJson[][] = [
      ...((head[1] as PandocJson[][]) ?? []),
      ...bodies.flatMap((b) => [...((b[2] as PandocJson[][]) ?? []), ...((b[3] as PandocJson[][]) ?? [])]),
      ...((foot[1] as PandocJson[][]) ?? []),
    ];
    const blocks: PandocJson[] = [...((caption[1] as PandocJson[]) ?? [])];
    for (const row of rows) for (const cell of (row[1] as PandocJson[][]) ?? []) blocks.push(...((cell[4] as PandocJson[]) ?? []));
    return { t: 'Div', c: [['', [], []], blocks.map(linearisedTables)] };
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, linearisedTables(v)]));
}

/**
 * pandoc's markdown (`-t gfm`, timed: one process from the file, start-up included) and its plain
 * text, the words' reference: the document read to pandoc's AST (`-t json`), tables linearised
 * (linearisedTables), written by `-t plain+tex_math_dollars`. Without `tex_math_dollars` the plain
 * writer renders an equation it can as Unicode text (`A = πr²`) and the rest as TeX, while folio
 * writes every equation as TeX (`$A=\pi r^{2}$`, as pandoc's gfm and docling do); with it both
 * sides are TeX, compared symbol by symbol (normalise.ts).
 */
export function pandocConvert(file: string, from: PandocReader): PandocResult {
  const gfm = pandoc(['-f', from, '-t', 'gfm', '--wrap=none', file]);
  const ast = JSON.parse(pandoc(['-f', from, '-t', 'json', file]).out) as PandocJson;
  const plain = pandoc(['-f', 'json', '-t', 'plain+tex_math_dollars', '--wrap=none'], JSON.stringify(linearisedTables(ast)));
  return { gfm: gfm.out, plain: plain.out, ms: gfm.ms };
}

export interface SofficeBatch {
  /** Output files per input file (absolute paths), in the input's order; empty when LibreOffice wrote none. */
  outputs: Map<string, string[]>;
  /** Wall time of the whole batch (one soffice process, start-up included), ms. */
  ms: number;
  workDir: string;
}

/**
 * One `soffice --headless --convert-to <target>` process for a whole batch of files. Inputs are
 * copied under neutral names (f0000.doc …) so every output maps back to its input unambiguously
 * (a CSV export of all sheets writes `<name>-<sheet>.csv` per sheet). A private user profile keeps
 * it clear of any other LibreOffice on the machine.
 */
export function sofficeBatch(files: string[], target: string, outExt: string): SofficeBatch {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-office-'));
  const inDir = path.join(workDir, 'in');
  const outDir = path.join(workDir, 'out');
  fs.mkdirSync(inDir);
  fs.mkdirSync(outDir);
  const stems = files.map((file, i) => {
    const stem = `f${String(i).padStart(4, '0')}`;
    fs.copyFileSync(file, path.join(inDir, `${stem}${path.extname(file).toLowerCase()}`));
    return stem;
  });
  const started = performance.now();
  spawnSync(
    'soffice',
    [`-env:UserInstallation=file://${path.join(workDir, 'profile')}`, '--headless', '--norestore', '--convert-to', target, '--outdir', outDir, ...stems.map((s, i) => path.join(inDir, `${s}${path.extname(files[i] as string).toLowerCase()}`))],
    { stdio: 'ignore', timeout: SOFFICE_TIMEOUT_MS },
  );
  const ms = performance.now() - started;
  const written = fs.readdirSync(outDir).filter((f) => f.endsWith(outExt));
  const outputs = new Map<string, string[]>();
  files.forEach((file, i) => {
    const stem = stems[i] as string;
    outputs.set(
      file,
      written.filter((f) => f === `${stem}${outExt}` || f.startsWith(`${stem}-`)).sort().map((f) => path.join(outDir, f)),
    );
  });
  return { outputs, ms, workDir };
}

/** RFC 4180 CSV → rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

export interface SheetReference {
  /** Cell values as LibreOffice displays them, row by row, sheets in workbook order. */
  text: string;
  /** Sheets with at least one non-empty cell (each is one table in a markdown rendering). */
  nonEmptySheets: number;
}

/**
 * A workbook's reference from LibreOffice's per-sheet CSVs ("save cell contents as shown").
 * The CSV files carry the sheet name, not its position, so the workbook's sheet order is read
 * from the file's own sheet list (SheetJS, names only); CSVs it cannot place go last.
 */
export function sheetReference(source: string, csvFiles: string[]): SheetReference {
  let order: string[] = [];
  try {
    order = XLSX.read(fs.readFileSync(source), { bookSheets: true }).SheetNames;
  } catch {
    order = [];
  }
  const stemOf = (f: string): string => path.basename(f, '.csv').replace(/^f\d{4}-?/, '');
  const rank = (f: string): number => {
    const i = order.indexOf(stemOf(f));
    return i < 0 ? order.length : i;
  };
  const sorted = [...csvFiles].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const parts: string[] = [];
  let nonEmptySheets = 0;
  for (const file of sorted) {
    const rows = parseCsv(fs.readFileSync(file, 'utf8'));
    const lines = rows.map((r) => r.join(' ').trim()).filter((l) => l !== '');
    if (lines.length > 0) nonEmptySheets++;
    parts.push(lines.join('\n'));
  }
  return { text: parts.join('\n'), nonEmptySheets };
}
