/**
 * ParseOptions (interface-v2 "ParseOptions"): the one schema shared by the HTTP route, the CLI
 * and the MCP tools. Defaults and limits are the spec's. The top-level object drops keys it does
 * not know (the Firecrawl SDK sends scrape-only fields such as `fastMode`); the parser object,
 * RedactPIIOptions and AuditMetadata allow no extra properties, as the spec says.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import { isValidSelector } from './clean/selectors.ts';

export const PARSE_FORMAT_TYPES = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'] as const;
export type ParseFormatType = (typeof PARSE_FORMAT_TYPES)[number];

export const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export const MAX_TIMEOUT_MS = 300_000;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_PDF_PAGES = 10_000;

const ajv = new Ajv({ strict: false, validateSchema: true });
/** Draft 2020-12, which zod 4's toJSONSchema (the Firecrawl SDK's zod schemas) declares in `$schema`. */
const ajv2020 = new Ajv2020({ strict: false, validateSchema: true });

/** The validator for a schema's declared draft: 2020-12, else draft-07 (ajv's default). */
function ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  return typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? ajv2020 : ajv;
}

/** Deeper than this, a schema is refused before ajv (whose checks recurse) sees it. */
export const MAX_SCHEMA_DEPTH = 64;
/** Objects, arrays and values of one schema, all together. */
export const MAX_SCHEMA_NODES = 10_000;

/** What is wrong with the schema's shape (too deep, too big, containing itself), walked without recursion. */
function schemaShapeProblem(schema: Record<string, unknown>): string | undefined {
  const stack: { value: unknown; depth: number; path: Set<object> }[] = [{ value: schema, depth: 1, path: new Set() }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: Set<object> };
    if (++nodes > MAX_SCHEMA_NODES) return `it has more than ${MAX_SCHEMA_NODES} keywords and values`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) return `it nests more than ${MAX_SCHEMA_DEPTH} levels deep`;
    if (path.has(value)) return 'it contains itself';
    const inner = new Set(path).add(value);
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1, path: inner });
  }
  return undefined;
}

/** A JSON Schema is accepted when its shape is sane, ajv's meta-schema check passes and ajv can compile it. */
function jsonSchemaProblem(schema: Record<string, unknown>): string | undefined {
  const shape = schemaShapeProblem(schema);
  if (shape) return shape;
  const validator = ajvFor(schema);
  try {
    if (!validator.validateSchema(schema)) {
      return validator.errorsText(validator.errors, { dataVar: 'schema' });
    }
    validator.compile(schema);
    return undefined;
  } catch (err) {
    // Depth is bounded above, so only references that lead to each other without end recurse this far.
    if (err instanceof RangeError) return 'its `$ref`s lead to each other in a loop that never reaches a schema';
    return err instanceof Error ? err.message : 'it could not be compiled';
  }
}

const JsonFormat = z.object({
  type: z.literal('json'),
  prompt: z.string().max(10_000).optional(),
  schema: z
    .record(z.string(), z.unknown())
    .optional()
    .superRefine((schema, ctx) => {
      if (schema === undefined) return;
      const problem = jsonSchemaProblem(schema);
      if (problem) ctx.addIssue({ code: 'custom', message: `must be a valid JSON Schema (${problem})` });
    }),
});

const SimpleFormat = z.object({
  type: z.enum(['markdown', 'summary', 'html', 'rawHtml', 'links', 'images']),
});

const FormatItem = z.preprocess(
  // The SDKs send formats as bare strings ("markdown"); treat them as {type}.
  (v) => (typeof v === 'string' ? { type: v } : v),
  z
    .object({ type: z.string({ error: 'each format needs a string `type`' }) })
    .loose()
    .superRefine((item, ctx) => {
      if (!(PARSE_FORMAT_TYPES as readonly string[]).includes(item.type)) {
        ctx.addIssue({
          code: 'custom',
          path: ['type'],
          message: `parse does not support the '${item.type}' format; supported formats are ${PARSE_FORMAT_TYPES.join(', ')}`,
        });
      }
    })
    .pipe(z.union([JsonFormat, SimpleFormat])),
);

export type ParseFormat = z.infer<typeof JsonFormat> | z.infer<typeof SimpleFormat>;

const PdfParser = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(['fast', 'auto', 'ocr']).default('auto'),
  maxPages: z.number().int().min(1).max(MAX_PDF_PAGES).optional(),
});

