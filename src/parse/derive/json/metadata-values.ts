/**
 * Document metadata as candidate values for properties named after it: title, description,
 * author, date, language, keywords. A property gets metadata only when its name (or title) is
 * one of these names.
 */
import type { DocumentMetadata } from '../../document.ts';
import type { Facts } from './facts.ts';

/** Property name keys (names.ts nameKey) → the metadata that answers them. */
const FIELDS: Record<string, (m: DocumentMetadata, f: Facts) => string | string[] | undefined> = {
  title: (m, f) => m.title ?? f.firstHeading,
  documenttitle: (m, f) => m.title ?? f.firstHeading,
  description: (m) => m.description,
  author: (m) => m.extra.author,
  language: (m) => m.language,
  lang: (m) => m.language,
  keyword: (m) => m.keywords,
  date: (m) => first(m.extra.publishedTime) ?? first(m.extra.created),
  publisheddate: (m) => first(m.extra.publishedTime) ?? first(m.extra.created),
  publicationdate: (m) => first(m.extra.publishedTime) ?? first(m.extra.created),
  createddate: (m) => first(m.extra.created),
  creationdate: (m) => first(m.extra.created),
  modifieddate: (m) => first(m.extra.modified) ?? first(m.extra.modifiedTime),
};

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function metadataValue(keys: Set<string>, metadata: DocumentMetadata, facts: Facts): string | string[] | undefined {
  for (const key of keys) {
    const field = FIELDS[key];
    const value = field?.(metadata, facts);
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}
