/**
 * `npm run bench`: every benchmark in turn, each in its own process so one's heap and JIT state
 * do not colour the next. Pass `--quick` through for the fixed subsets.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.join(here, '..', 'node_modules', '.bin', 'tsx');
const benches = ['html-markdown.ts', 'docx.ts', 'server.ts', 'scrape.ts', 'crawl.ts', 'mcp.ts', 'oauth.ts', 'office.ts', 'spreadsheet.ts', 'pdf.ts', 'pdf/olmocr.ts', 'pdf/headings.ts', 'pdf/printed.ts', 'pdf/paper.ts', 'pdf/office-pdf.ts', 'pdf/tables-outside.ts', 'pdf/table-styles.ts', 'hostile.ts', 'pii.ts', 'summary.ts', 'batch.ts', 'accounting.ts', 'agent.ts', 'load.ts'];
const passThrough = process.argv.slice(2);
/** office.ts, pdf/office-pdf.ts and pdf/table-styles.ts use pandoc (and LibreOffice), which scripts/bench-setup.sh installs first. */
const benchSetup = path.join(here, '..', 'scripts', 'bench-setup.sh');
const setupFor: Record<string, string> = { 'office.ts': benchSetup, 'pdf/office-pdf.ts': benchSetup, 'pdf/table-styles.ts': benchSetup };

let failed = 0;
for (const bench of benches) {
  process.stdout.write(`\n=== ${bench} ===\n`);
  const setup = setupFor[bench];
  if (setup && spawnSync('bash', [setup], { stdio: 'inherit' }).status !== 0) {
    failed++;
    process.stdout.write(`${bench}: ${path.basename(setup)} failed\n`);
    continue;
  }
  const run = spawnSync(tsx, [path.join(here, bench), ...passThrough], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    process.stdout.write(`${bench} exited with ${run.status ?? run.signal}\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
