/** `folio parse <file>`: the core in this process, no server. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isServiceError } from '../errors.ts';
import { parseCommandArgs, stringOption } from './args.ts';
import { CliFailure, EXIT_OK, UsageError, type CliIo } from './io.ts';

export async function runParse(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { formats: { type: 'string' }, json: { type: 'boolean' } }, 1);
  const file = parsed.positionals[0];
  if (!file) throw new UsageError('parse needs a file');
  const json = parsed.values.json === true;
  const formatList = stringOption(parsed, 'formats');
  const formats = formatList === undefined ? ['markdown'] : formatList.split(',').map((f) => f.trim()).filter(Boolean);
  if (formats.length === 0) throw new UsageError('--formats needs at least one format, e.g. --formats markdown,links');
  if (!json && !formats.includes('markdown')) {
    throw new UsageError('without --json only markdown is printed: add markdown to --formats, or add --json');
  }

  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : 'unreadable';
    throw new CliFailure(`cannot read '${file}': ${reason}`);
  }

  // The core is loaded once the arguments are known to be good.
  const [{ parse }, { parseOptions }] = await Promise.all([import('../parse/index.ts'), import('../parse/options.ts')]);
  try {
    const options = parseOptions({ formats });
    const data = await parse({ bytes, filename: path.basename(file) }, options);
    if (json) io.stdout(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
    else io.stdout(data.markdown?.endsWith('\n') ? data.markdown : `${data.markdown ?? ''}\n`);
    return EXIT_OK;
  } catch (err) {
    if (isServiceError(err)) throw new CliFailure(`${err.code}: ${err.message}`);
    throw err;
  }
}
