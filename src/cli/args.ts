/** Argument parsing on node:util parseArgs; its errors become usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseCommandArgs(args: string[], options: Options, maxPositionals: number): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : 'invalid arguments');
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals] ?? ''}'`);
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [k, v] of Object.entries(parsed.values)) {
    if (typeof v === 'string' || typeof v === 'boolean') values[k] = v;
  }
  return { values, positionals: parsed.positionals };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}
