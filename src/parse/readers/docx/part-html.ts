/**
 * A small WordprocessingML → intermediate-HTML converter for the story parts mammoth does not
 * read (headers and footers). It covers what such parts hold: paragraphs with line breaks and
 * tabs, hyperlinks, field results (not field codes), tables with merged cells, text boxes,
 * content controls and pictures. Formatting runs are kept plain on purpose: page furniture is
 * text, not emphasis.
 */
import { escapeHtml } from '../../document.ts';
import { altText } from './alt-text.ts';
import type { DocxPackage } from './package.ts';
import { contentTypeOf, type ContentTypes } from './content-types.ts';
import { childPath, childrenNamed, resolvePartName, type Relationship } from './xml.ts';

export interface PartContext {
  pkg: DocxPackage;
  /** The part being converted (relationship targets resolve against it). */
  partName: string;
  rels: Map<string, Relationship>;
  contentTypes: ContentTypes;
  /** Embed pictures as data: URIs (otherwise `<img alt>` only). */
  embedImages: boolean;
  imageFallbackAlt: string;
}

/** Elements whose content is read as if it were in place. */
const TRANSPARENT = new Set(['w:customXml', 'w:smartTag', 'w:ins', 'w:fldSimple', 'w:moveTo', 'w:dir', 'w:bdo']);
/** Elements whose content is never shown. */
const SKIPPED = new Set(['w:del', 'w:moveFrom', 'w:instrText', 'w:delText', 'w:delInstrText', 'w:pPr', 'w:rPr', 'w:sectPr', 'w:sdtPr', 'w:sdtEndPr', 'mc:Fallback']);

interface Output {
  /** Block HTML produced so far for the current container. */
  blocks: string[];
  /** Inline HTML of the paragraph being built. */
  inline: string[];
  /** Blocks found inside the paragraph (text boxes), emitted after it. */
  extra: string[];
}

