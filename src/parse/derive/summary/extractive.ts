/**
 * The offline summary (issue 14): sentences of the document itself, ranked, in the document's
 * language. Not built yet: the caller turns the error into its NOT_CONFIGURED answer.
 */
import { ServiceError } from '../../../errors.ts';
import type { ReadResult } from '../../document.ts';

export interface ExtractiveSummaryOptions {
  /** Upper bound on the summary's length in characters. */
  maxChars?: number;
}

export function extractiveSummary(_read: ReadResult, _options: ExtractiveSummaryOptions = {}): string {
  throw new ServiceError('NOT_CONFIGURED', 'The offline summary is not built yet: configure an LLM (OPENAI_BASE_URL or OLLAMA_BASE_URL, and MODEL_NAME).');
}
