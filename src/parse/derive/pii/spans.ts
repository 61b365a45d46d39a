/**
 * A detected span of personal data, and the merge rule when detectors overlap: the earlier
 * start wins, and on equal starts the more specific group (SECRET before FINANCIAL before EMAIL
 * before PHONE before PERSON before LOCATION), then the longer span.
 */
export const PII_GROUPS = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export type PiiGroup = (typeof PII_GROUPS)[number];

export interface PiiSpan {
  start: number;
  end: number;
  group: PiiGroup;
}

const PRIORITY: Record<PiiGroup, number> = { SECRET: 0, FINANCIAL: 1, EMAIL: 2, PHONE: 3, PERSON: 4, LOCATION: 5 };

/** Sorted, non-overlapping spans: an overlapping span is merged into the one kept before it. */
export function mergeSpans(spans: PiiSpan[]): PiiSpan[] {
  const sorted = spans
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start || PRIORITY[a.group] - PRIORITY[b.group] || b.end - a.end);
  const out: PiiSpan[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.start < last.end) {
      // Same kind of data: widen; a pattern group keeps its span against a name/place guess.
      if (span.group === last.group || PRIORITY[span.group] < PRIORITY[last.group]) last.end = Math.max(last.end, span.end);
      continue;
    }
    out.push({ ...span });
  }
  return out;
}

/**
 * Every match of a global regex as spans; with `capture`, only that group's text (the regex then
 * needs the `d` flag so the group's offsets are known).
 */
export function regexSpans(text: string, re: RegExp, group: PiiGroup, accept?: (value: string, match: RegExpExecArray) => boolean, capture = 0): PiiSpan[] {
  const out: PiiSpan[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === '') re.lastIndex += 1;
    const value = m[capture];
    if (value === undefined || value === '') continue;
    if (accept && !accept(value, m)) continue;
    const start = capture === 0 ? m.index : (m.indices?.[capture]?.[0] ?? m.index);
    out.push({ start, end: start + value.length, group });
  }
  return out;
}

/** The lines (start offset and text) holding a match of `re` (global), each once, in order. */
export function linesMatching(text: string, re: RegExp): { start: number; line: string }[] {
  const out: { start: number; line: string }[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = text.lastIndexOf('\n', m.index) + 1;
    let end = text.indexOf('\n', m.index + m[0].length);
    if (end < 0) end = text.length;
    out.push({ start, line: text.slice(start, end) });
    re.lastIndex = end + 1;
  }
  return out;
}
