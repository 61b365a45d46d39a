import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Two projects (docs/scale-out.md, "Tests"): `sqlite`, every test on the default store; and
 * `postgres+redis`, the same test files again, unchanged, on PostgreSQL (DATABASE_URL) and Redis
 * (REDIS_URL) for every file whose code path touches a store or shared state. FOLIO_TEST_STORE is
 * read by test/helpers/test-store.ts, which gives each test service a database and a Redis
 * database number of its own on one cluster and one redis-server for the run (the global setups).
 *
 * Which files: a RULE, not a list. A test file runs on postgres+redis when it starts the service —
 * it calls `startTestService(` (test/http/helpers.ts) or `startService(`, or spawns the CLI's
 * `serve` — itself or through a test helper module it imports (followed transitively). Files
 * that test readers, writers, stores or helpers in-process without a started service are the same
 * on both engines and run once (the store tests run both engines in one file), and so do the
 * files of test/scale-out, which start their own PostgreSQL and Redis for several instances, and
 * the files that start the service only to reach another subject (the parse processes, the
 * readers, the browser, sockets): they say so on a line `// test matrix: once — <why>`.
 */
/** A file that starts the service only to reach another subject says so, with its reason, and runs once. */
const ONCE = /^\/\/ test matrix: once — \S/m;
const STARTS_SERVICE = /\bstartTestService\(|\bstartService\(|['"]serve['"]/;
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : filesUnder(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Test files (relative, posix) that start a folio service, directly or through an imported test helper. */
function serviceTestFiles(root: string): string[] {
  const testDir = path.join(root, 'test');
  const sources = new Map(filesUnder(testDir).map((f) => [f, fs.readFileSync(f, 'utf8')]));
  // Where startTestService is defined: importing it for its HTTP client alone starts nothing.
  const definer = path.join(testDir, 'http', 'helpers.ts');
  const memo = new Map<string, boolean>();
  const startsService = (file: string): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    memo.set(file, false); // an import cycle ends here
    const text = sources.get(file) ?? '';
    const imported = [...text.matchAll(IMPORT)]
      .map((m) => path.resolve(path.dirname(file), m[1] ?? ''))
      .filter((f) => f !== definer && f.startsWith(testDir) && sources.has(f));
    const result = STARTS_SERVICE.test(text) || imported.some(startsService);
    memo.set(file, result);
    return result;
  };
  // test/scale-out starts its own PostgreSQL and Redis for its instances: the same on both projects, run once.
  const scaleOut = path.join(testDir, 'scale-out') + path.sep;
  return [...sources.keys()]
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith(scaleOut) && !ONCE.test(sources.get(f) ?? '') && startsService(f))
    .map((f) => path.relative(root, f).split(path.sep).join('/'))
    .sort();
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at a time even on 2 cores (vitest's default there is 1): most files wait on servers,
    // child processes and sockets; the whole run takes about half as long.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], globalSetup: ['./test/helpers/build-global-setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'postgres+redis',
          include: serviceTestFiles(import.meta.dirname),
          env: { FOLIO_TEST_STORE: 'postgres+redis' },
          globalSetup: ['./test/helpers/build-global-setup.ts', './test/helpers/postgres-global-setup.ts', './test/helpers/redis-global-setup.ts'],
        },
      },
    ],
  },
});
