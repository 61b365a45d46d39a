import { defineConfig } from 'vitest/config';

/**
 * Two projects: every test on the default store (SQLite), and a representative set of HTTP tests
 * again on a PostgreSQL store (keys, OAuth code exchange, uploadRef, credits, crawl and batch jobs; docs/scale-out.md):
 * the same test files, with FOLIO_TEST_STORE=postgres read by test/http/helpers.ts (which then keeps
 * uploaded files and captures in PostgreSQL too: FOLIO_BLOB_URL=postgres) and one
 * throw-away cluster for the run. The store tests themselves run on both engines in one file
 * (test/store/store.test.ts).
 */
const POSTGRES_HTTP_TESTS = [
  'test/http/auth.test.ts',
  'test/auth/token-endpoint.test.ts',
  'test/uploads/lifecycle.test.ts',
  'test/accounts/credits-http.test.ts',
  'test/web/crawl.test.ts',
  'test/web/batch.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'postgres', include: POSTGRES_HTTP_TESTS, env: { FOLIO_TEST_STORE: 'postgres' }, globalSetup: ['./test/helpers/postgres-global-setup.ts'] },
      },
    ],
  },
});
