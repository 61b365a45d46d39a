/**
 * Document properties shared by the packaged office formats (OOXML core properties, ODF
 * meta.xml): both use Dublin Core names and W3CDTF dates, so they map to metadata by one rule.
 */
import type { DocumentMetadata } from '../document.ts';

/** A BCP 47-shaped tag; anything else in dc:language is ignored. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * dc:title → title; dc:description → description, with dc:subject kept as extra `subject`;
 * without a description, dc:subject is the description. dc:language → language when well formed.
 */
export function applyDublinCore(
  metadata: DocumentMetadata,
  dc: { title?: string | undefined; description?: string | undefined; subject?: string | undefined; language?: string | undefined },
): void {
  if (dc.title) metadata.title = dc.title;
  if (dc.description) {
    metadata.description = dc.description;
    if (dc.subject) metadata.extra.subject = dc.subject;
  } else if (dc.subject) {
    metadata.description = dc.subject;
  }
  if (dc.language && LANGUAGE_TAG.test(dc.language)) metadata.language = dc.language;
}

/**
 * A property date as an ISO 8601 string. Office writes 1601-01-01 (or year 0) for "never set":
 * dates before 1900 carry no information and are dropped, as is anything that is not a date.
 */
export function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time) || new Date(time).getUTCFullYear() < 1900) return undefined;
  return new Date(time).toISOString();
}
