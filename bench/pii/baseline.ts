/** The baseline of bench:pii: plain regular expressions, no validation, no context (redact-pii style). */
import type { PiiGroup, PiiSpan } from '../../src/parse/derive/pii/index.ts';

const RULES: [PiiGroup, RegExp][] = [
  ['EMAIL', /[\w.+-]+@[\w-]+\.[\w.-]+/g],
  ['PHONE', /\+?\(?\d{1,4}\)?[\s.-]?\(?\d{2,4}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}/g],
  ['FINANCIAL', /\b(?:\d[ -]?){13,16}\b|\b\d{3}-\d{2}-\d{4}\b|\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b/g],
  ['SECRET', /\b(?:password|secret|token|api[_-]?key)\s*[:=]\s*\S+|\b[A-Za-z0-9_\-]{32,}\b|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/gi],
  ['PERSON', /\b(?:Mr|Mrs|Ms|Dr)\.? [A-Z][a-z]+(?: [A-Z][a-z]+)?|\b[A-Z][a-z]+ [A-Z][a-z]+\b/g],
  ['LOCATION', /\b\d+ [A-Z][a-z]+ (?:Street|St|Avenue|Ave|Road|Rd)\b/g],
];

export function baselineSpans(text: string, groups: ReadonlySet<PiiGroup>): PiiSpan[] {
  const out: PiiSpan[] = [];
  for (const [group, re] of RULES) {
    if (!groups.has(group)) continue;
    for (const m of text.matchAll(re)) out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, group });
  }
  return out;
}
