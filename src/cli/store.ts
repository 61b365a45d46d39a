/** The CLI's store access: the configured store (PostgreSQL at DATABASE_URL, else SQLite in DATA_DIR), opened for one command and closed after it. */
import type { Config } from '../config.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/types.ts';

export async function withStore<T>(config: Config, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