const ParserItem = z.preprocess((v) => (typeof v === 'string' ? { type: v } : v), PdfParser);

const RedactPIIOptions = z.strictObject({
  mode: z.enum(['accurate', 'aggressive', 'fast']).default('accurate'),
  entities: z.array(z.enum(PII_ENTITIES)).min(1).optional(),
  replaceStyle: z.enum(['tag', 'mask', 'remove']).default('tag'),
});

const AuditMetadata = z.strictObject({
  username: z.string().max(1024),
});

const Selectors = z.array(z.string().min(1).max(1000)).max(100).superRefine((list, ctx) => {
  list.forEach((selector, i) => {
    if (!isValidSelector(selector)) {
      ctx.addIssue({ code: 'custom', path: [i], message: `'${selector}' is not a valid CSS selector` });
    }
  });
});

export const ParseOptionsSchema = z.object({
  auditMetadata: AuditMetadata.optional(),
  blockAds: z.boolean().default(true),
  excludeTags: Selectors.optional(),
  formats: z.array(FormatItem).max(20).default([{ type: 'markdown' }]),
  headers: z.record(z.string(), z.string()).optional(),
  includeTags: Selectors.optional(),
  integration: z.string().max(256).nullable().optional(),
  onlyMainContent: z.boolean().default(true),
  origin: z.string().max(256).default('api'),
  parsers: z.array(ParserItem).max(10).default([{ type: 'pdf', mode: 'auto' }]),
  proxy: z.enum(['basic', 'auto']).optional(),
  redactPII: z.union([z.boolean(), RedactPIIOptions]).default(false),
  removeBase64Images: z.boolean().default(true),
  skipTlsVerification: z.boolean().default(true),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS),
  zeroDataRetention: z.boolean().default(false),
});

export type ParseOptionsInput = z.input<typeof ParseOptionsSchema>;
export type ParseOptions = z.output<typeof ParseOptionsSchema>;
export type PdfParserOptions = z.output<typeof PdfParser>;

/** `formats[1].type`, `parsers[0].maxPages`, … */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

type Issue = z.core.$ZodIssue;

/**
 * A union that fails (`redactPII`: boolean or object) says only "invalid input". The branch the
 * value was aiming at is the one that failed on something other than the value's type itself:
 * report that branch's issues, with full paths, so the message names the real field.
 */
function explainIssue(issue: Issue): { path: PropertyKey[]; message: string }[] {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const aimed = issue.errors.find((branch) => !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0));
    if (aimed) return aimed.flatMap((i) => explainIssue({ ...i, path: [...issue.path, ...i.path] } as Issue));
    const expected = issue.errors.flatMap((branch) => branch.map((i) => (i.code === 'invalid_type' ? i.expected : undefined)));
    return [{ path: [...issue.path], message: `expected ${[...new Set(expected.filter(Boolean))].join(' or ')}` }];
  }
  return [{ path: [...issue.path], message: issue.message }];
}

/** Validates options and applies defaults; a failure is a 400 that names every offending field. */
export function parseOptions(input: unknown): ParseOptions {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ServiceError('BAD_REQUEST', 'Invalid options: `options` must be a JSON object.');
  }
  const result = ParseOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap(explainIssue).map(({ path, message }) => {
    return `\`${formatIssuePath(path) || 'options'}\`: ${message}`;
  });
  throw new ServiceError('BAD_REQUEST', `Invalid options: ${problems.join('; ')}`);
}

/** Parses the text of a multipart `options` part. */
export function parseOptionsJson(text: string): ParseOptions {
  if (text.trim() === '') return parseOptions({});
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof SyntaxError ? err.message : 'unreadable';
    throw new ServiceError('BAD_REQUEST', `Invalid options: the \`options\` part is not valid JSON (${reason}).`);
  }
  return parseOptions(value);
}

/** The requested format types, deduplicated, in request order. */
export function requestedFormats(options: ParseOptions): Set<ParseFormatType> {
  return new Set(options.formats.map((f) => f.type));
}

/** The PDF parser settings (the spec defines only the `pdf` parser). */
export function pdfParserOptions(options: ParseOptions): PdfParserOptions {
  return options.parsers.find((p) => p.type === 'pdf') ?? { type: 'pdf', mode: 'auto' };
}
