/**
 * The parse runner every door calls (HTTP routes, MCP tools, scrape): `parse()` behind whatever
 * runs it. `serve` injects the
 * child-process pool (src/limits/parse-pool.ts), which enforces `timeout` and a memory cap by
 * killing the process; `inProcessRunner` runs parse() in this process (tests, the CLI
 * `folio parse`, stdio MCP without FOLIO_API_URL) and enforces `timeout` cooperatively through the
 * abort signal, with no memory cap beyond Node's own heap limit (docs/parse-isolation.md).
 */
import { timeoutError } from './parse-pool.ts';
import { parse, type LlmSettings, type LlmUsage, type OcrSettings, type ParseData, type SourceLimits, type ParseInput } from '../parse/index.ts';
import type { Progress } from '../parse/document.ts';
import type { ParseOptions } from '../parse/options.ts';

export interface RunOptions {
  /** Aborted when the client goes away: the parse may be stopped. */
  signal?: AbortSignal;
  /** Pages (or sheets) done of total, for progress lines and MCP progress notifications. */
  onProgress?: (progress: Progress) => void;
  /** Tokens each LLM call of the parse spent (`summary`, `json`): the accounts work records them per team. */
  onLlmUsage?: (usage: LlmUsage) => void;
  /**
   * The team the parse is for: its concurrency limit and fair-queue turn (src/limits/teams).
   * Absent for local callers (the CLI, stdio MCP): no team limits.
   */
  teamId?: string;
}

export type ParseRunner = (input: ParseInput, options: ParseOptions, run?: RunOptions) => Promise<ParseData>;

export function inProcessRunner(settings: { ocr?: OcrSettings; limits?: Partial<SourceLimits>; llm?: LlmSettings } = {}): ParseRunner {
  return async (input, options, run = {}) => {
    const endsAt = Date.now() + options.timeout;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeoutError(options.timeout)), options.timeout);
    const onClientAbort = () => controller.abort(run.signal?.reason);
    run.signal?.addEventListener('abort', onClientAbort, { once: true });
    try {
      const result = parse(input, options, {
        signal: controller.signal,
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
        ...(settings.ocr ? { ocr: settings.ocr } : {}),
        ...(settings.limits ? { limits: settings.limits } : {}),
        ...(settings.llm ? { llm: settings.llm } : {}),
        ...(run.onLlmUsage ? { onLlmUsage: run.onLlmUsage } : {}),
        endsAt,
      });
      result.catch(() => undefined);
      // parse() checks the signal between units; the race answers on time even inside one unit.
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      return await Promise.race([result, aborted]);
    } finally {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onClientAbort);
    }
  };
}
