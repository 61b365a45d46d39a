/**
 * Running headers and footers (ECMA-376 §17.10): each section's `w:sectPr` names a header and
 * a footer part per kind — `default`, `first` (shown only when the section has `w:titlePg`) and
 * `even` (shown only when settings.xml has `w:evenAndOddHeaders`); a section without a
 * reference inherits the previous section's. The parts that can appear are converted in section
 * order, identical ones once, and become page furniture:
 * `<header data-furniture="header">` / `<footer data-furniture="footer">` (cross-team contract).
 */
import type { ContentTypes } from './content-types.ts';
import type { DocxPackage } from './package.ts';
import { convertBlocks, type PartContext } from './part-html.ts';
import { parseXml, readRelationships, relsPartName, resolvePartName, xmlAttribute, type Relationship } from './xml.ts';

export interface Furniture {
  headers: string[];
  footers: string[];
}

interface SectionRefs {
  header: Map<string, string>;
  footer: Map<string, string>;
  titlePage: boolean;
}

function isOn(tag: string): boolean {
  const value = xmlAttribute(tag, 'w:val');
  return value === undefined || !/^(0|false|off)$/i.test(value);
}

/** Header/footer references of every section, in document order (a scan: no full parse). */
export function sectionReferences(documentXml: string): SectionRefs[] {
  const sections: SectionRefs[] = [];
  for (const match of documentXml.matchAll(/<w:sectPr\b[^>]*>([\s\S]*?)<\/w:sectPr>/g)) {
    const body = match[1] ?? '';
    const refs: SectionRefs = { header: new Map(), footer: new Map(), titlePage: false };
    for (const tag of body.matchAll(/<w:(header|footer)Reference\b[^>]*>/g)) {
      const kind = tag[1] === 'header' ? refs.header : refs.footer;
      const id = xmlAttribute(tag[0], 'r:id');
      const type = xmlAttribute(tag[0], 'w:type') ?? 'default';
      if (id && !kind.has(type)) kind.set(type, id);
    }
    const titlePg = /<w:titlePg\b[^>]*>/.exec(body);
    refs.titlePage = titlePg !== null && isOn(titlePg[0]);
    sections.push(refs);
  }
  return sections;
}

function evenAndOddHeaders(pkg: DocxPackage): boolean {
  const settings = pkg.textOf('word/settings.xml');
  if (!settings) return false;
  const tag = /<w:evenAndOddHeaders\b[^>]*>/.exec(settings);
  return tag !== null && isOn(tag[0]);
}

function partHtml(pkg: DocxPackage, partName: string, base: Omit<PartContext, 'partName' | 'rels'>): string | undefined {
  const text = pkg.textOf(partName);
  if (!text) return undefined;
  const root = parseXml(text).documentElement;
  if (!root) return undefined;
  const ctx: PartContext = { ...base, partName, rels: readRelationships(pkg.textOf(relsPartName(partName))) };
  const html = convertBlocks(root, ctx).join('');
  return html === '' ? undefined : html;
}

export function readFurniture(
  pkg: DocxPackage,
  mainPart: string,
  documentXml: string,
  documentRels: Map<string, Relationship>,
  options: { embedImages: boolean; imageFallbackAlt: string; contentTypes: ContentTypes },
): Furniture {
  const furniture: Furniture = { headers: [], footers: [] };
  const sections = sectionReferences(documentXml);
  if (sections.length === 0) return furniture;
  const evenOdd = evenAndOddHeaders(pkg);
  const base = { pkg, ...options };

  for (const kind of ['header', 'footer'] as const) {
    const seenParts = new Set<string>();
    const seenHtml = new Set<string>();
    const out = kind === 'header' ? furniture.headers : furniture.footers;
    // A section without a reference of some type uses the previous section's (§17.10.5).
    const inherited = new Map<string, string>();
    for (const section of sections) {
      for (const [type, id] of section[kind]) inherited.set(type, id);
      const types = [section.titlePage ? 'first' : undefined, 'default', evenOdd ? 'even' : undefined];
      for (const type of types) {
        if (!type) continue;
        const id = inherited.get(type);
        const rel = id ? documentRels.get(id) : undefined;
        if (!rel || rel.external) continue;
        const part = resolvePartName(mainPart, rel.target);
        if (seenParts.has(part)) continue;
        seenParts.add(part);
        const html = partHtml(pkg, part, base);
        if (html === undefined || seenHtml.has(html)) continue;
        seenHtml.add(html);
        out.push(html);
      }
    }
  }
  return furniture;
}

