/**
 * The `parse` tool: a local or non-public file → clean markdown (interface-v2 "What the service
 * does": parse for local files, scrape for public URLs).
 *
 * Input: the whole ParseOptions (the same zod schema as `POST /v2/parse`) plus exactly one source:
 * - `filePath`: read directly by a tool server on the caller's machine (stdio, `localFiles`); a
 *   remote server does not read it and answers with a one-time upload command instead
 *   (interface-v2 "Hosted tool-server addresses": upload command → uploadRef);
 * - `uploadRef`: a file uploaded with that command (single use);
 * - `resultId`: an earlier result kept for continuation.
 * `maxChars` and `offset` slice the markdown, because long documents overflow a client's limits.
 */
import { z } from 'zod';
import { isServiceError, ServiceError } from '../src/errors.ts';
import type { ParseRunner } from '../src/limits/runner.ts';
import type { ParseData } from '../src/parse/index.ts';
import { PARSE_FORMAT_TYPES, ParseOptionsSchema, type ParseOptions } from '../src/parse/options.ts';
import type { LocalFileReader, UploadRefService, UploadedFile } from '../src/uploads/types.ts';
import type { ParseResults } from './parse-results.ts';
import { DEFAULT_MAX_CHARS, maxCharsField, offsetField } from './text-budget.ts';
import { defineTool, type AnyToolDefinition, type Caller, type ToolCallContext, type ToolResult } from './types.ts';
import { baseName, curlUploadCommand } from '../src/uploads/command.ts';


export interface ParseToolDeps {
  runner: ParseRunner;
  uploads?: UploadRefService;
  localFiles?: LocalFileReader;
  results: ParseResults;
}

const SIMPLE_FORMATS = PARSE_FORMAT_TYPES.filter((t) => t !== 'json');

/**
 * What `tools/list` shows for `formats` items. The validating schema accepts bare strings and
 * checks each item through a preprocess/pipe, which JSON Schema cannot express; this tells a
 * model the accepted shapes.
 */
const FORMAT_ITEM_JSON_SCHEMA = {
  anyOf: [
    { type: 'string', enum: [...SIMPLE_FORMATS] },
    { type: 'object', properties: { type: { type: 'string', enum: [...SIMPLE_FORMATS] } }, required: ['type'], additionalProperties: false },
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'json' },
        prompt: { type: 'string', maxLength: 10_000, description: 'What to extract.' },
        schema: { type: 'object', description: 'A JSON Schema the extracted object must match.' },
      },
      required: ['type'],
      additionalProperties: false,
    },
  ],
};

const shape = ParseOptionsSchema.shape;

export const ParseToolInputSchema = ParseOptionsSchema.extend({
  formats: shape.formats.meta({
    description: 'Outputs to return; default ["markdown"]. Items are a type name or {type}; `json` takes an optional prompt and schema.',
    items: FORMAT_ITEM_JSON_SCHEMA,
  }),
  filePath: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('Path of the file to parse, as it is on your machine (.pdf, .docx, .doc, .odt, .rtf, .xlsx, .xls, .html, .htm).'),
  uploadRef: z.string().min(1).max(512).optional().describe('The uploadRef returned with an upload command, once the file was uploaded.'),
  resultId: z.string().min(1).max(128).optional().describe('The resultId of an earlier parse, to read more of its markdown (with `offset`).'),
  maxChars: maxCharsField('Most characters of markdown returned by this call; the rest is read with continuation calls.'),
  offset: offsetField,
});

export type ParseToolInput = z.output<typeof ParseToolInputSchema>;

const DEFAULT_OPTIONS: ParseOptions = ParseOptionsSchema.parse({});

/** The options the caller set to something other than the default, for the "next call" hints. */
function changedOptions(options: ParseOptions): Partial<ParseOptions> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (JSON.stringify(value) !== JSON.stringify((DEFAULT_OPTIONS as Record<string, unknown>)[key])) out[key] = value;
  }
  return out as Partial<ParseOptions>;
}

