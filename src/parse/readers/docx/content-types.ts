/** `[Content_Types].xml` (OPC §10.1.2): part name → media type, by override then by extension. */
import { parseXml } from './xml.ts';

export interface ContentTypes {
  byExtension: Map<string, string>;
  byPart: Map<string, string>;
}

/** Types of common picture extensions, for packages whose content-types part omits them. */
const KNOWN: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  emf: 'image/x-emf',
  wmf: 'image/x-wmf',
};

export function readContentTypes(text: string | undefined): ContentTypes {
  const types: ContentTypes = { byExtension: new Map(), byPart: new Map() };
  if (!text) return types;
  const doc = parseXml(text);
  for (const el of Array.from(doc.getElementsByTagName('Default'))) {
    const ext = el.getAttribute('Extension');
    const type = el.getAttribute('ContentType');
    if (ext && type) types.byExtension.set(ext.toLowerCase(), type);
  }
  for (const el of Array.from(doc.getElementsByTagName('Override'))) {
    const part = el.getAttribute('PartName');
    const type = el.getAttribute('ContentType');
    if (part && type) types.byPart.set(part.replace(/^\/+/, '').toLowerCase(), type);
  }
  return types;
}

export function contentTypeOf(types: ContentTypes, partName: string): string | undefined {
  const lower = partName.replace(/^\/+/, '').toLowerCase();
  const override = types.byPart.get(lower);
  if (override) return override;
  const ext = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  return types.byExtension.get(ext) ?? KNOWN[ext];
}
