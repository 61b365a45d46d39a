/**
 * Request bodies of the web operations (map, crawl) validated with zod into ServiceErrors whose
 * message names every offending field, as ParseOptions does.
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