function splitInput(input: ParseToolInput): { source: Pick<ParseToolInput, 'filePath' | 'uploadRef' | 'resultId'>; maxChars: number; offset: number; options: ParseOptions } {
  const { filePath, uploadRef, resultId, maxChars, offset, ...options } = input;
  return { source: { filePath, uploadRef, resultId }, maxChars, offset, options };
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** Where a slice ends: `maxChars` on, never between the two halves of a surrogate pair. */
function sliceEnd(text: string, offset: number, maxChars: number): number {
  let end = Math.min(text.length, offset + maxChars);
  if (end < text.length && end - 1 > offset) {
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  }
  return end;
}

interface Continuation {
  offset: number;
  returnedChars: number;
  totalChars: number;
  /** Where the next slice starts; null when this slice reaches the end. */
  nextOffset: number | null;
  resultId: string | null;
  expiresAt: string | null;
  /** The exact arguments of the call that returns the next slice; null at the end. */
  nextCall: { name: 'parse'; arguments: Record<string, unknown> } | null;
  /** Why there is no resultId although more remains. */
  note?: string;
}

/** The data object without its markdown and the big per-format fields, kept for continuation slices. */
function keptData(data: ParseData): Record<string, unknown> {
  return { metadata: data.metadata, ...(data.warning !== undefined ? { warning: data.warning } : {}) };
}

function continuationLine(c: Continuation): string {
  if (c.nextOffset === null) return '';
  const remaining = c.totalChars - c.nextOffset;
  const head = `\n\n---\n[folio continuation] Characters ${c.offset}–${c.nextOffset} of ${c.totalChars} shown; ${remaining} more remain.`;
  if (c.nextCall) {
    return `${head} To read the next part, call the \`parse\` tool with ${JSON.stringify(c.nextCall.arguments)}${c.expiresAt ? ` (before ${c.expiresAt})` : ''}.`;
  }
  return `${head} ${c.note ?? ''} To read the next part, call \`parse\` again with the same file and options plus "offset": ${c.nextOffset}.`;
}

/** A slice of the markdown as the tool's result. */
function sliceResult(
  markdown: string,
  data: Record<string, unknown>,
  offset: number,
  maxChars: number,
  kept: { resultId: string; expiresAt: Date } | undefined,
  note: string | undefined,
): ToolResult {
  if (offset > markdown.length) {
    throw new ServiceError('BAD_REQUEST', `\`offset\` ${offset} is past the end of the markdown (${markdown.length} characters).`);
  }
  const end = sliceEnd(markdown, offset, maxChars);
  const more = end < markdown.length;
  const continuation: Continuation = {
    offset,
    returnedChars: end - offset,
    totalChars: markdown.length,
    nextOffset: more ? end : null,
    resultId: kept?.resultId ?? null,
    expiresAt: kept?.expiresAt.toISOString() ?? null,
    nextCall:
      more && kept
        ? { name: 'parse', arguments: { resultId: kept.resultId, offset: end, ...(maxChars !== DEFAULT_MAX_CHARS ? { maxChars } : {}) } }
        : null,
    ...(more && !kept && note ? { note } : {}),
  };
  const slice = markdown.slice(offset, end);
  return { text: slice + continuationLine(continuation), structured: { ...data, markdown: slice, continuation } };
}

/** Rejects when the signal aborts: a cancelled call ends at once, whatever the runner does with the signal. */
function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

async function runParse(deps: ParseToolDeps, file: UploadedFile, options: ParseOptions, ctx: ToolCallContext): Promise<ParseData> {
  const aborted = abortedBy(ctx.signal);
  aborted.catch(() => undefined);
  const parsing = deps.runner(
    { bytes: file.bytes, filename: file.filename, ...(file.contentType ? { contentType: file.contentType } : {}) },
    options,
    {
      signal: ctx.signal,
      onProgress: (p) => ctx.progress({ progress: p.done, total: p.total, message: `${p.done} of ${p.total} ${p.unit}s parsed` }),
      ...(ctx.caller.teamId ? { teamId: ctx.caller.teamId } : {}),
    },
  );
  parsing.catch(() => undefined);
  return Promise.race([parsing, aborted]);
}

async function uploadInstructions(uploads: UploadRefService, caller: Caller, filePath: string, input: ParseToolInput): Promise<ToolResult> {
  const { maxChars, offset, options } = splitInput(input);
  const filename = baseName(filePath);
  const ticket = await uploads.create(caller.owner, { filename });
  const command = curlUploadCommand(ticket, filePath);
  const nextArguments: Record<string, unknown> = {
    uploadRef: ticket.uploadRef,
    ...changedOptions(options),
    ...(maxChars !== DEFAULT_MAX_CHARS ? { maxChars } : {}),
    ...(offset !== 0 ? { offset } : {}),
  };
  const text = [
    `This folio server runs remotely and cannot read files on your machine. Upload \`${filename}\` once, then parse it:`,
    '',
    `1. Run this command in a shell on the machine that has the file (the URL works once, until ${ticket.expiresAt}; at most ${megabytes(ticket.maxBytes)}):`,
    '',
    command,
    '',
    `2. Then call the \`parse\` tool with these arguments:`,
    '',
    JSON.stringify(nextArguments),
  ].join('\n');
  return {
    text,
    structured: {
      upload: {
        command,
        uploadRef: ticket.uploadRef,
        uploadUrl: ticket.uploadUrl,
        method: ticket.method,
        expiresAt: ticket.expiresAt,
        maxBytes: ticket.maxBytes,
        filename,
      },
      nextCall: { name: 'parse', arguments: nextArguments },
    },
  };
}

function exactlyOneSource(source: Pick<ParseToolInput, 'filePath' | 'uploadRef' | 'resultId'>): void {
  const given = (['filePath', 'uploadRef', 'resultId'] as const).filter((k) => source[k] !== undefined);
  if (given.length !== 1) {
    throw new ServiceError(
      'BAD_REQUEST',
      given.length === 0
        ? 'Give the file to parse as `filePath` (a path on your machine), or `uploadRef` (after uploading it), or `resultId` to continue an earlier result.'
        : `Give exactly one of \`filePath\`, \`uploadRef\` and \`resultId\`; this call has ${given.map((k) => `\`${k}\``).join(' and ')}.`,
    );
  }
}

const ZDR_NOTE = 'The result was not kept because zeroDataRetention is on.';
const TOO_LARGE_NOTE = 'The result is too large to keep on the server.';
const STORE_FAILED_NOTE = 'The result could not be kept on the server.';

export function parseTool(deps: ParseToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'parse',
    title: 'Parse a document',
    description:
      'Convert a local or non-public document (PDF, DOCX, DOC, ODT, RTF, XLSX, XLS, HTML) to clean markdown, keeping reading order and tables. ' +
      'Use it for a file on your machine (`filePath`) or one that is not reachable at a public URL; for a public URL use `scrape` instead. ' +
      'On a remote server, `filePath` returns a one-time upload command: run it, then call `parse` with the returned `uploadRef`. ' +
      `Long markdown comes in slices of \`maxChars\` (default ${DEFAULT_MAX_CHARS}); the end of a slice says exactly how to get the next one.`,
    inputSchema: ParseToolInputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    keyless: true,
    async run(input, ctx) {
      const { source, maxChars, offset, options } = splitInput(input);
      exactlyOneSource(source);
      const owner = ctx.caller.owner;

      if (source.resultId !== undefined) {
        const kept = await deps.results.get(owner, source.resultId);
        if (!kept) {
          throw new ServiceError(
            'NOT_FOUND',
            `The result '${source.resultId}' is unknown or has expired (results are kept ${Math.round(deps.results.ttlMs / 60_000)} minutes${deps.results.sharedAcrossInstances ? '' : ', by the server that produced them'}). Call \`parse\` again with the file and "offset": ${offset}.`,
          );
        }
        return sliceResult(kept.markdown, kept.data, offset, maxChars, { resultId: source.resultId, expiresAt: kept.expiresAt }, undefined);
      }

      let data: ParseData;
      if (source.filePath !== undefined) {
        if (deps.localFiles) {
          const file = await deps.localFiles.read(source.filePath);
          ctx.auditFile?.({ name: file.filename, size: file.bytes.length, contentType: file.contentType ?? null });
          data = await runParse(deps, file, options, ctx);
        } else if (deps.uploads) {
          return uploadInstructions(deps.uploads, ctx.caller, source.filePath, input);
        } else {
          throw new ServiceError(
            'NOT_CONFIGURED',
            'This folio server runs remotely and cannot read `filePath` on your machine, and it has no upload service to receive the file. ' +
              'For a public URL use the `scrape` tool; otherwise send the file to POST /v2/parse, or run folio locally over stdio (`folio mcp`), which reads local files directly.',
          );
        }
      } else {
        if (!deps.uploads) {
          throw new ServiceError('NOT_CONFIGURED', 'This folio server has no upload service, so `uploadRef` cannot be used here. Send the file to POST /v2/parse instead.');
        }
        const taken = await deps.uploads.take(owner, source.uploadRef ?? '');
        ctx.auditFile?.({ name: taken.filename, size: taken.bytes.length, contentType: taken.contentType ?? null });
        try {
          // Zero Data Retention: the stored bytes go as soon as they are in memory.
          if (options.zeroDataRetention) await taken.release();
          data = await runParse(deps, taken, options, ctx);
        } finally {
          await taken.release();
        }
      }

      const { markdown, ...rest } = data;
      if (markdown === undefined) {
        // No markdown requested: the other formats are the result, whole.
        return { text: JSON.stringify(rest), structured: { ...rest } };
      }
      const more = offset + maxChars < markdown.length;
      let kept: { resultId: string; expiresAt: Date } | undefined;
      let note: string | undefined;
      if (more && options.zeroDataRetention) note = ZDR_NOTE;
      else if (more) {
        try {
          kept = await deps.results.put(owner, markdown, keptData(data));
          if (!kept) note = TOO_LARGE_NOTE;
        } catch (err) {
          // The result store (Redis) did not answer: this slice is still the answer, without a resultId.
          note = isServiceError(err) ? err.message : STORE_FAILED_NOTE;
        }
      }
      return sliceResult(markdown, { ...rest }, offset, maxChars, kept, note);
    },
  });
}