function imageHtml(relId: string | null, descr: string, ctx: PartContext): string {
  const rel = relId ? ctx.rels.get(relId) : undefined;
  if (ctx.embedImages && rel && !rel.external) {
    const part = resolvePartName(ctx.partName, rel.target);
    const bytes = ctx.pkg.bytesOf(part);
    if (bytes) {
      const type = contentTypeOf(ctx.contentTypes, part) ?? 'application/octet-stream';
      const src = `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
      return `<img src="${escapeHtml(src)}" alt="${escapeHtml(altText(descr, ''))}">`;
    }
  }
  return `<img alt="${escapeHtml(altText(descr, ctx.imageFallbackAlt))}">`;
}

function walkInline(node: Element, out: Output, ctx: PartContext): void {
  for (const child of Array.from(node.children)) {
    const tag = child.tagName;
    if (SKIPPED.has(tag)) continue;
    switch (tag) {
      case 'w:t':
        out.inline.push(escapeHtml(child.textContent ?? ''));
        break;
      case 'w:tab':
      case 'w:ptab':
        out.inline.push('\t');
        break;
      case 'w:br':
      case 'w:cr':
        if (child.getAttribute('w:type') !== 'page' && child.getAttribute('w:type') !== 'column') out.inline.push('<br>');
        break;
      case 'w:noBreakHyphen':
        out.inline.push('\u2011');
        break;
      case 'w:hyperlink': {
        const relId = child.getAttribute('r:id');
        const rel = relId ? ctx.rels.get(relId) : undefined;
        const inner: Output = { blocks: out.blocks, inline: [], extra: out.extra };
        walkInline(child, inner, ctx);
        const text = inner.inline.join('');
        if (rel && rel.target && text.trim()) {
          out.inline.push(`<a href="${escapeHtml(rel.target)}">${text}</a>`);
        } else {
          out.inline.push(text);
        }
        break;
      }
      case 'w:txbxContent':
        out.extra.push(...convertBlocks(child, ctx));
        break;
      case 'a:blip': {
        const docPr = findDocPr(child);
        const descr = docPr?.getAttribute('descr')?.trim() || docPr?.getAttribute('title')?.trim() || '';
        out.inline.push(imageHtml(child.getAttribute('r:embed') ?? child.getAttribute('r:link'), descr, ctx));
        break;
      }
      case 'v:imagedata':
        out.inline.push(imageHtml(child.getAttribute('r:id'), child.getAttribute('o:title')?.trim() ?? '', ctx));
        break;
      case 'mc:AlternateContent': {
        // The first Choice is what Word shows; the Fallback repeats it for older readers.
        const choice = childrenNamed(child, 'mc:Choice')[0] ?? childrenNamed(child, 'mc:Fallback')[0];
        if (choice) walkInline(choice, out, ctx);
        break;
      }
      default:
        if (TRANSPARENT.has(tag) || tag.startsWith('w:') || tag.startsWith('wp:') || tag.startsWith('a:') || tag.startsWith('pic:') || tag.startsWith('wps:') || tag.startsWith('v:') || tag.startsWith('wpg:') || tag.startsWith('mc:')) {
          walkInline(child, out, ctx);
        }
    }
  }
}

/** The `wp:docPr` (alt text holder) of the drawing around a blip. */
function findDocPr(blip: Element): Element | undefined {
  let current: Element | null = blip.parentElement;
  while (current) {
    if (current.tagName === 'wp:inline' || current.tagName === 'wp:anchor') {
      return childrenNamed(current, 'wp:docPr')[0];
    }
    current = current.parentElement;
  }
  return undefined;
}

function paragraphHtml(p: Element, ctx: PartContext): string[] {
  const out: Output = { blocks: [], inline: [], extra: [] };
  walkInline(p, out, ctx);
  const inline = out.inline.join('');
  const visible = inline.replace(/<br>/g, '').replace(/\s+/g, '') !== '';
  const blocks = visible ? [`<p>${inline.replace(/^(<br>)+|(<br>)+$/g, '')}</p>`] : [];
  return blocks.concat(out.extra);
}

interface CellDraft {
  html: string;
  colspan: number;
  rowspan: number;
  /** vMerge continuation: merged into the cell above. */
  continues: boolean;
}

function tableHtml(tbl: Element, ctx: PartContext): string {
  const rows: CellDraft[][] = [];
  for (const tr of childrenNamed(tbl, 'w:tr')) {
    const row: CellDraft[] = [];
    const gridBefore = Number(childPath(tr, 'w:trPr', 'w:gridBefore')?.getAttribute('w:val') ?? 0) || 0;
    if (gridBefore > 0) row.push({ html: '', colspan: gridBefore, rowspan: 1, continues: false });
    for (const tc of cellsOf(tr)) {
      const span = Number(childPath(tc, 'w:tcPr', 'w:gridSpan')?.getAttribute('w:val') ?? 1) || 1;
      const vMerge = childPath(tc, 'w:tcPr', 'w:vMerge');
      const continues = vMerge !== undefined && (vMerge.getAttribute('w:val') ?? 'continue') === 'continue';
      row.push({ html: convertBlocks(tc, ctx).join(''), colspan: Math.max(1, span), rowspan: 1, continues });
    }
    rows.push(row);
  }
  // vMerge: a continuation cell adds a row to the cell that starts the merge in its grid column.
  const origins = new Map<number, CellDraft>();
  for (const row of rows) {
    let column = 0;
    for (const cell of row) {
      const origin = origins.get(column);
      if (cell.continues && origin) origin.rowspan++;
      else {
        cell.continues = false;
        origins.set(column, cell);
      }
      column += cell.colspan;
    }
  }
  const body = rows
    .map((row) => {
      const cells = row
        .filter((cell) => !cell.continues)
        .map((cell) => {
          const attrs = (cell.colspan > 1 ? ` colspan="${cell.colspan}"` : '') + (cell.rowspan > 1 ? ` rowspan="${cell.rowspan}"` : '');
          return `<td${attrs}>${cell.html}</td>`;
        });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  return `<table><tbody>${body}</tbody></table>`;
}

/** Cells of a row, looking through content controls and custom XML around them. */
function cellsOf(tr: Element): Element[] {
  const cells: Element[] = [];
  for (const child of Array.from(tr.children)) {
    if (child.tagName === 'w:tc') cells.push(child);
    else if (child.tagName === 'w:sdt') cells.push(...cellsOf(childPath(child, 'w:sdtContent') ?? child));
    else if (child.tagName === 'w:customXml') cells.push(...cellsOf(child));
  }
  return cells;
}

/** Block-level content of a story container (w:hdr, w:ftr, w:tc, w:txbxContent, w:sdtContent …). */
export function convertBlocks(container: Element, ctx: PartContext): string[] {
  const blocks: string[] = [];
  for (const child of Array.from(container.children)) {
    switch (child.tagName) {
      case 'w:p':
        blocks.push(...paragraphHtml(child, ctx));
        break;
      case 'w:tbl':
        blocks.push(tableHtml(child, ctx));
        break;
      case 'w:sdt': {
        const content = childPath(child, 'w:sdtContent');
        if (content) blocks.push(...convertBlocks(content, ctx));
        break;
      }
      case 'w:customXml':
      case 'w:ins':
        blocks.push(...convertBlocks(child, ctx));
        break;
      default:
        break;
    }
  }
  return blocks;
}
