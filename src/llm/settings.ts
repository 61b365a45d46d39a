/** What the LLM subsystem is configured with (src/config.ts builds it from the environment; docs/llm.md). */

export type LlmProviderKind = 'openai' | 'ollama';

/** How structured output is asked for: `auto` probes the server once per process. */
export type StructuredOutputMode = 'auto' | 'json_schema' | 'json_object' | 'tool';
export type StructuredStrategy = Exclude<StructuredOutputMode, 'auto'>;

export interface LlmSettings {
  provider: LlmProviderKind;
  /** Without a trailing slash: OpenAI-compatible `…/v1`, or Ollama's `http://host:11434`. */
  baseUrl: string;
  /** OpenAI-compatible only; sent as `Authorization: Bearer` and nowhere else. */
  apiKey?: string;
  model: string;
  structuredOutput: StructuredOutputMode;
  /** LLM calls in flight at once in this process. */
  maxConcurrent: number;
  /** The model's context window in (estimated) tokens; longer documents are chunked. */
  contextTokens: number;
  /** Retries of one call on 429, 5xx and connection errors. */
  maxRetries: number;
  /** false: the provider must not see the text of `zeroDataRetention` requests. */
  zdr: boolean;
}

/** Tokens one parse spent, reported per call (the accounts work records them per team). */
export interface LlmUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/** What one request hands the LLM subsystem besides the settings. */
export interface LlmRun {
  settings: LlmSettings;
  /** Epoch ms by which every call must have ended (the request's `timeout`). */
  deadline: number;
  signal?: AbortSignal;
  onUsage?: (usage: LlmUsage) => void;
}
