/**
 * Tool calling (the agent's loop, docs/agent.md): one chat turn offering functions, answered with
 * either text or tool calls.
 * - OpenAI-compatible: POST {OPENAI_BASE_URL}/chat/completions with `tools`, the calls in
 *   `choices[0].message.tool_calls[]` (`id`, `function.name`, `function.arguments` as a JSON string);
 * - Ollama's native API: POST {OLLAMA_BASE_URL}/api/chat with `tools`, the calls in
 *   `message.tool_calls[]` (`function.name`, `function.arguments` as an object, no id).
 * The call passes the process's concurrency cap and reports its token usage like `chat()`.
 */
import { ServiceError } from '../errors.ts';
import { withSlot } from './semaphore.ts';
import type { LlmRun } from './settings.ts';
import { providerFailure } from './structured.ts';
import { estimateTokens } from './tokens.ts';
import { origin, postJson } from './transport.ts';

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
}

export type ToolChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface ToolTurn {
  /** Text of the answer (null when the model only called tools). */
  content: string | null;
  toolCalls: ToolCall[];
  promptTokens: number;
  completionTokens: number;
}

interface RawCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function toCalls(raw: unknown, turn: number): ToolCall[] {
  if (!Array.isArray(raw)) return [];
  return (raw as RawCall[]).map((c, i) => ({
    id: typeof c.id === 'string' && c.id !== '' ? c.id : `call_${turn}_${i}`,
    name: typeof c.function?.name === 'string' ? c.function.name : '',
    arguments: typeof c.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {}),
  }));
}

function ollamaMessages(messages: ToolChatMessage[]): unknown[] {
  return messages.map((m) => {
    if (m.role === 'assistant') {
      return {
        role: 'assistant',
        content: m.content ?? '',
        ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ function: { name: c.function.name, arguments: safeObject(c.function.arguments) } })) } : {}),
      };
    }
    if (m.role === 'tool') return { role: 'tool', content: m.content };
    return m;
  });
}

function safeObject(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

let turns = 0;

/** One turn of a tool-calling conversation. */
export async function chatWithTools(run: LlmRun, messages: ToolChatMessage[], tools: readonly ToolSpec[]): Promise<ToolTurn> {
  const { settings } = run;
  const turn = ++turns;
  try {
    return await withSlot(settings.maxConcurrent, run.signal, async () => {
      const post = { settings, deadline: run.deadline, ...(run.signal ? { signal: run.signal } : {}) };
      const wireTools = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
      let content: string | null;
      let calls: ToolCall[];
      let promptTokens: number | undefined;
      let completionTokens: number | undefined;
      if (settings.provider === 'ollama') {
        const raw = (await postJson(`${settings.baseUrl}/api/chat`, { model: settings.model, messages: ollamaMessages(messages), ...(wireTools.length > 0 ? { tools: wireTools } : {}), stream: false }, post)) as {
          message?: { content?: unknown; tool_calls?: unknown };
          prompt_eval_count?: unknown;
          eval_count?: unknown;
        };
        if (!raw?.message) throw shapeError(run, 'no `message`');
        content = typeof raw.message.content === 'string' ? raw.message.content : null;
        calls = toCalls(raw.message.tool_calls, turn);
        promptTokens = count(raw.prompt_eval_count);
        completionTokens = count(raw.eval_count);
      } else {
        const raw = (await postJson(`${settings.baseUrl}/chat/completions`, { model: settings.model, messages, ...(wireTools.length > 0 ? { tools: wireTools, tool_choice: 'auto' } : {}), stream: false }, post)) as {
          choices?: { message?: { content?: unknown; tool_calls?: unknown } }[];
          usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
        };
        const message = raw?.choices?.[0]?.message;
        if (!message) throw shapeError(run, 'no `choices[0].message`');
        content = typeof message.content === 'string' ? message.content : null;
        calls = toCalls(message.tool_calls, turn);
        promptTokens = count(raw.usage?.prompt_tokens);
        completionTokens = count(raw.usage?.completion_tokens);
      }
      const usage = {
        model: settings.model,
        promptTokens: promptTokens ?? estimateTokens(JSON.stringify(messages)),
        completionTokens: completionTokens ?? estimateTokens((content ?? '') + JSON.stringify(calls)),
      };
      run.onUsage?.(usage);
      return { content, toolCalls: calls, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens };
    });
  } catch (err) {
    throw providerFailure(run, err);
  }
}

function shapeError(run: LlmRun, what: string): ServiceError {
  return new ServiceError('FETCH_FAILED', `The LLM at ${origin(run.settings)} (MODEL_NAME ${run.settings.model}) answered in an unexpected shape: ${what}.`);
}
