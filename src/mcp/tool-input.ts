/**
 * A tool's zod input schema, both ways: the JSON Schema a client is shown (`tools/list`) and the
 * validation of the arguments a client sends (`tools/call`).
 *
 * MCP 2025-11-25 "Tools › Error Handling": input validation errors are tool execution errors
 * (`isError: true`), so that the model can read what was wrong and correct its call.
 */
import { z } from 'zod';
import { formatIssuePath } from '../parse/options.ts';

export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/**
 * The JSON Schema of the input a client may send (`io: 'input'`: defaults are shown, fields with
 * a default are optional). Draft 7, as the SDK's own McpServer emits it.
 */
export function inputJsonSchema(schema: z.ZodObject): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

type Issue = z.core.$ZodIssue;

/** A failed union names the branch the value aimed at (the one not failing on its type alone). */
function explain(issue: Issue): { path: PropertyKey[]; message: string }[] {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const aimed = issue.errors.find((branch) => !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0));
    if (aimed) return aimed.flatMap((i) => explain({ ...i, path: [...issue.path, ...i.path] } as Issue));
  }
  return [{ path: [...issue.path], message: issue.message }];
}

/** `Invalid arguments for parse: \`maxChars\`: …; \`formats[0].type\`: …` */
export function describeInputError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.flatMap(explain).map(({ path, message }) => `\`${formatIssuePath(path) || 'arguments'}\`: ${message}`);
  return `Invalid arguments for ${toolName}: ${problems.join('; ')}`;
}
