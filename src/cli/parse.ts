/** `folio parse <file>`: the core in this process, no server. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isServiceError } from '../errors.ts';
import { parseCommandArgs, stringOption } from './args.ts';
import type { Progress } from '../parse/document.ts';
import { CliFailure, EXIT_OK, UsageError, type CliIo } from './io.ts';
import type { SourceLimits } from '../parse/limits.ts';
import type { LlmSettings } from '../llm/index.ts';

/** LLM calls (`--formats summary`) end within the longest request timeout: a model that hangs does not hang the command. */
const LLM_BUDGET_MS = 300_000;

/** `ocrLanguages` reads FOLIO_OCR_LANGUAGES (through config.ts) only when the arguments are good. */
export async function runParse(
  args: string[],
  io: CliIo,
  ocrLanguages: () => string = () => 'eng',
  sourceLimits: () => Partial<SourceLimits> = () => ({}),
  llmSettings: () => LlmSettings | undefined = () => undefined,
): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    { formats: { type: 'string' }, json: { type: 'boolean' }, mode: { type: 'string' }, 'max-pages': { type: 'string' }, progress: { type: 'boolean' } },
    1,
  );
  const file = parsed.positionals[0];
  if (!file) throw new UsageError('parse needs a file');
  const json = parsed.values.json === true;
  const formatList = stringOption(parsed, 'formats');
  const formats = formatList === undefined ? ['markdown'] : formatList.split(',').map((f) => f.trim()).filter(Boolean);
  if (formats.length === 0) throw new UsageError('--formats needs at least one format, e.g. --formats markdown,links');
  if (!json && !formats.includes('markdown')) {
    throw new UsageError('without --json only markdown is printed: add markdown to --formats, or add --json');
  }

  const mode = stringOption(parsed, 'mode');
  if (mode !== undefined && mode !== 'fast' && mode !== 'auto' && mode !== 'ocr') {
    throw new UsageError(`--mode must be fast, auto or ocr (got '${mode}')`);
  }
  const maxPagesText = stringOption(parsed, 'max-pages');
  const maxPages = maxPagesText === undefined ? undefined : Number(maxPagesText);
  if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1 && maxPages <= 10_000)) {
    throw new UsageError(`--max-pages must be a whole number from 1 to 10000 (got '${maxPagesText ?? ''}')`);
  }
  const progress = parsed.values.progress === true || io.stderrIsTTY === true;

  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : 'unreadable';
    throw new CliFailure(`cannot read '${file}': ${reason}`);
  }

  const languages = ocrLanguages();
  const limits = sourceLimits();
  const llm = llmSettings();
  // The core is loaded once the arguments are known to be good.
  const [{ parse }, { parseOptions }] = await Promise.all([import('../parse/index.ts'), import('../parse/options.ts')]);
  try {
    const pdf = mode !== undefined || maxPages !== undefined ? [{ type: 'pdf', ...(mode ? { mode } : {}), ...(maxPages ? { maxPages } : {}) }] : undefined;
    const options = parseOptions({ formats, ...(pdf ? { parsers: pdf } : {}) });
    const line = progressLine(io, progress);
    let data;
    try {
      // No request timeout on the command line: every page is read (docs/pdf-ocr.md).
      data = await parse({ bytes, filename: path.basename(file) }, options, {
        onProgress: line.update,
        deadline: Number.POSITIVE_INFINITY,
        ocr: { languages },
        limits,
        ...(llm ? { llm, endsAt: Date.now() + LLM_BUDGET_MS } : {}),
      });
    } finally {
      line.end();
    }
    if (json) io.stdout(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
    else io.stdout(data.markdown?.endsWith('\n') ? data.markdown : `${data.markdown ?? ''}\n`);
    return EXIT_OK;
  } catch (err) {
    if (isServiceError(err)) throw new CliFailure(`${err.code}: ${err.message}`);
    throw err;
  }
}

/**
 * "page 3 of 10" on stderr while a long document parses: rewritten in place on a terminal,
 * one line per step with --progress otherwise (a log file reads better that way).
 */
function progressLine(io: CliIo, enabled: boolean): { update: (p: Progress) => void; end: () => void } {
  let shown = false;
  return {
    update(p) {
      if (!enabled) return;
      const text = `${p.unit} ${p.done} of ${p.total}`;
      if (io.stderrIsTTY === true) io.stderr(`\r${text}\u001b[K`);
      else io.stderr(`${text}\n`);
      shown = true;
    },
    end() {
      if (shown && io.stderrIsTTY === true) io.stderr('\n');
    },
  };
}
