/**
 * Structured output by capability (docs/llm.md): `response_format: json_schema`, else
 * `json_object` with the schema in the prompt, else a forced tool call. With
 * LLM_STRUCTURED_OUTPUT=auto the server is probed once per process (a tiny request per way, no
 * page text) and the first way it accepts and answers with JSON is kept. Every answer is checked
 * with ajv against the user's schema; one repair round sends the errors back; what still fails
 * is returned as `problems` for the caller's warning, never thrown.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ServiceError } from '../errors.ts';
import type { ChatMessage } from './messages.ts';
import { chat } from './provider.ts';
import type { LlmRun, StructuredStrategy } from './settings.ts';
import { origin, ProviderHttpError } from './transport.ts';

const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
/** Schemas declaring draft 2020-12 (zod 4's toJSONSchema, which the Firecrawl SDK uses for zod schemas). */
const ajv2020 = new Ajv2020({ strict: false, allErrors: true, logger: false });
const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = (typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? ajv2020 : ajv).compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/** The property a non-object schema is wrapped in: OpenAI's structured outputs and tools take an object root only. */
const WRAP_KEY = 'value';

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
}

/** The schema sent on the wire, and whether the answer comes wrapped. */
export function wireSchema(schema: Record<string, unknown>): { schema: Record<string, unknown>; wrapped: boolean } {
  // `$schema` names the draft for our validator; structured-output endpoints do not take it.
  const { $schema: _draft, ...bare } = schema;
  if (isObjectSchema(bare)) return { schema: bare, wrapped: false };
  return { schema: { type: 'object', properties: { [WRAP_KEY]: bare }, required: [WRAP_KEY], additionalProperties: false }, wrapped: true };
}

const PROBE_SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
const PROBE_MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You answer with JSON only.' },
  { role: 'user', content: 'Answer with the JSON object {"ok": true}.' },
];
const PROBE_ORDER: StructuredStrategy[] = ['json_schema', 'json_object', 'tool'];

const probes = new Map<string, Promise<StructuredStrategy>>();

/** A 4xx that means "this server does not take that request shape" (not a bad key, a missing model or a rate limit). */
function refusesShape(err: unknown): boolean {
  return err instanceof ProviderHttpError && err.status >= 400 && err.status < 500 && ![401, 403, 404].includes(err.status);
}

/** A provider 4xx that reached the caller: 502 naming what to check. */
export function providerFailure(run: LlmRun, err: unknown): unknown {
  if (!(err instanceof ProviderHttpError)) return err;
  const hint =
    err.status === 401 || err.status === 403
      ? ' Check OPENAI_API_KEY.'
      : err.status === 404
        ? ` Check ${run.settings.provider === 'ollama' ? 'OLLAMA_BASE_URL' : 'OPENAI_BASE_URL'} and MODEL_NAME.`
        : '';
  return new ServiceError('FETCH_FAILED', `The LLM at ${origin(run.settings)} (MODEL_NAME ${run.settings.model}) refused the request with HTTP ${err.status}${err.message ? `: ${err.message}` : ''}.${hint}`);
}

async function probe(run: LlmRun): Promise<StructuredStrategy> {
  for (const strategy of PROBE_ORDER) {
    try {
      const text = await chat(run, PROBE_MESSAGES, { kind: 'json', strategy, schema: PROBE_SCHEMA });
      const parsed = parseJsonAnswer(text);
      if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) return strategy;
    } catch (err) {
      if (!refusesShape(err)) throw err;
    }
  }
  // Nothing answered JSON: the schema in the prompt is the least any chat model understands.
  return 'json_object';
}

/** The strategy for this server: configured, or probed once per process and base URL and model. */
export function strategyFor(run: LlmRun): Promise<StructuredStrategy> {
  const { settings } = run;
  if (settings.provider === 'ollama') return Promise.resolve('json_schema'); // native `format` takes the schema
  if (settings.structuredOutput !== 'auto') return Promise.resolve(settings.structuredOutput);
  const key = `${settings.baseUrl}\n${settings.model}`;
  let found = probes.get(key);
  if (!found) {
    found = probe(run);
    probes.set(key, found);
    // A failed probe (server down, timeout) is not remembered: the next request probes again.
    found.catch(() => probes.delete(key));
  }
  return found;
}

/** Forgets probed strategies (tests). */
export function forgetProbes(): void {
  probes.clear();
}

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

/** The answer as JSON: a ```json fence around it is tolerated, prose around it is not. */
export function parseJsonAnswer(text: string): Parsed {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (err) {
    const reason = err instanceof SyntaxError ? err.message : 'unreadable';
    return { ok: false, problem: `the answer is not valid JSON (${reason})` };
  }
}

export interface Checked {
  value: unknown;
  /** Empty when the value is valid. */
  problems: string[];
  /** The answer parsed as JSON at all. */
  json: boolean;
}

/** Parses, unwraps and validates one answer. */
export function checkAnswer(text: string, schema: Record<string, unknown> | undefined, wrapped: boolean): Checked {
  const parsed = parseJsonAnswer(text);
  if (!parsed.ok) return { value: null, problems: [parsed.problem], json: false };
  let value = parsed.value;
  if (wrapped) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && WRAP_KEY in value) value = (value as Record<string, unknown>)[WRAP_KEY];
  }
  if (!schema) {
    return typeof value === 'object' && value !== null ? { value, problems: [], json: true } : { value, problems: ['the answer is not a JSON object'], json: true };
  }
  const validate = validatorFor(schema);
  if (validate(value)) return { value, problems: [], json: true };
  const problems = (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { value, problems, json: true };
}

export interface StructuredRequest {
  messages: ChatMessage[];
  /** The schema answers are validated against; undefined: any JSON object. */
  schema?: Record<string, unknown>;
}

/** One structured call with its repair round. */
export async function structuredCall(run: LlmRun, req: StructuredRequest): Promise<Checked> {
  try {
    const strategy = await strategyFor(run);
    const wire = req.schema ? wireSchema(req.schema) : undefined;
    const shape = { kind: 'json' as const, strategy, ...(wire ? { schema: wire.schema } : {}) };
    const first = await chat(run, req.messages, shape);
    const checked = checkAnswer(first, req.schema, wire?.wrapped ?? false);
    if (checked.problems.length === 0) return checked;
    const repair: ChatMessage[] = [
      ...req.messages,
      { role: 'assistant', content: first },
      {
        role: 'user',
        content: `Your answer does not match the required JSON Schema: ${checked.problems.join('; ')}. Answer again with only the corrected JSON${wire?.wrapped ? ` (the object {"${WRAP_KEY}": …})` : ''}, using only what the document says.`,
      },
    ];
    const second = checkAnswer(await chat(run, repair, shape), req.schema, wire?.wrapped ?? false);
    if (second.problems.length === 0 || second.json || !checked.json) return second;
    // The repair broke the JSON itself: the first answer is the better one.
    return checked;
  } catch (err) {
    throw providerFailure(run, err);
  }
}
