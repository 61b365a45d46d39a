/**
 * The `summary` format (docs/llm.md): abstractive through the LLM when one is configured, else the
 * local extractive summary with a warning saying so and what to set. Runs after redactPII, on the
 * redacted text.
 */
import { LLM_VARIABLES, summarize, type LlmRun } from '../../../llm/index.ts';
import type { ReadResult } from '../../document.ts';
import { extractiveSummary } from './extractive.ts';

/** Bound of the offline summary, about the length the LLM is asked for. */
const OFFLINE_MAX_CHARS = 1_000;

export const OFFLINE_SUMMARY_WARNING = `summary: no LLM is configured, so this summary is extractive (the document's own key sentences, ranked offline). For an abstractive summary, the operator sets ${LLM_VARIABLES}.`;

export interface DerivedSummary {
  summary: string;
  warning?: string;
}

/** `markdown`: the document as the LLM reads it (the markdown writer's output of the redacted document). */
export async function deriveSummary(read: ReadResult, markdown: string, llm: LlmRun | undefined): Promise<DerivedSummary> {
  if (llm) return { summary: await summarize(llm, markdown) };
  const summary = extractiveSummary(read, { maxChars: OFFLINE_MAX_CHARS });
  // Tables, code or a few words only: nothing the offline ranking can quote.
  if (summary === '') return { summary, warning: `summary: no LLM is configured and the document has no running-text sentence to quote, so the offline summary is empty. For an abstractive summary, the operator sets ${LLM_VARIABLES}.` };
  return { summary, warning: OFFLINE_SUMMARY_WARNING };
}
