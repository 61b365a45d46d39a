/**
 * CLI dispatch: `folio serve | mcp | keys … | teams … | users … | tokens … | migrate | parse … | help`. Exit codes: 0 ok, 1 failure, 2 usage.
 * Each command's module is loaded only when it runs: `keys` does not pay for the parsers.
 */
import { loadConfig, type Config } from '../config.ts';
import { CliFailure, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io.ts';
import { USAGE } from './usage.ts';

export async function runCli(argv: string[], io: CliIo, configure: () => Config = loadConfig): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        if (args.length > 0) throw new UsageError(`serve takes no arguments (configure it with PORT, HOST, DATA_DIR)`);
        return await (await import('./serve.ts')).runServe(configure());
      case 'mcp':
        return await (await import('./mcp.ts')).runMcp(args, configure());
      case 'keys':
        return await (await import('./keys.ts')).runKeys(args, configure(), io);
      case 'teams':
        return await (await import('./teams.ts')).runTeams(args, configure(), io);
      case 'users':
        return await (await import('./users.ts')).runUsers(args, configure(), io);
      case 'migrate':
        return await (await import('./migrate.ts')).runMigrate(args, configure(), io);
      case 'tokens':
        return await (await import('./tokens.ts')).runTokens(args, configure(), io);
      case 'parse':
        return await (await import('./parse.ts')).runParse(
          args,
          io,
          () => configure().ocrLanguages,
          () => configure().sourceLimits,
          () => configure().llm,
        );
      case 'help':
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return EXIT_OK;
      case undefined:
        throw new UsageError('no command given');
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`folio: ${err.message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    if (err instanceof CliFailure) {
      io.stderr(`folio: ${err.message}\n`);
      return EXIT_FAILURE;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`folio: ${message}\n`);
    return EXIT_FAILURE;
  }
}
