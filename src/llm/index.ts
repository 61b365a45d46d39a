/**
 * The LLM subsystem (docs/llm.md): one provider interface over OpenAI-compatible Chat Completions
 * and Ollama's native API, used by parse()'s derive step for `summary` and `json`. Reached only
 * through this file; it imports nothing of folio but the error type (test/architecture.test.ts).
 *
 * Nothing here logs, caches or stores what is sent or answered (only the probed structured-output
 * strategy of a server is remembered, which holds no request's text): `zeroDataRetention`
 * requests need nothing more, except with LLM_ZDR=false, where they are refused (assertZdrAllowed).
 */
import { ServiceError } from '../errors.ts';

export type { LlmRun, LlmSettings, LlmUsage, StructuredOutputMode, StructuredStrategy, LlmProviderKind } from './settings.ts';
export { summarize } from './summarize.ts';
export { extractJson, mergeExtractions, withoutRequired, type Extracted, type ExtractRequest } from './extract.ts';
export { estimateTokens, chunkText } from './tokens.ts';
export { planBrowserActions, BROWSER_ACTIONS_SCHEMA, type PlannedActions } from './browser-actions.ts';
export { findPiiEntities, locateEntities, type PiiEntity, type PiiTuning } from './pii.ts';
export { forgetProbes, checkAnswer, type Checked } from './structured.ts';
export { llmCallsInFlight } from './semaphore.ts';
export { providerMessage, retryAfterMs } from './transport.ts';
export { chatWithTools, type ToolCall, type ToolChatMessage, type ToolSpec, type ToolTurn } from './tool-chat.ts';
export { DATA_RULE, documentBlock } from './messages.ts';
import type { LlmSettings } from './settings.ts';

/** The variables that configure an LLM, for messages that tell an operator what to set. */
export const LLM_VARIABLES = 'OPENAI_BASE_URL (with OPENAI_API_KEY) and MODEL_NAME, or OLLAMA_BASE_URL and MODEL_NAME';

/**
 * A `zeroDataRetention` request that would send text to a provider marked not ZDR-safe
 * (LLM_ZDR=false) is refused before anything is sent.
 */
export function assertZdrAllowed(settings: LlmSettings, zeroDataRetention: boolean, what: string): void {
  if (!zeroDataRetention || settings.zdr) return;
  throw new ServiceError(
    'LLM_ZDR_REFUSED',
    `${what} needs the LLM, and this server's LLM is not cleared for zero data retention (LLM_ZDR=false), so the document's text is not sent to it. Send the request without \`zeroDataRetention\`, leave out ${what}, or ask the operator to set LLM_ZDR=true for a provider that keeps no data.`,
  );
}
