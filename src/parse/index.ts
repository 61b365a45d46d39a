/**
 * parse(): THE core. Every door (HTTP upload, CLI, MCP tools, scrape) calls this and nothing
 * else. It imports nothing from http, mcp or auth.
 *
 *   bytes + name/type hints → detect → read → clean → write → derive
 */
import { ServiceError } from '../errors.ts';
import { clean } from './clean/index.ts';
import { detectLanguage, sampleText } from './derive/language.ts';
import { detect, type Detected } from './detect.ts';
import { readingDeadline } from './deadline.ts';
import type { Progress, ReadResult } from './document.ts';
import type { SourceLimits } from './limits.ts';
import type { OcrSettings } from './ocr/settings.ts';
import { requestedFormats, type ParseOptions } from './options.ts';
import { readerFor } from './readers/index.ts';

export { preloadReaders } from './readers/index.ts';
export { readingDeadline } from './deadline.ts';
export type { OcrSettings } from './ocr/settings.ts';
export { DEFAULT_SOURCE_LIMITS, type SourceLimits } from './limits.ts';
import { toHtml } from './writers/html.ts';
import { collectImages, collectLinks } from './writers/links.ts';
import { toMarkdown } from './writers/markdown.ts';
import { buildMetadata, uploadUrl, type ResponseMetadata } from './writers/metadata.ts';

export interface ParseInput {
  bytes: Buffer;
  /** The client's name for the file; its extension is the type claim. */
  filename: string;
  contentType?: string;
  /** Where the bytes came from (a scrape's URL); uploads get a `file:///name` URL. */
  sourceURL?: string;
  /** Final URL after redirects, when fetched. */
  url?: string;
  statusCode?: number;
}

export interface ParseContext {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Epoch ms by which reading should end; default: from now and `timeout` (deadline.ts). */
  deadline?: number;
  /** PDF OCR settings (languages) from the server's config. */
  ocr?: OcrSettings;
  /** Limits at the source (FOLIO_MAX_UNZIPPED_MB, …) from the server's config. */
  limits?: Partial<SourceLimits>;
}

/** The `data` object of the response (interface-v2 "Parse response body"). */
export interface ParseData {
  markdown?: string;
  html?: string | null;
  rawHtml?: string | null;
  links?: string[];
  images?: string[];
  summary?: string | null;
  json?: unknown;
  warning?: string | null;
  metadata: ResponseMetadata;
}

/** Checks done before any reading: features the spec accepts that this build cannot do yet. */
function refuseUnbuiltFeatures(options: ParseOptions): void {
  const formats = requestedFormats(options);
  for (const f of ['summary', 'json'] as const) {
    if (formats.has(f)) {
      throw new ServiceError('NOT_YET_SUPPORTED', `The '${f}' format is valid but not supported by this folio build yet. Remove it from \`formats\`.`);
    }
  }
}

/**
 * The PII subsystem (derive/pii) loads on the first request that asks for it: its detectors (an
 * NLP lexicon, phone metadata, secret rules) would otherwise add ~15 MB to every parse process's
 * heap for requests that never use them (bench:server's small-file throughput fell 7% with them
 * loaded eagerly).
 */
async function redactPii(read: ReadResult, options: ParseOptions, rawHtml: boolean): Promise<string[] | undefined> {
  const pii = await import('./derive/pii/index.ts');
  const settings = pii.piiSettings(options.redactPII);
  return settings ? pii.countsMetadata(await pii.redactRead(read, settings, { rawHtml })) : undefined;
}

export async function parse(input: ParseInput, options: ParseOptions, ctx: ParseContext = {}): Promise<ParseData> {
  const deadline = ctx.deadline ?? readingDeadline(Date.now(), options.timeout);
  refuseUnbuiltFeatures(options);
  const signal = ctx.signal ?? new AbortController().signal;
  const detected: Detected = detect(input.bytes, input.filename, input.contentType);
  const reader = await readerFor(detected.kind);
  const read = await reader({
    bytes: input.bytes,
    filename: input.filename,
    kind: detected.kind,
    format: detected.format,
    options,
    signal,
    ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    deadline,
    ...(ctx.ocr ? { ocr: ctx.ocr } : {}),
    ...(ctx.limits ? { limits: ctx.limits } : {}),
  });
  signal.throwIfAborted();
  // A fetched document's relative URLs resolve against its final URL unless it names a <base>.
  if (read.baseUrl === undefined && input.url && /^https?:/i.test(input.url)) read.baseUrl = input.url;
  const formats = requestedFormats(options);

  clean(read, options, detected.kind);
  read.metadata.language ??= detectLanguage(sampleText(read.document.body));
  // redactPII works on what the writers read, so every output is redacted the same way.
  const piiCounts = options.redactPII === false ? undefined : await redactPii(read, options, formats.has('rawHtml'));
  signal.throwIfAborted();

  const data: Omit<ParseData, 'metadata'> = {};
  if (formats.has('markdown')) data.markdown = toMarkdown(read.document.body);
  if (formats.has('html')) data.html = toHtml(read.document);
  if (formats.has('rawHtml')) data.rawHtml = read.rawHtml;
  if (formats.has('links')) data.links = collectLinks(read.document);
  if (formats.has('images')) data.images = collectImages(read.document);
  if (read.warnings.length > 0) data.warning = read.warnings.join(' ');
  const sourceURL = input.sourceURL ?? uploadUrl(input.filename);
  const metadata = buildMetadata(read, detected, {
    sourceURL,
    url: input.url ?? sourceURL,
    statusCode: input.statusCode ?? 200,
  });
  if (piiCounts) metadata.piiRedacted = piiCounts;
  return { ...data, metadata };
}
