/**
 * The store engines the store tests run on (the same test bodies on each): SQLite in a temp
 * DATA_DIR, and PostgreSQL in a throw-away cluster (test/helpers/postgres.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { Store } from '../../src/store/types.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

export interface StoreUnderTest {
  store: Store;
  /** Another handle on the same data: a second folio instance (PostgreSQL) or the CLI next to the server (SQLite). */
  another(): Promise<Store>;
  /** Closes every handle and removes the data. */
  dispose(): Promise<void>;
}

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** Once per test file (starts the PostgreSQL cluster). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A store on empty storage. */
  open(): Promise<StoreUnderTest>;
}

function tracked(open: () => Promise<Store>, cleanup: () => Promise<void>): Promise<StoreUnderTest> {
  const handles: Store[] = [];
  const next = async () => {
    const s = await open();
    handles.push(s);
    return s;
  };
  return next().then((store) => ({
    store,
    another: next,
    async dispose() {
      for (const h of handles) await h.close();
      await cleanup();
    },
  }));
}

const sqlite: Engine = {
  name: 'sqlite',
  async start() {},
  async stop() {},
  async open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-store-'));
    return tracked(
      async () => openSqliteStore(dir),
      async () => fs.rmSync(dir, { recursive: true, force: true }),
    );
  },
};

let cluster: TestPostgres | undefined;
const postgres: Engine = {
  name: 'postgres',
  async start() {
    cluster ??= await startPostgres();
  },
  async stop() {
    await cluster?.stop();
    cluster = undefined;
  },
  async open() {
    if (!cluster) throw new Error('postgres engine not started');
    const url = await cluster.createDatabase();
    return tracked(() => openPostgresStore(url), async () => undefined);
  },
};

export const ENGINES: Engine[] = [sqlite, postgres];
