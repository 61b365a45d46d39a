/**
 * Page metadata the way Firecrawl returns it: `title`, `description`, `keywords`, `language`,
 * Firecrawl's named fields (`ogTitle`, `ogLocaleAlternate`, `publishedTime`, `favicon`, …), and
 * every `<meta name|property content>` under its own key (`og:image`, `twitter:card`, `author`,
 * …); a key that occurs more than once becomes an array of strings.
 */
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';
import type { HeadElements } from './head-elements.ts';

/** Firecrawl's named fields: response key → the meta `name`/`property` it is read from. */
const NAMED_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['robots', 'robots'],
  ['ogTitle', 'og:title'],
  ['ogDescription', 'og:description'],
  ['ogUrl', 'og:url'],
  ['ogImage', 'og:image'],
  ['ogAudio', 'og:audio'],
  ['ogDeterminer', 'og:determiner'],
  ['ogLocale', 'og:locale'],
  ['ogSiteName', 'og:site_name'],
  ['ogVideo', 'og:video'],
  ['articleSection', 'article:section'],
  ['articleTag', 'article:tag'],
  ['publishedTime', 'article:published_time'],
  ['modifiedTime', 'article:modified_time'],
  ['dcTermsKeywords', 'dcterms.keywords'],
  ['dcDescription', 'dc.description'],
  ['dcSubject', 'dc.subject'],
  ['dcTermsSubject', 'dcterms.subject'],
  ['dcTermsAudience', 'dcterms.audience'],
  ['dcType', 'dc.type'],
  ['dcTermsType', 'dcterms.type'],
  ['dcDate', 'dc.date'],
  ['dcDateCreated', 'dc.date.created'],
  ['dcTermsCreated', 'dcterms.created'],
];

/**
 * An attribute by name, case-insensitively: linkedom keeps attribute names as written and old
 * pages write `<META NAME="Description" CONTENT="…">`.
 */
export function attribute(element: Element, name: string): string | null {
  const exact = element.getAttribute(name);
  if (exact !== null || !element.hasAttributes()) return exact;
  for (const written of element.getAttributeNames()) {
    if (written.toLowerCase() === name) return element.getAttributeNode(written)?.value ?? null;
  }
  return null;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** All `<meta>` values by key (name or property, as written), in document order. */
function metaValues(metas: readonly Element[]): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const meta of metas) {
    const key = (attribute(meta, 'name') || attribute(meta, 'property') || '').trim();
    const content = attribute(meta, 'content');
    if (!key || content === null) continue;
    const value = content.trim();
    if (value === '') continue;
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return values;
}

/** Case-insensitive lookup of the first value of a meta key. */
function first(values: Map<string, string[]>, lowerKey: string): string | undefined {
  for (const [key, list] of values) {
    if (key.toLowerCase() === lowerKey) return list[0];
  }
  return undefined;
}

function all(values: Map<string, string[]>, lowerKey: string): string[] {
  const out: string[] = [];
  for (const [key, list] of values) {
    if (key.toLowerCase() === lowerKey) out.push(...list);
  }
  return out;
}

function httpEquiv(metas: readonly Element[], name: string): string | undefined {
  for (const meta of metas) {
    if (attribute(meta, 'http-equiv')?.trim().toLowerCase() === name) {
      const content = attribute(meta, 'content')?.trim();
      if (content) return content;
    }
  }
  return undefined;
}

/** `<link rel="icon">` (or any rel containing "icon"), resolved against the base when there is one. */
function favicon(links: readonly Element[], baseUrl: string | undefined): string | undefined {
  let href: string | undefined;
  for (const link of links) {
    const rel = (attribute(link, 'rel') ?? '').toLowerCase().split(/\s+/);
    const value = attribute(link, 'href')?.trim();
    if (!value) continue;
    if (rel.includes('icon')) {
      href = value;
      break;
    }
    if (href === undefined && rel.some((r) => r.includes('icon'))) href = value;
  }
  if (href === undefined) return undefined;
  try {
    return new URL(href, baseUrl).href;
  } catch {
    return href;
  }
}

export function extractMetadata(document: Document, head: HeadElements, baseUrl: string | undefined): DocumentMetadata {
  const metadata = emptyMetadata();
  const values = metaValues(head.metas);

  const titleElement = head.titles[0];
  const title = titleElement ? collapse(titleElement.textContent ?? '') : '';
  metadata.title = title || first(values, 'og:title') || undefined;
  metadata.description = first(values, 'description') || first(values, 'og:description') || undefined;
  metadata.keywords = first(values, 'keywords') || undefined;

  const lang = attribute(document.documentElement, 'lang')?.trim();
  const ogLocale = first(values, 'og:locale');
  metadata.language = lang || httpEquiv(head.metas, 'content-language') || ogLocale?.replace(/_/g, '-') || undefined;

  for (const [key, list] of values) {
    metadata.extra[key] = list.length === 1 ? (list[0] as string) : list;
  }
  for (const [field, key] of NAMED_FIELDS) {
    const value = first(values, key);
    if (value !== undefined && !(field in metadata.extra)) metadata.extra[field] = value;
  }
  const alternates = all(values, 'og:locale:alternate');
  if (alternates.length > 0 && !('ogLocaleAlternate' in metadata.extra)) metadata.extra.ogLocaleAlternate = alternates;
  const icon = favicon(head.links, baseUrl);
  if (icon !== undefined && !('favicon' in metadata.extra)) metadata.extra.favicon = icon;
  return metadata;
}
