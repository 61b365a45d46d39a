/**
 * Big-sheet benchmark: time and peak memory of folio's full pipeline (detect, read, markdown) on
 * generated .xlsx workbooks of 10 k, 250 k and 1 M cells (test/parse/spreadsheet-big-workbook.ts,
 * written to a temp dir, never committed).
 *
 *   npx tsx bench/spreadsheet.ts            10 k, 250 k, 1 M cells
 *   npx tsx bench/spreadsheet.ts --quick    250 k and 1 M cells
 *
 * Each workbook is parsed in its own child process, so the peak resident set size (maxRSS from
 * process.resourceUsage) belongs to that parse alone; the child also reports the heap in use
 * after the parse and the markdown's length and warnings.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '../src/parse/index.ts';
import { parseOptions } from '../src/parse/options.ts';
import { bigWorkbook } from '../test/parse/spreadsheet-big-workbook.ts';

interface ChildReport {
  ms: number;
  maxRssMb: number;
  heapMb: number;
  markdownChars: number;
  warnings: string[];
}

async function child(file: string): Promise<void> {
  const bytes = fs.readFileSync(file);
  const baseRss = process.resourceUsage().maxRSS / 1024;
  const start = performance.now();
  const data = await parse({ bytes, filename: path.basename(file) }, parseOptions({ formats: ['markdown'] }));
  const ms = performance.now() - start;
  const report: ChildReport = {
    ms,
    maxRssMb: process.resourceUsage().maxRSS / 1024 - baseRss,
    heapMb: process.memoryUsage().heapUsed / (1024 * 1024),
    markdownChars: data.markdown?.length ?? 0,
    warnings: data.warning ? [data.warning] : [],
  };
  process.stdout.write(JSON.stringify(report));
}

function main(): void {
  const quick = process.argv.includes('--quick');
  const sizes: [number, number][] = quick
    ? [
        [25_000, 10],
        [100_000, 10],
      ]
    : [
        [1_000, 10],
        [25_000, 10],
        [100_000, 10],
      ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-xlsx-'));
  const self = fileURLToPath(import.meta.url);
  try {
    console.log('cells      | xlsx KB | ms     | peak RSS over start (MB) | heap after (MB) | markdown chars | warnings');
    for (const [rows, cols] of sizes) {
      const file = path.join(dir, `${rows}x${cols}.xlsx`);
      const bytes = bigWorkbook({ rows, cols });
      fs.writeFileSync(file, bytes);
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--child', file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const r = JSON.parse(out) as ChildReport;
      const cells = (rows * cols).toLocaleString('en-US').padEnd(10);
      console.log(
        `${cells} | ${String(Math.round(bytes.length / 1024)).padStart(7)} | ${r.ms.toFixed(0).padStart(6)} | ${r.maxRssMb.toFixed(0).padStart(24)} | ${r.heapMb.toFixed(0).padStart(15)} | ${String(r.markdownChars).padStart(14)} | ${r.warnings.join(' / ')}`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) await child(process.argv[childIndex + 1] ?? '');
else main();
