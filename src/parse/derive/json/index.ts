/**
 * The `json` format (docs/llm.md): extraction by the LLM when one is configured (validated against
 * the schema, one repair round, what still fails in a warning), else the schema filled offline
 * from the document's own structure with a warning naming the fields left empty. What cannot be
 * served offline (a prompt without a schema, a schema nothing in the document matches) is 503
 * NOT_CONFIGURED naming the variables to set. Runs after redactPII, on the redacted text.
 */
import { ServiceError } from '../../../errors.ts';
import { extractJson, LLM_VARIABLES, type LlmRun } from '../../../llm/index.ts';
import type { ReadResult } from '../../document.ts';
import type { ParseFormat } from '../../options.ts';
import { offlineJson } from './offline.ts';

export type JsonFormat = Extract<ParseFormat, { type: 'json' }>;

export interface DerivedJson {
  json: unknown;
  warning?: string;
}

/** A request no offline path can serve is refused before the document is read. */
export function refuseJsonWithoutLlm(format: JsonFormat, llm: unknown): void {
  if (llm || format.schema) return;
  throw new ServiceError(
    'NOT_CONFIGURED',
    `The json format without a \`schema\` needs an LLM, and none is configured on this server. Add a JSON Schema to the format (it is then filled from the document's tables and key: value lines), or ask the operator to set ${LLM_VARIABLES}.`,
  );
}

function listed(items: string[], max = 20): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}

export async function deriveJson(read: ReadResult, markdown: string, format: JsonFormat, llm: LlmRun | undefined): Promise<DerivedJson> {
  if (llm) {
    const r = await extractJson(llm, markdown, { ...(format.prompt ? { prompt: format.prompt } : {}), ...(format.schema ? { schema: format.schema } : {}) });
    if (r.problems.length === 0) return { json: r.json };
    return { json: r.json, warning: `json: the model's answer does not fully match the schema after a repair round: ${listed(r.problems)}.` };
  }
  refuseJsonWithoutLlm(format, llm);
  const schema = format.schema as Record<string, unknown>;
  const filled = offlineJson(read, schema);
  if (!filled) {
    throw new ServiceError(
      'NOT_CONFIGURED',
      `Nothing in this document matches the json schema's fields offline (no table with matching columns, no matching "key: value" lines or metadata), and no LLM is configured to extract them. The operator can set ${LLM_VARIABLES}.`,
    );
  }
  if (filled.emptyFields.length === 0) return { json: filled.json };
  return {
    json: filled.json,
    warning: `json: filled offline from the document's structure (no LLM is configured); fields nothing in the document matched were left empty: ${listed(filled.emptyFields)}. For extraction by a model, the operator sets ${LLM_VARIABLES}.`,
  };
}
