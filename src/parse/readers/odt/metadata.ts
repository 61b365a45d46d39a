/**
 * Document metadata from meta.xml (ODF 1.2 Part 1 §4): dc:title → title; dc:description, else
 * dc:subject → description; meta:keyword (one element per keyword) → keywords joined with ", ";
 * dc:language, else the default paragraph style's language → language; dc:creator →
 * extra.author; meta:initial-creator, meta:creation-date, dc:date and the statistics → extra.
 */
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';
import { cleanText } from './xml.ts';
import { applyDublinCore, isoDate } from '../document-properties.ts';

export function readMeta(doc: Document | undefined, defaultLanguage: string | undefined): DocumentMetadata {
  const metadata = emptyMetadata();
  if (defaultLanguage) metadata.language = defaultLanguage;
  if (!doc) return metadata;
  const first = (name: string): string | undefined => cleanText(doc.getElementsByTagName(name)[0]);

  const title = first('dc:title');
  const description = first('dc:description');
  const subject = first('dc:subject');
  applyDublinCore(metadata, { title, description, subject, language: first('dc:language') });
  const keywords = Array.from(doc.getElementsByTagName('meta:keyword'))
    .map((el) => cleanText(el))
    .filter((k): k is string => k !== undefined);
  if (keywords.length) metadata.keywords = keywords.join(', ');

  const extra: Record<string, string | undefined> = {
    author: first('dc:creator'),
    initialCreator: first('meta:initial-creator'),
    created: isoDate(first('meta:creation-date')),
    modified: isoDate(first('dc:date')),
    generator: first('meta:generator'),
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value) metadata.extra[key] = value;
  }
  const stats = doc.getElementsByTagName('meta:document-statistic')[0];
  const pages = stats?.getAttribute('meta:page-count');
  if (pages && /^\d{1,6}$/.test(pages)) metadata.extra.pageCount = pages;
  return metadata;
}
