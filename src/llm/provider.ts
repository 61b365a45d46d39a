/**
 * The two wire formats behind one `chat()`:
 * - OpenAI-compatible Chat Completions: POST {OPENAI_BASE_URL}/chat/completions, the answer in
 *   `choices[0].message.content` or, for the tool strategy, `tool_calls[0].function.arguments`;
 * - Ollama's native API: POST {OLLAMA_BASE_URL}/api/chat with `stream: false` and `format` (a
 *   JSON Schema, or "json"), the answer in `message.content`.
 * Every call passes the process's concurrency cap and reports its token usage.
 */
import { ServiceError } from '../errors.ts';
import type { ChatMessage } from './messages.ts';
import { withSlot } from './semaphore.ts';
import type { LlmRun, StructuredStrategy } from './settings.ts';
import { estimateTokens } from './tokens.ts';
import { origin, postJson } from './transport.ts';

/** What the answer should be: prose, or JSON asked for in one of the structured-output ways. */
export type AnswerShape = { kind: 'text' } | { kind: 'json'; strategy: StructuredStrategy; schema?: Record<string, unknown> };

export const TOOL_NAME = 'record_extraction';

/** Whether OpenAI's strict mode can take this schema: every object closed and all its properties required. */
export function strictCompatible(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  if (Array.isArray(schema)) return schema.every(strictCompatible);
  const s = schema as Record<string, unknown>;
  if (s.type === 'object' || s.properties !== undefined) {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? (s.required as unknown[]) : [];
    if (s.additionalProperties !== false) return false;
    if (!Object.keys(props).every((k) => required.includes(k))) return false;
  }
  return Object.values(s).every(strictCompatible);
}

function openAiBody(model: string, messages: ChatMessage[], shape: AnswerShape): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages, stream: false };
  if (shape.kind === 'text') return body;
  const schema = shape.schema;
  if (shape.strategy === 'json_schema' && schema) {
    body.response_format = { type: 'json_schema', json_schema: { name: 'extraction', schema, strict: strictCompatible(schema) } };
  } else if (shape.strategy === 'tool') {
    body.tools = [{ type: 'function', function: { name: TOOL_NAME, description: 'Record the data extracted from the document.', parameters: schema ?? { type: 'object' } } }];
    body.tool_choice = { type: 'function', function: { name: TOOL_NAME } };
  } else {
    body.response_format = { type: 'json_object' };
  }
  return body;
}

interface Answer {
  text: string;
  promptTokens?: number;
  completionTokens?: number;
}

function bad(run: LlmRun, what: string): ServiceError {
  return new ServiceError('FETCH_FAILED', `The LLM at ${origin(run.settings)} (MODEL_NAME ${run.settings.model}) answered in an unexpected shape: ${what}.`);
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function openAiAnswer(run: LlmRun, raw: unknown, shape: AnswerShape): Answer {
  const r = raw as { choices?: { message?: { content?: unknown; tool_calls?: { function?: { arguments?: unknown } }[] } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
  const message = r?.choices?.[0]?.message;
  if (!message) throw bad(run, 'no `choices[0].message`');
  const args = message.tool_calls?.[0]?.function?.arguments;
  let text: string | undefined;
  if (shape.kind === 'json' && shape.strategy === 'tool' && args !== undefined) text = typeof args === 'string' ? args : JSON.stringify(args);
  else if (typeof message.content === 'string') text = message.content;
  else if (typeof args === 'string') text = args;
  if (text === undefined) throw bad(run, 'neither `content` nor a tool call');
  const promptTokens = count(r.usage?.prompt_tokens);
  const completionTokens = count(r.usage?.completion_tokens);
  return { text, ...(promptTokens !== undefined ? { promptTokens } : {}), ...(completionTokens !== undefined ? { completionTokens } : {}) };
}

function ollamaAnswer(run: LlmRun, raw: unknown): Answer {
  const r = raw as { message?: { content?: unknown }; prompt_eval_count?: unknown; eval_count?: unknown };
  if (typeof r?.message?.content !== 'string') throw bad(run, 'no `message.content`');
  const promptTokens = count(r.prompt_eval_count);
  const completionTokens = count(r.eval_count);
  return { text: r.message.content, ...(promptTokens !== undefined ? { promptTokens } : {}), ...(completionTokens !== undefined ? { completionTokens } : {}) };
}

/** One chat call: the answer's text (for the tool strategy, the call's arguments). */
export async function chat(run: LlmRun, messages: ChatMessage[], shape: AnswerShape): Promise<string> {
  const { settings } = run;
  return withSlot(settings.maxConcurrent, run.signal, async () => {
    const post = { settings, deadline: run.deadline, ...(run.signal ? { signal: run.signal } : {}) };
    let answer: Answer;
    if (settings.provider === 'ollama') {
      const body: Record<string, unknown> = { model: settings.model, messages, stream: false };
      if (shape.kind === 'json') body.format = shape.schema ?? 'json';
      answer = ollamaAnswer(run, await postJson(`${settings.baseUrl}/api/chat`, body, post));
    } else {
      answer = openAiAnswer(run, await postJson(`${settings.baseUrl}/chat/completions`, openAiBody(settings.model, messages, shape), post), shape);
    }
    // A server that reports no usage is charged the estimate.
    run.onUsage?.({
      model: settings.model,
      promptTokens: answer.promptTokens ?? estimateTokens(messages.map((m) => m.content).join('\n')),
      completionTokens: answer.completionTokens ?? estimateTokens(answer.text),
    });
    return answer.text;
  });
}
