#!/usr/bin/env node
// The `folio` command (package.json `bin`: `npx folio …`, a global install, `npm start`): runs
// the compiled CLI in dist/ with plain node, no rebuild. In a source checkout whose sources are
// newer than the last build it rebuilds first (incremental, no type check: `npm test` checks
// types), its output on stderr so that stdout stays the CLI's (the stdio MCP server speaks there).
// An installed package ships dist/ without sources: nothing to compare, nothing rebuilt.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const main = path.join(root, 'dist', 'src', 'main.js');
const stamp = path.join(root, 'dist', '.tsbuildinfo');
const SOURCES = ['src', 'auth', 'tools', '.well-known'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time of a source or build config; undefined without sources (an installed package). */
function newestSource() {
  let newest;
  for (const dir of SOURCES) {
    const abs = path.join(root, dir);
    if (!fs.existsSync(abs)) continue;
    for (const entry of fs.readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|mts|mjs|json)$/.test(entry.name)) continue;
      const t = mtime(path.join(entry.parentPath, entry.name));
      if (t !== undefined && (newest === undefined || t > newest)) newest = t;
    }
  }
  if (newest === undefined) return undefined;
  for (const file of CONFIGS) {
    const t = mtime(path.join(root, file));
    if (t !== undefined && t > newest) newest = t;
  }
  return newest;
}

const sources = newestSource();
const built = mtime(stamp);
if (!fs.existsSync(main) || (sources !== undefined && (built === undefined || sources > built))) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write(`folio: ${fs.existsSync(main) ? 'the build in dist/ is older than the sources' : 'dist/ has no build'} and TypeScript is not installed; run \`npm ci\` (or \`npm ci --omit=dev\`) in ${root}.\n`);
    process.exit(1);
  }
  const build = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    process.stderr.write('folio: the build failed (see above).\n');
    process.exit(build.status ?? 1);
  }
  // tsc leaves its build info untouched when no output changed: mark the build as current.
  const now = new Date();
  if (fs.existsSync(stamp)) fs.utimesSync(stamp, now, now);
}

await import(pathToFileURL(main).href);
