/**
 * Imported content (ECMA-376 §17.17.2.1 `w:altChunk`): a block whose content lives in another
 * part of the package — HTML, MHTML or plain text — that Word converts when it opens the file.
 * mammoth skips it, which leaves documents made by HTML-to-Word exporters empty. Before
 * conversion each readable altChunk becomes a paragraph holding a sentinel; after conversion
 * that paragraph is replaced by the imported content (imported-html.ts). Kinds not read here
 * (an embedded .docx or RTF) stay as they are, and mammoth's message about them becomes a
 * warning.
 */
import iconv from 'iconv-lite';
import { decodeHtml } from '../html/decode.ts';
import { contentTypeOf, type ContentTypes } from './content-types.ts';
import { importHtml, type ImportOptions } from './imported-html.ts';
import type { DocxPackage } from './package.ts';
import { resolvePartName, xmlAttribute, type Relationship } from './xml.ts';

const OPEN = '\uE002';
const CLOSE = '\uE003';
const SENTINEL = /^\s*\uE002(\d+)\uE003\s*$/;
const ALT_CHUNK = /<w:altChunk\b[^>]*?(?:\/>|>[\s\S]*?<\/w:altChunk>)/g;

export interface AltChunkContext extends ImportOptions {
  pkg: DocxPackage;
  mainPart: string;
  rels: Map<string, Relationship>;
  contentTypes: ContentTypes;
}

/** Headers of a MIME entity and where its body starts (RFC 5322 unfolding). */
function splitEntity(text: string): { headers: Map<string, string>; body: string } {
  const end = text.search(/\r?\n\r?\n/);
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function parameter(header: string | undefined, name: string): string | undefined {
  const match = header ? new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header) : null;
  return match ? (match[1] ?? match[2]) : undefined;
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const ch = soft.charCodeAt(i);
    if (ch === 0x3d && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(ch & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function entityText(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const bytes = encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body, 'base64') : Buffer.from(body, 'latin1');
  const charset = parameter(headers.get('content-type'), 'charset');
  if (charset && iconv.encodingExists(charset)) return iconv.decode(bytes, charset);
  return decodeHtml(bytes).text;
}

/** The HTML of an MHTML archive (RFC 2557): the root, else the first text/html part. */
export function htmlOfMhtml(text: string): string | undefined {
  const top = splitEntity(text);
  const type = top.headers.get('content-type') ?? '';
  if (/^text\/html/i.test(type)) return entityText(top.headers, top.body);
  const boundary = parameter(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary) return undefined;
  for (const part of top.body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const entity = splitEntity(part.replace(/^\r?\n/, ''));
    if (/^text\/html/i.test(entity.headers.get('content-type') ?? '')) return entityText(entity.headers, entity.body);
  }
  return undefined;
}

function importedHtml(part: string, bytes: Uint8Array, ctx: AltChunkContext): string | undefined {
  const type = (contentTypeOf(ctx.contentTypes, part) ?? '').toLowerCase();
  const ext = part.toLowerCase().replace(/^.*\./, '');
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'message/rfc822' || type === 'multipart/related' || type === 'application/x-mimearchive' || ext === 'mht' || ext === 'mhtml') {
    const html = htmlOfMhtml(buffer.toString('latin1'));
    return html === undefined ? undefined : importHtml(html, ctx);
  }
  if (type === 'text/html' || type === 'application/xhtml+xml' || ext === 'html' || ext === 'htm' || ext === 'xhtml') {
    return importHtml(decodeHtml(buffer).text, ctx);
  }
  if (type === 'text/plain' || ext === 'txt') {
    return decodeHtml(buffer)
      .text.split(/\r?\n/)
      .filter((line) => line.trim() !== '')
      .map((line) => `<p>${line.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))}</p>`)
      .join('');
  }
  return undefined;
}

export class AltChunks {
  private readonly items: string[] = [];

  /** document.xml with each readable altChunk replaced by a sentinel paragraph. */
  patch(xml: string, ctx: AltChunkContext): string {
    if (!xml.includes('<w:altChunk')) return xml;
    return xml.replace(ALT_CHUNK, (element) => {
      const id = xmlAttribute(element.slice(0, element.indexOf('>') + 1), 'r:id');
      const rel = id ? ctx.rels.get(id) : undefined;
      if (!rel || rel.external) return element;
      const part = resolvePartName(ctx.mainPart, rel.target);
      const bytes = ctx.pkg.bytesOf(part);
      const html = bytes ? importedHtml(part, bytes, ctx) : undefined;
      if (html === undefined) return element;
      this.items.push(html);
      return `<w:p><w:r><w:t>${OPEN}${this.items.length - 1}${CLOSE}</w:t></w:r></w:p>`;
    });
  }

  /** Replaces each sentinel paragraph by the imported content. */
  restore(body: Element): void {
    if (this.items.length === 0) return;
    const document = body.ownerDocument;
    for (const paragraph of Array.from(body.querySelectorAll('p'))) {
      const match = SENTINEL.exec(paragraph.textContent ?? '');
      const html = match ? this.items[Number(match[1])] : undefined;
      if (html === undefined) continue;
      const holder = document.createElement('div');
      holder.innerHTML = html;
      while (holder.firstChild) paragraph.parentNode?.insertBefore(holder.firstChild, paragraph);
      paragraph.remove();
    }
  }
}
