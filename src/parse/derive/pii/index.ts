/**
 * PII redaction (interface-v2 `redactPII`, docs/pii.md): the one entry of this subsystem.
 *
 * parse() hands over what it read, after cleaning and before writing: the intermediate document,
 * its metadata and the raw HTML. Every writer then works from redacted text, so markdown, html,
 * links and metadata agree and keep their structure. Modes:
 * - `fast`: validated patterns (EMAIL, PHONE, FINANCIAL, SECRET), no model;
 * - `aggressive`: `fast` plus PERSON and LOCATION from offline NLP, cues and gazetteers;
 * - `accurate`: the `fast` patterns plus the LLM's spans of every group, tuned for precision; with
 *   no LLM it runs `aggressive` and says so in a warning.
 * With an LLM, `aggressive` adds the model's PERSON/LOCATION spans. The model is handed in by
 * parse() (`ModelSpans`), so this subsystem itself never talks to one.
 */
import type { ParseOptions } from '../../options.ts';
import { findPiiSpans, type DetectionMode } from './detect.ts';
import { documentSegments } from './dom.ts';
import { applyRawSpans, rawHtmlView } from './raw-html.ts';
import { joinSegments, redactSegments, type PiiCounts, type ReplaceStyle, type Segment } from './replace.ts';
import { mergeSpans, PII_GROUPS, type PiiGroup, type PiiSpan } from './spans.ts';

export { PII_GROUPS, type PiiGroup, type PiiSpan } from './spans.ts';
export type { ReplaceStyle } from './replace.ts';

/** Spans the model finds in a text (located in it, never rewritten), for the given groups. */
export type ModelSpans = (text: string, groups: ReadonlySet<PiiGroup>) => Promise<PiiSpan[]>;

export interface PiiSettings {
  /** The mode the client asked for. */
  requested: 'accurate' | 'aggressive' | 'fast';
  /** The detectors that run. */
  mode: DetectionMode;
  groups: ReadonlySet<PiiGroup>;
  /** The client named the groups (`entities`) rather than taking all of them. */
  named: boolean;
  replaceStyle: ReplaceStyle;
  /** The model, for `accurate` and `aggressive`, when an LLM is configured. */
  model?: { find: ModelSpans; groups: ReadonlySet<PiiGroup> };
}

/** The mode a request's `redactPII` asks for (`true` is `accurate`), or undefined when redaction is off. */
export function requestedPiiMode(option: ParseOptions['redactPII']): PiiSettings['requested'] | undefined {
  if (option === false) return undefined;
  return option === true ? 'accurate' : option.mode;
}

/** The settings a request's `redactPII` names, or undefined when redaction is off. */
export function piiSettings(option: ParseOptions['redactPII'], model?: ModelSpans): PiiSettings | undefined {
  if (option === false) return undefined;
  const o = option === true ? { mode: 'accurate' as const, replaceStyle: 'tag' as const, entities: undefined } : option;
  const groups = new Set(o.entities ?? PII_GROUPS);
  const settings: PiiSettings = {
    requested: o.mode,
    // `accurate` with a model: validated patterns plus the model's spans; without one, the offline detectors.
    mode: o.mode === 'fast' || (o.mode === 'accurate' && model) ? 'fast' : 'aggressive',
    groups,
    named: o.entities !== undefined,
    replaceStyle: o.replaceStyle,
  };
  if (model && o.mode !== 'fast') {
    const modelGroups = o.mode === 'accurate' ? groups : new Set([...groups].filter((g) => g === 'PERSON' || g === 'LOCATION'));
    if (modelGroups.size > 0) settings.model = { find: model, groups: modelGroups };
  }
  return settings;
}

export const NO_LLM_WARNING = "redactPII: mode 'accurate' needs an LLM and none is configured (OPENAI_BASE_URL with OPENAI_API_KEY and MODEL_NAME, or OLLAMA_BASE_URL); the offline 'aggressive' detectors were used instead, which favour recall over precision.";

