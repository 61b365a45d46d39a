/** The CLI's store access: the SQLite store of DATA_DIR, opened for one command and closed after it. */
import type { Config } from '../config.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/types.ts';

export async function withStore<T>(config: Config, run: (store: Store) => Promise<T>): Promise<T> {
  const store = openSqliteStore(config.dataDir);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
