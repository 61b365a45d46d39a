/**
 * globalSetup of both vitest projects (vitest.config.ts): brings the compiled build (dist/, what
 * `npm start` runs) up to date, because the tests' services run their parse children from it
 * (test/http/helpers.ts `startTestService`). A child on the TypeScript sources loads every reader
 * through tsx's loader: 2.0-2.4 s of CPU to start against 0.7-0.8 s compiled, twice per service
 * start. The rule is the `folio` command's (bin/folio.js): rebuild only when a source is newer
 * than the last build; after `npm ci` (which builds in `prepare`) nothing is rebuilt.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The compiled parse child the tests' services fork (ParsePoolOptions.workerPath). */
export const COMPILED_PARSE_WORKER = path.join(root, 'dist', 'src', 'limits', 'parse-worker.js');

export default function setup(): void {
  // `folio help` rebuilds first when dist/ is older than the sources, and prints the usage.
  const run = spawnSync(process.execPath, [path.join(root, 'bin', 'folio.js'), 'help'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0 || !fs.existsSync(COMPILED_PARSE_WORKER)) {
    throw new Error(`The compiled build (dist/) could not be brought up to date for the tests' parse children: ${run.stderr}`);
  }
}