/** Spans of personal data in one text (the detectors of `settings.mode` and the model's, merged). */
export async function findPii(text: string, settings: Pick<PiiSettings, 'mode' | 'groups' | 'model'>): Promise<PiiSpan[]> {
  const found = await findPiiSpans(text, settings.mode, settings.groups);
  if (!settings.model || text.trim() === '') return found;
  const modelSpans = (await settings.model.find(text, settings.model.groups)).filter((s) => settings.groups.has(s.group));
  return mergeSpans([...found, ...modelSpans]);
}

function emptyCounts(): PiiCounts {
  return { PERSON: 0, EMAIL: 0, PHONE: 0, LOCATION: 0, FINANCIAL: 0, SECRET: 0 };
}

/** Redacts one plain text (the CLI, tests, the benchmark). */
export async function redactText(text: string, settings: PiiSettings): Promise<{ text: string; counts: PiiCounts }> {
  let out = text;
  const segments: Segment[] = [{ text, before: '', write: (t) => { out = t; } }];
  const counts = emptyCounts();
  redactSegments(segments, [0], await findPii(text, settings), settings.replaceStyle, counts);
  return { text: out, counts };
}

/** What parse() read, as far as redaction is concerned (structurally a ReadResult). */
export interface RedactableRead {
  document: Document;
  metadata: { title?: string; description?: string; keywords?: string; extra: Record<string, string | string[]> };
  rawHtml: string;
  warnings: string[];
}

/**
 * Extra metadata keys left alone: those naming the document's origin or type, not its content,
 * and those the response never shows (writers/metadata.ts answers title/description/keywords
 * from their own fields), so each redaction is counted once.
 */
const METADATA_NOT_TEXT = new Set(['title', 'description', 'keywords', 'language', 'sourceURL', 'url', 'contentType', 'statusCode', 'ogLocale', 'viewport', 'charset', 'generator', 'robots']);

function metadataSegments(metadata: RedactableRead['metadata']): Segment[] {
  const segments: Segment[] = [];
  for (const key of ['title', 'description', 'keywords'] as const) {
    const value = metadata[key];
    if (value) segments.push({ text: value, before: '\n', write: (t) => { metadata[key] = t; } });
  }
  for (const [key, value] of Object.entries(metadata.extra)) {
    if (METADATA_NOT_TEXT.has(key)) continue;
    const url = /url|image|href|link/i.test(key);
    if (typeof value === 'string') {
      segments.push({ text: value, url, before: '\n', write: (t) => { metadata.extra[key] = t; } });
    } else {
      const list = [...value];
      metadata.extra[key] = list;
      list.forEach((item, i) => segments.push({ text: item, url, before: '\n', write: (t) => { list[i] = t; } }));
    }
  }
  return segments;
}

/**
 * Redacts the document's text, its metadata and its raw HTML in place, adds the `accurate`
 * fallback warning, and returns the counts per group for `metadata.piiRedacted`.
 */
export async function redactRead(read: RedactableRead, settings: PiiSettings, options: { rawHtml: boolean }): Promise<PiiCounts> {
  const segments = [...documentSegments(read.document.body), ...metadataSegments(read.metadata)];
  const { joined, offsets } = joinSegments(segments);
  const counts = emptyCounts();
  redactSegments(segments, offsets, await findPii(joined, settings), settings.replaceStyle, counts);
  if (options.rawHtml) {
    const { view, blank } = rawHtmlView(read.rawHtml);
    read.rawHtml = applyRawSpans(read.rawHtml, blank, await findPii(view, settings), settings.replaceStyle);
  }
  if (settings.requested === 'accurate' && !settings.model) read.warnings.push(NO_LLM_WARNING);
  const unseen = settings.mode === 'fast' && settings.named ? (['PERSON', 'LOCATION'] as const).filter((g) => settings.groups.has(g)) : [];
  if (unseen.length > 0) read.warnings.push(`redactPII: mode 'fast' uses patterns only and finds no ${unseen.join(' or ')}; use mode 'aggressive' to redact them.`);
  return counts;
}

/** `metadata.piiRedacted`: the spec allows extra keys of string or string[], so counts are "GROUP:n" strings. */
export function countsMetadata(counts: PiiCounts): string[] {
  return PII_GROUPS.filter((g) => counts[g] > 0).map((g) => `${g}:${counts[g]}`);
}
