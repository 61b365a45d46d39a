/**
 * JSON extraction: one structured call when the document fits, else one per chunk (against the
 * schema with `required` lifted, so a chunk that lacks a field leaves it out instead of inventing
 * it) merged: objects field by field, the first non-empty value winning; arrays concatenated and
 * de-duplicated. The merged value is validated against the user's schema; what fails is a
 * problem for the warning.
 */
import { chunkBudget } from './budget.ts';
import { DATA_RULE, documentBlock, type ChatMessage } from './messages.ts';
import type { LlmRun } from './settings.ts';
import { checkAnswer, structuredCall } from './structured.ts';
import { chunkText } from './tokens.ts';

const SYSTEM = `You extract structured data from documents. ${DATA_RULE} Answer with JSON only. Use only values stated in the document; when the document does not give a value, leave the field out rather than guessing.`;

export interface ExtractRequest {
  prompt?: string;
  schema?: Record<string, unknown>;
}

export interface Extracted {
  json: unknown;
  /** What still fails after the repair round; empty when the value is valid. */
  problems: string[];
}

function task(req: ExtractRequest): string {
  const what = req.prompt?.trim()
    ? `Task from the user: ${req.prompt.trim()}`
    : req.schema
      ? 'Task: extract the data the JSON Schema describes.'
      : "Task: extract the document's main facts (what it is, who and what it names, dates, figures) as a JSON object.";
  const shape = req.schema ? `The answer must be JSON matching this JSON Schema:\n${JSON.stringify(req.schema)}` : 'Answer with one JSON object whose fields hold what the task asks for.';
  return `${what}\n\n${shape}`;
}

function messages(req: ExtractRequest, block: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${task(req)}\n\n${block}` },
  ];
}

/** A deep copy of the schema without `required`: what one chunk can be held to. */
export function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    // `required` as a keyword holds an array; a property *named* required holds a schema object.
    if (k === 'required' && Array.isArray(v)) continue;
    out[k] = withoutRequired(v);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
}

/** JSON with sorted keys: equal values, equal strings. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Two chunks' answers as one: see the file's comment. */
export function mergeExtractions(a: unknown, b: unknown): unknown {
  if (isEmpty(a)) return isEmpty(b) ? a : b;
  if (isEmpty(b)) return a;
  if (Array.isArray(a) && Array.isArray(b)) {
    const seen = new Set<string>();
    return [...a, ...b].filter((item) => {
      const key = canonical(item);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) out[key] = mergeExtractions(a[key], b[key]);
    return out;
  }
  return a;
}

export async function extractJson(run: LlmRun, text: string, req: ExtractRequest): Promise<Extracted> {
  if (text.trim() === '') return { json: null, problems: ['the document has no text to extract from'] };
  const budget = chunkBudget(run.settings, SYSTEM + task(req));
  const chunks = chunkText(text, budget);
  if (chunks.length === 1) {
    const r = await structuredCall(run, { messages: messages(req, documentBlock(text, 'kind="whole"')), ...(req.schema ? { schema: req.schema } : {}) });
    return { json: r.value, problems: r.problems };
  }
  const partSchema = req.schema ? (withoutRequired(req.schema) as Record<string, unknown>) : undefined;
  const parts = await Promise.all(
    chunks.map((c, i) => structuredCall(run, { messages: messages(req, documentBlock(c, `part="${i + 1} of ${chunks.length}"`)), ...(partSchema ? { schema: partSchema } : {}) })),
  );
  const problems: string[] = [];
  let merged: unknown = null;
  parts.forEach((p, i) => {
    if (!p.json) problems.push(`part ${i + 1} of ${chunks.length}: ${p.problems.join('; ')}`);
    else merged = mergeExtractions(merged, p.value);
  });
  const final = checkAnswer(JSON.stringify(merged), req.schema, false);
  return { json: merged, problems: [...problems, ...(merged === null ? [] : final.problems)] };
}
