/**
 * Applies spans to texts split into segments (the text nodes and text attributes of a document,
 * metadata strings): detection runs once over all segments joined, each segment gets back its
 * own part. A span crossing segments puts its tag in the first and empties its part of the rest,
 * so no markup between them is touched.
 */
import type { PiiGroup, PiiSpan } from './spans.ts';

export type ReplaceStyle = 'tag' | 'mask' | 'remove';

export interface Segment {
  text: string;
  /** URL attributes take the replacement percent-encoded and never PERSON/LOCATION spans. */
  url?: boolean;
  /** Separator placed before this segment in the joined text ('' joins inline text). */
  before: string;
  write: (text: string) => void;
}

export type PiiCounts = Record<PiiGroup, number>;

export function replacement(group: PiiGroup, style: ReplaceStyle, original: string, first: boolean): string {
  if (style === 'mask') return '*'.repeat([...original].length);
  if (style === 'remove' || !first) return '';
  return `<${group}>`;
}

/** Rewrites `text` with the spans (sorted, non-overlapping, offsets relative to `offset`). */
export function applySpans(text: string, offset: number, spans: PiiSpan[], style: ReplaceStyle, encode?: (s: string) => string): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    const s = Math.max(span.start - offset, 0);
    const e = Math.min(span.end - offset, text.length);
    if (e <= s) continue;
    const r = replacement(span.group, style, text.slice(s, e), span.start >= offset);
    out += text.slice(at, s) + (encode ? encode(r) : r);
    at = e;
  }
  return out + text.slice(at);
}

export function joinSegments(segments: Segment[]): { joined: string; offsets: number[] } {
  const offsets: number[] = [];
  let joined = '';
  for (const seg of segments) {
    joined += seg.before;
    offsets.push(joined.length);
    joined += seg.text;
  }
  return { joined, offsets };
}

/** Writes every touched segment and counts the spans that changed something. */
export function redactSegments(segments: Segment[], offsets: number[], spans: PiiSpan[], style: ReplaceStyle, counts: PiiCounts): void {
  let k = 0;
  const counted = new Set<PiiSpan>();
  segments.forEach((seg, i) => {
    const start = offsets[i] ?? 0;
    const end = start + seg.text.length;
    while (k < spans.length && (spans[k]?.end ?? 0) <= start) k += 1;
    const mine: PiiSpan[] = [];
    for (let j = k; j < spans.length; j += 1) {
      const span = spans[j];
      if (!span || span.start >= end) break;
      if (seg.url && (span.group === 'PERSON' || span.group === 'LOCATION')) continue;
      mine.push(span);
    }
    if (mine.length === 0) return;
    for (const span of mine) {
      if (!counted.has(span)) {
        counted.add(span);
        counts[span.group] += 1;
      }
    }
    seg.write(applySpans(seg.text, start, mine, style, seg.url ? encodeURIComponent : undefined));
  });
}
