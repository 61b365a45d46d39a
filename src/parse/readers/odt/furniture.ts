/**
 * Running headers and footers: the master pages of styles.xml (ODF 1.2 Part 1 §16.9) hold
 * `style:header`, `style:header-left`, `style:header-first` and the footer counterparts. Each
 * distinct one becomes page furniture (`<header data-furniture="header">`), converted with the
 * automatic styles of styles.xml. Hidden ones (`style:display="false"`) are left out.
 */
import type { OdtConverter } from './convert.ts';
import { attr } from './xml.ts';

export interface Furniture {
  headers: string[];
  footers: string[];
}

const HEADER = new Set(['style:header', 'style:header-left', 'style:header-first']);
const FOOTER = new Set(['style:footer', 'style:footer-left', 'style:footer-first']);

export function readFurniture(stylesRoot: Element | undefined, converter: OdtConverter): Furniture {
  const furniture: Furniture = { headers: [], footers: [] };
  if (!stylesRoot) return furniture;
  const masters = Array.from(stylesRoot.children).find((c) => c.tagName === 'office:master-styles');
  if (!masters) return furniture;
  const seen = new Set<string>();
  for (const page of Array.from(masters.children)) {
    if (page.tagName !== 'style:master-page') continue;
    for (const part of Array.from(page.children)) {
      const isHeader = HEADER.has(part.tagName);
      if ((!isHeader && !FOOTER.has(part.tagName)) || attr(part, 'style:display') === 'false') continue;
      const html = converter.blocks(part).trim();
      const key = `${isHeader ? 'h' : 'f'}${html}`;
      if (!html || seen.has(key)) continue;
      seen.add(key);
      (isHeader ? furniture.headers : furniture.footers).push(html);
    }
  }
  return furniture;
}
