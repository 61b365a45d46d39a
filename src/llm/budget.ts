/** How much page text one call may carry: the context window less the answer's share and the prompt around the text. */
import type { LlmSettings } from './settings.ts';
import { estimateTokens } from './tokens.ts';

/** Floor of a chunk, so a tiny LLM_CONTEXT_TOKENS still makes progress. */
const MIN_CHUNK_TOKENS = 256;

export function chunkBudget(settings: LlmSettings, promptAround: string): number {
  const answerReserve = Math.min(2048, Math.floor(settings.contextTokens / 4));
  return Math.max(MIN_CHUNK_TOKENS, settings.contextTokens - answerReserve - estimateTokens(promptAround) - 64);
}
