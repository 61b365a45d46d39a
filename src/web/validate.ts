/**
 * Request bodies of the web operations (map, crawl) validated with zod into ServiceErrors whose
 * message names every offending field, as ParseOptions does; and the one rule for fields folio
 * does not know (docs/web.md "Compatibility"): they are ignored and named in a `warning`, never
 * refused, so that a newer Firecrawl client's new field does not break every call.
 */
import type { z } from 'zod';
import { ServiceError } from '../errors.ts';
import { formatIssuePath } from '../parse/options.ts';

export function parseBody<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ServiceError('BAD_REQUEST', `Invalid ${what} request: the body must be a JSON object.`);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `\`${formatIssuePath(i.path) || 'body'}\`: ${i.message}`);
  throw new ServiceError('BAD_REQUEST', `Invalid ${what} request: ${problems.join('; ')}`);
}

/**
 * The top-level keys of `body` that are not in `known`. Keys starting with `__` are Firecrawl's
 * internal and experimental switches (`__experimental_omce`, `__searchPreviewToken`, …): ignored
 * without a word, like the documented compatibility fields.
 */
export function unknownFields(body: unknown, known: Iterable<string>): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const knownSet = new Set(known);
  return Object.keys(body).filter((k) => !knownSet.has(k) && !k.startsWith('__'));
}

/** The warning for ignored unknown fields, or undefined when there are none. */
export function unknownFieldsWarning(fields: readonly string[], prefix = ''): string | undefined {
  if (fields.length === 0) return undefined;
  const names = fields.slice(0, 20).map((f) => `\`${prefix}${f}\``).join(', ');
  const more = fields.length > 20 ? ` and ${fields.length - 20} more` : '';
  return `Ignored ${fields.length === 1 ? 'field' : 'fields'} ${names}${more}: folio does not know ${fields.length === 1 ? 'it' : 'them'} (check the spelling; the accepted fields are listed in docs/web.md, "Compatibility").`;
}
