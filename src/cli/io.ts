/** What a CLI command writes to, so that commands can run in tests without a process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
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
