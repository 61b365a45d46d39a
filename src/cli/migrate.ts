/**
 * `folio migrate` (docs/scale-out.md): applies the store's missing schema migrations —
 * PostgreSQL at DATABASE_URL, else SQLite in DATA_DIR — and prints the version reached. `serve`
 * does the same at start; running it first lets a deployment migrate once before starting N instances.
 */
import type { Config } from '../config.ts';
import { migrateStore } from '../store/open.ts';
import { CliFailure, EXIT_OK, UsageError, type CliIo } from './io.ts';

export async function runMigrate(args: string[], config: Config, io: CliIo): Promise<number> {
  if (args.length > 0) throw new UsageError('migrate takes no arguments (it migrates the store of DATABASE_URL, else of DATA_DIR)');
  let result: Awaited<ReturnType<typeof migrateStore>>;
  try {
    result = await migrateStore(config);
  } catch (err) {
    // pg's messages name the host and the failure, never the password of the URL.
    const detail = err instanceof Error ? err.message : String(err);
    throw new CliFailure(`could not migrate the ${config.databaseUrl ? 'PostgreSQL database at DATABASE_URL' : `SQLite store in ${config.dataDir}`}: ${detail}`);
  }
  const applied = result.applied.length > 0 ? `applied ${result.applied.join(', ')}` : 'nothing to apply';
  io.stdout(`${result.engine}: schema version ${result.version} (${applied})\n`);
  return EXIT_OK;
}
