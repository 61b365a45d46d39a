/**
 * Sources per field (docs/agent.md "Sources"): with `showSources: true` — the name extract uses;
 * the Firecrawl SDK's agent types name none — an answer carries `sources: {field: [page URLs]}`
 * for its top-level fields. Extract knows them by construction (each page is extracted on its
 * own); the agent's answer is the model's, so after it the model is asked once, without tools,
 * which of the pages it read back each field. A URL it names that the job did not read is
 * dropped: a page cannot make the agent cite an address it never visited. A field the model
 * backs with no read page gets the read pages whose text holds its value (its strings and
 * numbers), else `[]`.
 */
import { chatWithTools, checkAnswer, type LlmRun, type ToolChatMessage } from '../llm/index.ts';
import type { Budgets, Spent, Trace } from './trace.ts';

export interface SourceDeps {
  run: LlmRun;
  budgets: Budgets;
  spent: Spent;
  trace: Trace;
  signal: AbortSignal;
  onStep(): Promise<void>;
}

/** The top-level fields of an answer that hold something. */
export function topFields(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k]) => k);
}

const MAX_LEAVES = 50;

/** The strings (3 characters or more) and numbers in a value, as lower-case text. */
function leaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length >= MAX_LEAVES || depth > 4) return out;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase().replace(/\s+/g, ' ');
    if (text.length >= 3) out.push(text);
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    out.push(String(value));
  } else if (Array.isArray(value)) {
    for (const v of value) leaves(v, out, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) leaves(v, out, depth + 1);
  }
  return out;
}

/** The read pages whose text holds one of the field's values. */
function pagesHolding(value: unknown, read: ReadonlyMap<string, string>): string[] {
  const wanted = leaves(value);
  if (wanted.length === 0) return [];
  const found: string[] = [];
  for (const [url, text] of read) {
    const page = text.toLowerCase().replace(/\s+/g, ' ');
    if (wanted.some((w) => page.includes(w))) found.push(url);
  }
  return found;
}

/** Asks the model which read pages back each field; undefined when it gives no usable answer. */
async function askModel(fields: string[], answer: unknown, read: ReadonlyMap<string, string>, messages: ToolChatMessage[], deps: SourceDeps): Promise<Record<string, unknown> | undefined> {
  if (deps.spent.tokens >= deps.budgets.maxTokens) return undefined;
  deps.signal.throwIfAborted();
  const question = [
    `Which of the pages you read back each top-level field of your answer (${fields.map((f) => JSON.stringify(f)).join(', ')})?`,
    `The pages you read:\n${[...read.keys()].map((u) => `- ${u}`).join('\n')}`,
    'Answer with JSON only: an object whose keys are those fields and whose values are arrays of those page URLs (an empty array when no page backs a field).',
  ].join('\n\n');
  const turn = await chatWithTools(deps.run, [...messages, { role: 'assistant', content: JSON.stringify(answer) }, { role: 'user', content: question }], []);
  deps.spent.steps++;
  deps.trace.emit({ type: 'progress.reported', phase: 'finalizing', message: `LLM turn ${deps.spent.steps}: the sources of each field`, tokens: turn.promptTokens + turn.completionTokens });
  await deps.onStep();
  const checked = checkAnswer(turn.content ?? '', undefined, false);
  return checked.json && typeof checked.value === 'object' && checked.value !== null && !Array.isArray(checked.value) ? (checked.value as Record<string, unknown>) : undefined;
}

/** `{field: [URLs of read pages]}` for each top-level field of the answer. */
export async function citeSources(answer: unknown, read: ReadonlyMap<string, string>, messages: ToolChatMessage[], deps: SourceDeps): Promise<Record<string, string[]>> {
  const fields = topFields(answer);
  const sources: Record<string, string[]> = {};
  if (fields.length === 0) return sources;
  const cited = read.size > 0 ? await askModel(fields, answer, read, messages, deps) : undefined;
  const values = answer as Record<string, unknown>;
  for (const field of fields) {
    const named = cited?.[field];
    const kept = Array.isArray(named) ? [...new Set(named.filter((u): u is string => typeof u === 'string' && read.has(u)))] : [];
    sources[field] = kept.length > 0 ? kept : pagesHolding(values[field], read);
  }
  return sources;
}
