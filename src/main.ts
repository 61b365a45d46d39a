/** Entry point: `tsx src/main.ts <command>` (see src/cli/usage.ts). */
import { runCli } from './cli/index.ts';

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY,
});
process.exitCode = code;
