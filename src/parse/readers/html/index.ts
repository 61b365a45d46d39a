/**
 * The HTML reader: decodes the bytes (decode.ts), parses them with linkedom, and reads the
 * page's metadata. The page keeps its own tree; the clean step turns it into main content.
 */
import { parseHTML } from 'linkedom';
import type { ReadInput, ReadResult } from '../../document.ts';
import { sourceLimits } from '../../limits.ts';
import { checkHtmlBounds } from './bounds.ts';
import { decodeHtml } from './decode.ts';
import { collectHeadElements } from './head-elements.ts';
import { attribute, extractMetadata } from './metadata.ts';
import { normalizeStructure } from './structure.ts';

/** `<base href>` when it is an absolute URL (a relative one has nothing to resolve against). */
export function absoluteBaseHref(bases: readonly Element[]): string | undefined {
  let href: string | undefined;
  for (const base of bases) {
    href = attribute(base, 'href')?.trim();
    if (href !== undefined) break;
  }
  if (!href) return undefined;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'file:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export async function readHtml(input: ReadInput): Promise<ReadResult> {
  const decoded = decodeHtml(input.bytes);
  checkHtmlBounds(decoded.text, sourceLimits(input.limits));
  input.signal.throwIfAborted();
  const { document } = parseHTML(decoded.text);
  normalizeStructure(document);
  input.signal.throwIfAborted();
  const head = collectHeadElements(document);
  const baseUrl = absoluteBaseHref(head.bases);
  const result: ReadResult = {
    document,
    metadata: extractMetadata(document, head, baseUrl),
    warnings: decoded.warnings,
    rawHtml: decoded.text,
  };
  if (baseUrl !== undefined) result.baseUrl = baseUrl;
  return result;
}
