/** What a CLI command writes to, so that commands can run in tests without a process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stderr is a terminal: progress is shown there (rewritten in place). */
  stderrIsTTY?: boolean;
}

/** Wrong arguments: exit code 2 with the usage text. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure the user can act on: its message goes to stderr, exit code 1. */
export class CliFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliFailure';
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A command's subcommands, in the order the usage messages name them. */
export type Subcommands = Record<string, (args: string[]) => Promise<number>>;

/** Runs `<command> <subcommand> …`; a missing or unknown subcommand is a UsageError naming the choices. */
export function runSubcommand(command: string, args: string[], subcommands: Subcommands): Promise<number> {
  const [sub, ...rest] = args;
  const names = Object.keys(subcommands);
  const choices = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}` : (names[0] ?? '');
  if (sub === undefined) throw new UsageError(`${command} needs a subcommand: ${choices}`);
  const run = Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
  if (!run) throw new UsageError(`unknown ${command} subcommand '${sub}' (expected ${choices})`);
  return run(rest);
}
