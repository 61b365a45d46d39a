/**
 * Personal data found by the model (redactPII `accurate` and `aggressive`, docs/pii.md): the model
 * names the spans by their exact text and type; folio locates every occurrence of that text in
 * the document itself, so the model never rewrites a byte of it, and a text it invented or
 * altered matches nothing and is dropped.
 */
import { chunkBudget } from './budget.ts';
import { DATA_RULE, documentBlock, type ChatMessage } from './messages.ts';
import type { LlmRun } from './settings.ts';
import { structuredCall } from './structured.ts';
import { chunkText } from './tokens.ts';

export interface PiiEntity {
  /** The span's text exactly as it appears in the document. */
  text: string;
  /** A redactPII entity group: PERSON, EMAIL, PHONE, LOCATION, FINANCIAL, SECRET. */
  group: string;
}

/** `precision` for mode accurate; `recall` for the model's PERSON/LOCATION spans in mode aggressive. */
export type PiiTuning = 'precision' | 'recall';

const GROUP_MEANING: Record<string, string> = {
  PERSON: "a person's name (given name, surname or both; not an organisation, product or job title)",
  LOCATION: 'a place that can locate a person: street address, postcode, city, region or country named as where someone lives, works or is',
  EMAIL: 'an email address',
  PHONE: 'a phone or fax number',
  FINANCIAL: 'a payment card, bank account, IBAN, routing or sort code, tax or national identity number',
  SECRET: 'a password, API key, access token, private key or other credential',
};

const TUNING: Record<PiiTuning, string> = {
  precision: 'Report only spans you are sure are personal data of the listed types; when in doubt, leave a span out. Do not report generic words, job titles, organisations, brands, products, or public landmarks named only as topics.',
  recall: 'Report every span that may be personal data of the listed types, including names and places you are unsure about.',
};

function schemaFor(groups: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      entities: {
        type: 'array',
        items: {
          type: 'object',
          properties: { text: { type: 'string' }, type: { type: 'string', enum: [...groups] } },
          required: ['text', 'type'],
          additionalProperties: false,
        },
      },
    },
    required: ['entities'],
    additionalProperties: false,
  };
}

function system(groups: readonly string[], tuning: PiiTuning): string {
  const types = groups.map((g) => `${g}: ${GROUP_MEANING[g] ?? g}`).join('\n');
  return `You find personal data in documents. ${DATA_RULE}\n\nTypes:\n${types}\n\n${TUNING[tuning]} Copy each span's text exactly as it appears in the document, character for character: do not correct, translate, complete or reformat it. Report a span once even if it occurs several times. Answer with JSON only: {"entities": [{"text": …, "type": …}]}.`;
}

/** The personal data the model finds in `text`, chunk by chunk. `problems`: chunks whose answer could not be used. */
export async function findPiiEntities(run: LlmRun, text: string, groups: readonly string[], tuning: PiiTuning): Promise<{ entities: PiiEntity[]; problems: string[] }> {
  if (text.trim() === '' || groups.length === 0) return { entities: [], problems: [] };
  const sys = system(groups, tuning);
  const schema = schemaFor(groups);
  const chunks = chunkText(text, chunkBudget(run.settings, sys));
  const answers = await Promise.all(
    chunks.map((c, i) => {
      const messages: ChatMessage[] = [
        { role: 'system', content: sys },
        { role: 'user', content: documentBlock(c, chunks.length === 1 ? 'kind="whole"' : `part="${i + 1} of ${chunks.length}"`) },
      ];
      return structuredCall(run, { messages, schema });
    }),
  );
  const entities: PiiEntity[] = [];
  const problems: string[] = [];
  answers.forEach((a, i) => {
    const list = (a.value as { entities?: unknown } | null)?.entities;
    if (!Array.isArray(list)) {
      problems.push(`part ${i + 1} of ${chunks.length}: ${a.problems.join('; ') || 'no entities list'}`);
      return;
    }
    for (const e of list as { text?: unknown; type?: unknown }[]) {
      if (typeof e?.text === 'string' && typeof e.type === 'string' && groups.includes(e.type) && e.text.trim().length >= 2) entities.push({ text: e.text.trim(), group: e.type });
    }
  });
  return { entities, problems };
}

/** Every occurrence of every entity's exact text in `text`, as spans; texts not in it are dropped. */
export function locateEntities(text: string, entities: readonly PiiEntity[]): { start: number; end: number; group: string }[] {
  const spans: { start: number; end: number; group: string }[] = [];
  const seen = new Set<string>();
  for (const e of entities) {
    const key = `${e.group}\u0000${e.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (let at = text.indexOf(e.text); at >= 0; at = text.indexOf(e.text, at + e.text.length)) {
      // Whole words only: "Ann" must not redact the middle of "Annual".
      const before = at > 0 ? text[at - 1] ?? '' : '';
      const after = text[at + e.text.length] ?? '';
      if (/[\p{L}\p{N}]/u.test(before) && /^[\p{L}\p{N}]/u.test(e.text)) continue;
      if (/[\p{L}\p{N}]/u.test(after) && /[\p{L}\p{N}]$/u.test(e.text)) continue;
      spans.push({ start: at, end: at + e.text.length, group: e.group });
    }
  }
  return spans;
}
