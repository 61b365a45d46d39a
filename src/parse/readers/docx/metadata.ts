/**
 * Document properties (OPC core properties, ECMA-376 Part 2 §11: `docProps/core.xml`) →
 * DocumentMetadata. dc:title → title; dc:description, else dc:subject → description;
 * cp:keywords → keywords; dc:language, else the styles' default language → language;
 * dc:creator → extra.author (an array when Word lists several, `;`-separated); the rest of the useful properties → extra.
 */
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';
import { cleanText, parseXml } from './xml.ts';
import { applyDublinCore, isoDate } from '../document-properties.ts';

function firstText(doc: Document, name: string): string | undefined {
  return cleanText(doc.getElementsByTagName(name)[0]);
}

export function readCoreProperties(coreXml: string | undefined, defaultLanguage: string | undefined): DocumentMetadata {
  const metadata = emptyMetadata();
  if (defaultLanguage) metadata.language = defaultLanguage;
  if (!coreXml) return metadata;
  const doc = parseXml(coreXml);

  const title = firstText(doc, 'dc:title');
  const subject = firstText(doc, 'dc:subject');
  const description = firstText(doc, 'dc:description');
  const keywords = firstText(doc, 'cp:keywords');
  const language = firstText(doc, 'dc:language');
  applyDublinCore(metadata, { title, description, subject, language });
  if (keywords) metadata.keywords = keywords;

  // Word joins several authors with semicolons.
  const authors = (firstText(doc, 'dc:creator') ?? '').split(';').map((a) => a.trim()).filter(Boolean);
  if (authors.length === 1) metadata.extra.author = authors[0] as string;
  else if (authors.length > 1) metadata.extra.author = authors;

  const extra: Record<string, string | undefined> = {
    lastModifiedBy: firstText(doc, 'cp:lastModifiedBy'),
    category: firstText(doc, 'cp:category'),
    created: isoDate(firstText(doc, 'dcterms:created')),
    modified: isoDate(firstText(doc, 'dcterms:modified')),
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value) metadata.extra[key] = value;
  }
  return metadata;
}
