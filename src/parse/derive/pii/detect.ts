/**
 * Runs the detectors a mode asks for over one text and returns merged, non-overlapping spans of
 * the requested groups.
 */
import { findEmails } from './email.ts';
import { findFinancial } from './financial.ts';
import { findNamesAndPlaces } from './names.ts';
import { findPhones } from './phone.ts';
import { findSecretsByPattern, findSecretsBySecretlint } from './secrets.ts';
import { mergeSpans, type PiiGroup, type PiiSpan } from './spans.ts';

export type DetectionMode = 'fast' | 'aggressive';

export async function findPiiSpans(text: string, mode: DetectionMode, groups: ReadonlySet<PiiGroup>): Promise<PiiSpan[]> {
  if (text.trim() === '') return [];
  const spans: PiiSpan[] = [];
  if (groups.has('SECRET')) {
    spans.push(...findSecretsByPattern(text));
    spans.push(...(await findSecretsBySecretlint(text)));
  }
  if (groups.has('FINANCIAL')) spans.push(...findFinancial(text));
  if (groups.has('EMAIL')) spans.push(...findEmails(text));
  if (groups.has('PHONE')) spans.push(...findPhones(text));
  if (mode === 'aggressive' && (groups.has('PERSON') || groups.has('LOCATION'))) spans.push(...findNamesAndPlaces(text, groups));
  return mergeSpans(spans.filter((s) => groups.has(s.group)));
}
