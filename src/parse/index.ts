/**
 * parse(): THE core. Every door (HTTP upload, CLI, MCP tools, scrape) calls this and nothing
 * else. It imports nothing from http, mcp or auth.
 *
 *   bytes + name/type hints → detect → read → clean → write → derive
 */
import { assertZdrAllowed, type LlmRun, type LlmSettings, type LlmUsage } from '../llm/index.ts';
import { clean } from './clean/index.ts';
import { deriveJson, refuseJsonWithoutLlm, type JsonFormat } from './derive/json/index.ts';
import { piiModel } from './derive/pii-llm.ts';
import { deriveSummary } from './derive/summary/index.ts';
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
export type { LlmSettings, LlmUsage } from '../llm/index.ts';
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
  /** The LLM provider (docs/llm.md) for `summary` and `json`; absent: the offline paths. Holds the API key. */
  llm?: LlmSettings;
  /** Tokens each LLM call spent. */
  onLlmUsage?: (usage: LlmUsage) => void;
  /** Epoch ms at which the request's `timeout` ends (LLM calls end before it); default: from now and `timeout`. */
  endsAt?: number;
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

/** The request's `json` format (the first, if several are given). */
function jsonFormat(options: ParseOptions): JsonFormat | undefined {
  return options.formats.find((f): f is JsonFormat => f.type === 'json');
}

/**
 * Checks done before any reading: a `summary`/`json` request the server cannot serve (a prompt
 * without a schema and no LLM; a ZDR request and an LLM marked LLM_ZDR=false) fails before work.
 */
function refuseUnservableDerivations(options: ParseOptions, llm: LlmSettings | undefined): void {
  const formats = requestedFormats(options);
  const json = jsonFormat(options);
  if (json) refuseJsonWithoutLlm(json, llm);
  if (llm && (formats.has('summary') || json)) {
    assertZdrAllowed(llm, options.zeroDataRetention, formats.has('summary') ? (json ? 'The `summary` and `json` formats' : 'The `summary` format') : 'The `json` format');
  }
}

/** What the LLM calls of this parse share: settings, the request's end, its signal, usage reporting. */
function llmRun(ctx: ParseContext, endsAt: number, signal: AbortSignal): LlmRun | undefined {
  if (!ctx.llm) return undefined;
  // A little before the end, so an LLM timeout is answered as such rather than by the pool's kill.
  return { settings: ctx.llm, deadline: Math.floor(endsAt - Math.min(500, (endsAt - Date.now()) / 10)), signal, ...(ctx.onLlmUsage ? { onUsage: ctx.onLlmUsage } : {}) };
}

/**
 * The PII subsystem (derive/pii) loads on the first request that asks for it: its detectors (an
 * NLP lexicon, phone metadata, secret rules) would otherwise add ~15 MB to every parse process's
 * heap for requests that never use them (bench:server's small-file throughput fell 7% with them
 * loaded eagerly).
 */
async function redactPii(read: ReadResult, options: ParseOptions, rawHtml: boolean, llm: LlmRun | undefined): Promise<string[] | undefined> {
  const pii = await import('./derive/pii/index.ts');
  const mode = pii.requestedPiiMode(options.redactPII);
  if (!mode) return undefined;
  // The model joins `accurate` (precision) and `aggressive` (its PERSON/LOCATION spans), unless the
  // request is ZDR and the provider is not cleared for it: then the offline detectors answer alone.
  const zdrBlocked = llm !== undefined && options.zeroDataRetention && !llm.settings.zdr;
  const problems: string[] = [];
  const model = llm && !zdrBlocked && mode !== 'fast' ? piiModel(llm, mode === 'accurate' ? 'precision' : 'recall', problems) : undefined;
  const settings = pii.piiSettings(options.redactPII, model);
  if (!settings) return undefined;
  const counts = pii.countsMetadata(await pii.redactRead(read, settings, { rawHtml }));
  if (zdrBlocked && mode !== 'fast') {
    const at = read.warnings.indexOf(pii.NO_LLM_WARNING);
    if (at >= 0) read.warnings.splice(at, 1);
    read.warnings.push(`redactPII: the LLM is not cleared for zero data retention (LLM_ZDR=false), so this zeroDataRetention request's text was not sent to it; the offline '${mode === 'accurate' ? 'aggressive' : mode}' detectors were used alone.`);
  }
  if (problems.length > 0) read.warnings.push(`redactPII: the model's answer could not be used for ${problems.length} part${problems.length > 1 ? 's' : ''} of the document (${problems.slice(0, 3).join('; ')}); the offline detectors' spans were applied there.`);
  return counts;
}

export async function parse(input: ParseInput, options: ParseOptions, ctx: ParseContext = {}): Promise<ParseData> {
  const startedAt = Date.now();
  const deadline = ctx.deadline ?? readingDeadline(startedAt, options.timeout);
  const endsAt = ctx.endsAt ?? startedAt + options.timeout;
  refuseUnservableDerivations(options, ctx.llm);
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
  const run = llmRun(ctx, endsAt, signal);
  const piiCounts = options.redactPII === false ? undefined : await redactPii(read, options, formats.has('rawHtml'), run);
  signal.throwIfAborted();

  const data: Omit<ParseData, 'metadata'> = {};
  const json = jsonFormat(options);
  const derives = formats.has('summary') || json !== undefined;
  const markdown = formats.has('markdown') || derives ? toMarkdown(read.document.body) : undefined;
  if (formats.has('markdown')) data.markdown = markdown;
  if (formats.has('html')) data.html = toHtml(read.document);
  if (formats.has('rawHtml')) data.rawHtml = read.rawHtml;
  if (formats.has('links')) data.links = collectLinks(read.document);
  if (formats.has('images')) data.images = collectImages(read.document);
  // derive: summary and json from the (redacted) document, their LLM calls side by side.
  const warnings = [...read.warnings];
  if (derives) {
    const [summary, extracted] = await Promise.all([
      formats.has('summary') ? deriveSummary(read, markdown ?? '', run) : undefined,
      json ? deriveJson(read, markdown ?? '', json, run) : undefined,
    ]);
    signal.throwIfAborted();
    if (summary) {
      data.summary = summary.summary;
      if (summary.warning) warnings.push(summary.warning);
    }
    if (extracted) {
      data.json = extracted.json;
      if (extracted.warning) warnings.push(extracted.warning);
    }
  }
  if (warnings.length > 0) data.warning = warnings.join(' ');
  const sourceURL = input.sourceURL ?? uploadUrl(input.filename);
  const metadata = buildMetadata(read, detected, {
    sourceURL,
    url: input.url ?? sourceURL,
    statusCode: input.statusCode ?? 200,
  });
  if (piiCounts) metadata.piiRedacted = piiCounts;
  return { ...data, metadata };
}
